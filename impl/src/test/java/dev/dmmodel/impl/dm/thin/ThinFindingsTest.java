package dev.dmmodel.impl.dm.thin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThinFindingsTest {

    private static List<FindingType> types(Layout l) {
        return l.findings().stream().map(Finding::type).toList();
    }

    @Test
    void seed004On310CanNeverOverwriteAWholeBlock() {
        Layout l = Layout.builder(KernelProfile.LINUX_3_10)
                .disk("sdg", DiskPresets.ahciSata().withSize(Bytes.parse("3TB")))
                .disk("sdh", DiskPresets.ahciSataSsd().withSize(Bytes.parse("128GB")))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.parse("2TiB"), "sdh", "sdg", 2048, 0))
                .dmsetupCreate("thin", t -> t.thin(Sectors.parse("100GiB"), "pool", 0))
                .build();
        // thin's max_sectors 1024 (BLK_DEF_MAX_SECTORS): bio_get_nr_vecs = min(168, 129, 256) pages, capped at 1024
        assertThat(types(l)).containsExactly(FindingType.THIN_BLOCK_LARGER_THAN_BIO);
        assertThat(l.findings().get(0).message()).contains("no bio reaching its thin devices can be larger than 1024");
        assertThat(l.findings().get(0).fix()).isEqualTo("use blocks of at most 1024 sectors (512KiB)");
    }

    @Test
    void twoMiBBlocksOnLinux612AreLargerThanADirectBio() {
        Layout l = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(8)))
                .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(8192), "sdb", Sectors.ZERO))
                .dmsetupCreate("tdata", t -> t.linear(Sectors.parse("4GiB"), "sdb", Sectors.of(8192)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.parse("4GiB"), "tmeta", "tdata", 4096, 0))
                .dmsetupCreate("thin", t -> t.thin(Sectors.parse("1GiB"), "pool", 0))
                .build();
        // a direct bio carries at most 256 scattered pages = 2048 sectors
        assertThat(types(l)).containsExactly(FindingType.THIN_BLOCK_LARGER_THAN_BIO);
    }

    @Test
    void overprovisioningSmallMetadataAndPartialStripes() {
        Layout l = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.tib(2)))
                .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(8192), "sda", Sectors.of(2048)))
                .dmsetupCreate("tdata", t -> t.linear(Sectors.parse("1TiB"), "sda", Sectors.of(10240)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.parse("1TiB"), "tmeta", "tdata", 128, 0))
                .dmsetupCreate("thin1", t -> t.thin(Sectors.parse("1TiB"), "pool", 1))
                .dmsetupCreate("thin2", t -> t.thin(Sectors.parse("1TiB"), "pool", 2))
                .build();
        List<Finding> f = l.findings();
        assertThat(types(l)).containsExactlyInAnyOrder(FindingType.THIN_BLOCK_NOT_FULL_STRIPE,
                FindingType.THIN_METADATA_TOO_SMALL, FindingType.THIN_OVERPROVISIONED);
        // 64 KiB blocks vs the 7 x 64 KiB = 448 KiB full stripe
        assertThat(f).anySatisfy(x -> assertThat(x.message()).contains("64KiB blocks on dm-1 whose full stripe is 448KiB"));
        // 1 TiB / 64 KiB = 16777216 blocks: 1 + ceil(16777216 / 126) + 2 = 1 + 133153 + 2 = 133156 blocks of 4 KiB
        // = 532624 KiB (not a whole number of MiB: 532624 / 1024 = 520.14)
        assertThat(f).anySatisfy(x -> assertThat(x.message()).contains("needs about 532624KiB"));
        assertThat(f).anySatisfy(x -> assertThat(x.message()).contains("2.00 times its 1TiB of data"));
        // metadata that cannot map the pool's own data runs out first: an error; overprovisioning is normal
        assertThat(f).filteredOn(x -> x.type() == FindingType.THIN_METADATA_TOO_SMALL)
                .extracting(Finding::severity).containsExactly(dev.dmmodel.finding.Severity.ERROR);
        assertThat(f.get(0).type()).as("errors first").isEqualTo(FindingType.THIN_METADATA_TOO_SMALL);
        assertThat(f).filteredOn(x -> x.type() == FindingType.THIN_OVERPROVISIONED)
                .extracting(Finding::severity).containsExactly(dev.dmmodel.finding.Severity.INFO);
    }

    private static Layout lvmPool(boolean spare) {
        // 256 MiB pool with 1 MiB chunks: LVM picks a 4 MiB (one extent) metadata LV
        return Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .pvcreate("sda")
                .vgcreate("vgt", "sda")
                .lvcreateThinPool("vgt", dev.dmmodel.lvm.ThinPoolRequest.builder("pool").size("256M")
                        .chunkSize("1M").poolMetadataSpare(spare).build())
                .build();
    }

    @Test
    void aPoolWithItsSpareHasNoSpareFinding() {
        assertThat(types(lvmPool(true))).doesNotContain(FindingType.THIN_NO_METADATA_SPARE);
    }

    @Test
    void aPoolCreatedWithoutASpareIsReported() {
        Layout l = lvmPool(false);
        List<Finding> f = l.findings().stream().filter(x -> x.type() == FindingType.THIN_NO_METADATA_SPARE).toList();
        assertThat(f).hasSize(1);
        assertThat(f.get(0).id()).isEqualTo("thin.pool.no-pmspare");
        assertThat(f.get(0).device()).isEqualTo("vgt");
        assertThat(f.get(0).message()).isEqualTo("volume group vgt has no pool metadata spare, but pool_tmeta has 1"
                + " extents (4MiB): lvconvert --repair of its pool has nowhere to write the repaired metadata");
        assertThat(f.get(0).fix()).isEqualTo("lvconvert --poolmetadataspare y vgt/pool (needs 1 free extents)");
    }

    @Test
    void layoutsWithoutThinPoolsNeedNoSpare() {
        Layout l = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .pvcreate("sda").vgcreate("vgt", "sda")
                .lvcreate("vgt", dev.dmmodel.lvm.LvCreateRequest.builder("lv").size("64M").build())
                .build();
        assertThat(types(l)).doesNotContain(FindingType.THIN_NO_METADATA_SPARE);
    }
}
