package dev.dmmodel.impl.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.limits.Derivation;
import dev.dmmodel.limits.Derivation.Source;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.LimitField;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Explanations pinned against the kernel's rules on the recorded cases the issue names: seed 004's thin device on
 * 3.10, the 6.12 LVM thin pool as recorded, and a partition at sector 63 on a hardware RAID5 as recorded on 6.1.
 * Every expected number is worked out in the comment from the rule, not read from the explainer.
 */
class LimitsExplainerTest {

    /** Seed 004: an AHCI data disk sdg, an SSD sdh for metadata, pool dm-0 with 1 MiB blocks, thin dm-1. */
    static Layout seed004(KernelProfile p, boolean raise) {
        var b = Layout.builder(p)
                .disk("sdg", DiskPresets.ahciSata().withSize(Bytes.parse("3TB")))
                .disk("sdh", DiskPresets.ahciSataSsd().withSize(Bytes.parse("128GB")))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.parse("2TiB"), "sdh", "sdg", 2048, 0))
                .dmsetupCreate("thin", t -> t.thin(Sectors.parse("100GiB"), "pool", 0));
        if (raise) {
            b.maxSectorsKb("dm-1", 2048);
        }
        return b.build();
    }

    @Test
    void seed004ThinMaxSectorsComesFromTheSdDefaultOn310() {
        // sd on 3.10: max_sectors = min(max_hw_sectors 65535 (the AHCI preset), BLK_DEF_MAX_SECTORS 1024) = 1024
        // sectors = 512 KiB; thin-pool and thin stack it with min_not_zero (pool_io_hints leaves max_sectors alone
        // before 3.19), so dm-0 and dm-1 report 512. pool_iterate_devices passes only the data device (sdg).
        Derivation d = seed004(KernelProfile.LINUX_3_10, false).explain("dm-1", LimitField.MAX_SECTORS_KB);
        assertThat(d.value()).isEqualTo(512);
        assertThat(d.source()).isEqualTo(Source.STACKED);
        assertThat(d.rule()).contains("dm_calculate_queue_limits");
        assertThat(d.detail()).startsWith("min_not_zero over its table").contains("thin → dm-0");
        Derivation pool = d.inputs().get(0);
        assertThat(pool.device()).isEqualTo("dm-0");
        assertThat(pool.value()).isEqualTo(512);
        assertThat(pool.inputs()).extracting(Derivation::device).containsExactly("sdg");
        Derivation sdg = pool.inputs().get(0);
        assertThat(sdg.value()).isEqualTo(512);
        assertThat(sdg.source()).isEqualTo(Source.PROFILE_DEFAULT);
        assertThat(sdg.detail()).contains("BLK_DEF_MAX_SECTORS 1024").contains("linux-3.10");
        // the hardware value below it: max_hw_sectors 65535 sectors = 32767 KiB (sysfs truncates)
        assertThat(sdg.inputs()).singleElement().satisfies(hw -> {
            assertThat(hw.field()).isEqualTo(LimitField.MAX_HW_SECTORS_KB);
            assertThat(hw.value()).isEqualTo(32767);
            assertThat(hw.source()).isEqualTo(Source.HARDWARE);
        });
        assertThat(d.devices()).containsExactly("dm-1", "dm-0", "sdg");
        assertThat(d.summary()).startsWith("dm-1 max_sectors_kb 512 = min_not_zero over its table")
                .contains("dm-0 512 = ").contains("sdg 512 = sd: min(max_hw_sectors 65535, BLK_DEF_MAX_SECTORS 1024)");
    }

    @Test
    void seed004SysfsWriteIsNamedAboveTheRulesValue() {
        // the reporter's echo 2048 > /sys/block/dm-1/queue/max_sectors_kb: accepted (2048 ≤ max_hw_sectors_kb
        // 32767); the tree keeps the 512 the rules gave underneath
        Derivation d = seed004(KernelProfile.LINUX_3_10, true).explain("/dev/mapper/thin", LimitField.MAX_SECTORS_KB);
        assertThat(d.value()).isEqualTo(2048);
        assertThat(d.source()).isEqualTo(Source.SYSFS_WRITE);
        assertThat(d.detail()).contains("echo 2048 > /sys/block/dm-1/queue/max_sectors_kb");
        assertThat(d.inputs()).singleElement().extracting(Derivation::value).isEqualTo(512L);
    }

    @Test
    void seed004ThinPoolHintsOn310() {
        // pool_io_hints (3.x): io_opt = the pool's block, 2048 sectors = 1048576 bytes; io_min untouched on 3.10
        // (512 from sdg); thin stacks lcm_not_zero(0, 1048576) = 1048576
        Layout l = seed004(KernelProfile.LINUX_3_10, false);
        Derivation opt = l.explain("dm-1", LimitField.OPTIMAL_IO_SIZE);
        assertThat(opt.value()).isEqualTo(1048576);
        Derivation hint = opt.inputs().get(0);
        assertThat(hint.device()).isEqualTo("dm-0");
        assertThat(hint.source()).isEqualTo(Source.TARGET_HINTS);
        assertThat(hint.rule()).isEqualTo("drivers/md/dm-thin.c: pool_io_hints");
        assertThat(hint.inputs()).singleElement().extracting(Derivation::value).isEqualTo(0L);
        assertThat(l.explain("dm-1", LimitField.MINIMUM_IO_SIZE).value()).isEqualTo(512);
    }

    private static Layout recorded(String snapshot) throws URISyntaxException {
        Path dir = Path.of(LimitsExplainerTest.class.getResource("/snapshots/" + snapshot).toURI());
        return Layout.of(HostSnapshot.read(dir).toLayoutSpec());
    }

    @Test
    void recorded612ThinMaxSectorsIsTheCommitsCap() throws Exception {
        // 6.12 as recorded: sdb max_hw_sectors_kb 32767 (65534 sectors), stacked min_not_zero through tdata,
        // tpool, pool and thin; blk_validate_limits then sets max_sectors = min(max_hw_sectors 65534,
        // BLK_DEF_MAX_SECTORS_CAP 2560) = 2560 sectors = 1280 KiB (io_opt 1 MiB = 2048 sectors is below the cap, so it
        // does not raise it). sysfs showed 1280 for vgt-thin (dm-4).
        Layout l = recorded("thin-lvm-zy-direct1M-6.12");
        Derivation d = l.explain("/dev/mapper/vgt-thin", LimitField.MAX_SECTORS_KB);
        assertThat(d.device()).isEqualTo("dm-4");
        assertThat(d.value()).isEqualTo(1280);
        assertThat(d.source()).isEqualTo(Source.COMMIT);
        assertThat(d.rule()).isEqualTo("block/blk-settings.c: blk_validate_limits");
        assertThat(d.detail()).contains("BLK_DEF_MAX_SECTORS_CAP 2560").contains("= 2560 sectors");
        assertThat(d.inputs()).singleElement().satisfies(hw -> {
            assertThat(hw.field()).isEqualTo(LimitField.MAX_HW_SECTORS_KB);
            assertThat(hw.value()).isEqualTo(32767);
        });
        assertThat(d.leaves()).extracting(Derivation::device, Derivation::field, Derivation::source)
                .contains(org.assertj.core.groups.Tuple.tuple("sdb", LimitField.MAX_HW_SECTORS_KB, Source.HARDWARE));
    }

    @Test
    void recorded612ThinHintsNameTheirTargets() throws Exception {
        // 6.12: pool_io_hints sets io_min = io_opt = the block (2048 sectors = 1048576 bytes) on vgt-pool-tpool
        // (dm-2); thin_io_hints sets discard_granularity = the block on vgt-thin (dm-4): sysfs 1048576 for both
        Layout l = recorded("thin-lvm-zy-direct1M-6.12");
        Derivation min = l.explain("dm-2", LimitField.MINIMUM_IO_SIZE);
        assertThat(min.value()).isEqualTo(1048576);
        assertThat(min.walk()).anySatisfy(n -> {
            assertThat(n.rule()).isEqualTo("drivers/md/dm-thin.c: pool_io_hints");
            assertThat(n.detail()).isEqualTo("io_hints of thin-pool: 512 → 1048576");
        });
        Derivation gran = l.explain("dm-4", LimitField.DISCARD_GRANULARITY);
        assertThat(gran.value()).isEqualTo(1048576);
        assertThat(gran.source()).isEqualTo(Source.TARGET_HINTS);
        assertThat(gran.rule()).isEqualTo("drivers/md/dm-thin.c: thin_io_hints");
    }

    @Test
    void partitionAt63OnRaid5() throws Exception {
        // recorded on 6.1: HW RAID5 sda with io_min 65536, io_opt 458752, msdos partition at sector 63. The
        // granularity is max(physical 512, io_min 65536) = 65536; 63 × 512 = 32256 bytes; bdev_alignment_offset =
        // (65536 + 0 − 32256) mod 65536 = 33280 (sysfs showed 33280).
        Layout l = recorded("lp-raid-part63-4M-lv-direct64k");
        Derivation part = l.explain("sda1", LimitField.ALIGNMENT_OFFSET);
        assertThat(part.value()).isEqualTo(33280);
        assertThat(part.rule()).isEqualTo("block/blk-settings.c: bdev_alignment_offset");
        assertThat(part.detail()).contains("sector 63 of sda").contains("granularity 65536");
        assertThat(part.inputs()).extracting(Derivation::device, Derivation::field, Derivation::value).containsExactly(
                org.assertj.core.groups.Tuple.tuple("sda", LimitField.PHYSICAL_BLOCK_SIZE, 512L),
                org.assertj.core.groups.Tuple.tuple("sda", LimitField.MINIMUM_IO_SIZE, 65536L),
                org.assertj.core.groups.Tuple.tuple("sda", LimitField.ALIGNMENT_OFFSET, 0L));
        // the LV (dm-0: linear 8:1 2753) starts at 63 + 2753 = 2816 sectors of sda = 1441792 bytes = 22 × 65536,
        // so its alignment there is (65536 + 0 − 0) mod 65536 = 0: LVM's pe_start made up for the partition
        Derivation lv = l.explain("/dev/vg/lv", LimitField.ALIGNMENT_OFFSET);
        assertThat(lv.value()).isEqualTo(0);
        assertThat(lv.inputs()).singleElement().satisfies(in -> {
            assertThat(in.device()).isEqualTo("sda1");
            assertThat(in.rule()).isEqualTo("block/blk-settings.c: queue_limit_alignment_offset");
            assertThat(in.detail()).contains("sector 2816 of sda");
            assertThat(in.value()).isEqualTo(0);
        });
        // any other field of a partition is its disk's: io_opt 458752 as the device reports it
        Derivation opt = l.explain("sda1", LimitField.OPTIMAL_IO_SIZE);
        assertThat(opt.value()).isEqualTo(458752);
        assertThat(opt.inputs()).singleElement().satisfies(in -> {
            assertThat(in.device()).isEqualTo("sda");
            assertThat(in.source()).isEqualTo(Source.HARDWARE);
        });
    }

    @Test
    void misalignedLinearOnThePartitionSaysWhere() {
        // a linear target at offset 0 of sda1 (sector 63 of an io_min 64 KiB disk) on 6.1: its alignment is
        // queue_limit_alignment_offset(sda, 63) = (65536 − 32256) mod 65536 = 33280, and blk_stack_limits keeps
        // lcm_not_zero(0, 33280) mod 65536 = 33280 (6.1 does not reduce it modulo the physical block on commit)
        Layout l = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.hardwareRaid(dev.dmmodel.device.RaidLevel.RAID5, 8, Bytes.kib(64))
                        .withSize(Bytes.gib(4)))
                .partitionTable("sda", dev.dmmodel.device.PartitionTableType.MSDOS,
                        dev.dmmodel.device.PartitionSpec.atToEnd(Sectors.of(63)))
                .dmsetupCreate("lin", t -> t.linear(Sectors.of(2048), "sda1", Sectors.of(0)))
                .build();
        Derivation d = l.explain("lin", LimitField.ALIGNMENT_OFFSET);
        assertThat(d.value()).isEqualTo(33280);
        assertThat(d.inputs()).singleElement().satisfies(in -> {
            assertThat(in.detail()).contains("sector 63 of sda");
            assertThat(in.value()).isEqualTo(33280);
        });
    }

    @Test
    void everyFieldOfEveryDeviceExplainsTheReportedValue() throws Exception {
        // the root of each tree is the value the layout reports, and each node's inputs name devices of the layout
        for (String snapshot : List.of("thin-lvm-zy-direct1M-6.12", "thin-lvm-zy-direct1M",
                "lp-raid-part63-4M-lv-direct64k", "md-raid5-lvm", "crypt-plain-showkeys", "rhel7-3.10-linear",
                "mpath-rr-scsi-debug")) {
            Layout l = recorded(snapshot);
            for (BlockDevice dev : l.devices()) {
                List<Derivation> all = l.explain(dev.name());
                assertThat(all).hasSize(LimitField.values().length);
                for (Derivation d : all) {
                    assertThat(d.value()).as(snapshot + " " + dev.name() + " " + d.field())
                            .isEqualTo(d.field().valueOf(dev.limits()));
                    assertThat(d.walk()).allSatisfy(n -> assertThat(l.find(n.device())).isPresent());
                    assertThat(d.walk()).as(snapshot + " " + dev.name() + " " + d.field() + " re-derived")
                            .noneSatisfy(n -> assertThat(n.detail()).contains("could not be re-run"));
                }
            }
        }
    }

    @Test
    void aCryptKeyNeverAppearsInAnExplanation() throws Exception {
        Layout l = recorded("crypt-plain-showkeys");
        String table = java.nio.file.Files.readString(Path.of(LimitsExplainerTest.class
                .getResource("/snapshots/crypt-plain-showkeys/dmsetup-table.txt").toURI()));
        // the key is the fifth word of the crypt line: "<start> <len> crypt <cipher> <key> ..."
        String key = java.util.Arrays.stream(table.split("\n")).filter(x -> x.contains(" crypt "))
                .map(x -> x.split("\\s+")[5]).findFirst().orElseThrow();
        assertThat(key).hasSizeGreaterThan(16);
        for (BlockDevice dev : l.devices()) {
            for (Derivation d : l.explain(dev.name())) {
                assertThat(d.tree()).doesNotContain(key);
                assertThat(d.summary()).doesNotContain(key);
            }
        }
    }

    @Test
    void unknownDeviceIsNamed() {
        Layout l = seed004(KernelProfile.LINUX_3_10, false);
        assertThatThrownBy(() -> l.explain("sdz", LimitField.MAX_SECTORS_KB)).isInstanceOf(LayoutException.class)
                .hasMessageContaining("no device 'sdz'");
        assertThatThrownBy(() -> LimitField.of("max_sector_kb")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown queue limit 'max_sector_kb'").hasMessageContaining("max_sectors_kb");
    }
}
