package dev.dmmodel.impl.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.Derivation;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.LimitField;
import dev.dmmodel.limits.LimitRef;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Findings name the limits they rest on, and each of those explains to the value the finding quotes. */
class FindingBasisTest {

    private static Layout recorded(String snapshot) throws Exception {
        Path dir = Path.of(FindingBasisTest.class.getResource("/snapshots/" + snapshot).toURI());
        return Layout.of(HostSnapshot.read(dir).toLayoutSpec());
    }

    private static Finding only(Layout l, FindingType type) {
        List<Finding> f = l.findings().stream().filter(x -> x.type() == type).toList();
        assertThat(f).as("%s in %s", type, l.findings()).hasSize(1);
        return f.get(0);
    }

    @Test
    void aPartitionAt63OnAHardwareRaid5RestsOnTheDisksIoMinAndThePartitionsOffset() {
        // sda: RAID5 of 8 disks with 64 KiB chunks (io_min 65536, io_opt 7 x 65536 = 458752); sda1 at sector 63
        // = 32256 bytes, not a multiple of 65536: misaligned to io_min (the first grain it misses after 512)
        Layout l = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4)))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
                .build();
        Finding f = only(l, FindingType.PARTITION_MISALIGNED_IO_MIN);
        assertThat(f.basis()).containsExactly(new LimitRef("sda", LimitField.MINIMUM_IO_SIZE),
                new LimitRef("sda1", LimitField.ALIGNMENT_OFFSET));
        // the two numbers behind it, from their rules: io_min 65536 from the RAID controller; sda1's offset
        // (65536 - 32256) mod 65536 = 33280 from bdev_alignment_offset
        assertThat(l.explain(f.basis().get(0)).value()).isEqualTo(65536);
        Derivation off = l.explain(f.basis().get(1));
        assertThat(off.value()).isEqualTo(33280);
        assertThat(off.rule()).isEqualTo("block/blk-settings.c: bdev_alignment_offset");
    }

    @Test
    void seed004sThinBlockLargerThanAnyBioRestsOnTheThinDevicesLimits() {
        // 3.10, max_sectors_kb untouched: thin's bios are at most min(nr_vecs 129 pages, max_sectors 1024) = 1024
        // sectors < the 2048-sector block; bios are built then, so max_segments counts as well
        Layout l = LimitsExplainerTest.seed004(KernelProfile.LINUX_3_10, false);
        Finding f = only(l, FindingType.THIN_BLOCK_LARGER_THAN_BIO);
        assertThat(f.basis()).containsExactly(new LimitRef("dm-1", LimitField.MAX_SECTORS_KB),
                new LimitRef("dm-1", LimitField.MAX_SEGMENTS));
        // 512 KiB from sd's BLK_DEF_MAX_SECTORS on sdg, stacked through the pool
        assertThat(l.explain(f.basis().get(0)).leaves()).anySatisfy(leaf -> {
            assertThat(leaf.device()).isEqualTo("sdg");
            assertThat(leaf.field()).isEqualTo(LimitField.MAX_HW_SECTORS_KB);
        });
        assertThat(l.explain(f.basis().get(1)).value()).isEqualTo(168);
    }

    @Test
    void everyBasisOfEveryRecordedFindingExplains() throws Exception {
        // whatever a finding rests on is a device of the layout and explains to the value the layout reports
        int refs = 0;
        for (String snapshot : List.of("lp-raid-part63-4M-lv-direct64k", "md-raid5-lvm", "crypt-plain-showkeys",
                "rhel7-3.10-linear", "mpath-rr-scsi-debug", "mpath-st-scsi-hd", "limits-sd-512e",
                "thin-lvm-zy-direct1M-6.12")) {
            Layout l = recorded(snapshot);
            for (Finding f : l.findings()) {
                for (LimitRef r : f.basis()) {
                    assertThat(l.find(r.device())).as("%s of %s in %s", r, f.id(), snapshot).isPresent();
                    assertThat(l.explain(r).value()).as("%s of %s in %s", r, f.id(), snapshot)
                            .isEqualTo(r.field().valueOf(l.limits(r.device())));
                    refs++;
                }
            }
        }
        // limits-sd-512e alone has misaligned partitions at 63 on 4 KiB-physical disks and a -1 stripe set
        assertThat(refs).isGreaterThan(4);
    }
}
