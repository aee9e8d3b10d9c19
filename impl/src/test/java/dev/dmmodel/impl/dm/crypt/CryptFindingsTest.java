package dev.dmmodel.impl.dm.crypt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.dm.CryptTarget;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import org.junit.jupiter.api.Test;

/** crypt.sector-size-below-physical-block and crypt.discards-dropped on crypt devices over whole disks. */
class CryptFindingsTest {

    /** A 1 GiB disk (2097152 sectors) of the spec with one crypt device over all of it past a 32768-sector header. */
    private static List<Finding> findings(DiskSpec disk, int sectorSize, boolean allowDiscards, FindingType type) {
        CryptTarget c = new CryptTarget(Sectors.ZERO, Sectors.of(2097152 - 32768), "aes-xts-plain64",
                ":64:logon:cryptsetup:0-d0", Sectors.ZERO, "vda", Sectors.of(32768), sectorSize, allowDiscards, false,
                List.of());
        Layout l = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("vda", disk.withSize(Bytes.gib(1)))
                .dmsetupCreate("cluks", DmTable.builder().add(c).build())
                .build();
        return l.findings().stream().filter(f -> f.type() == type).toList();
    }

    private static DiskSpec advancedFormat() {
        // a 512e drive: 512-byte logical, 4096-byte physical blocks; virtio-blk takes discards (granularity 512,
        // up to 4194303 sectors)
        return DiskPresets.virtioBlk().toBuilder().physicalBlockSize(4096).build();
    }

    @Test
    void a512ByteCryptSectorOnA4KiBPhysicalDiskIsAWarningWithTheRatio() {
        List<Finding> f = findings(advancedFormat(), 512, true, FindingType.CRYPT_SECTOR_BELOW_PHYSICAL_BLOCK);
        assertThat(f).hasSize(1);
        assertThat(f.get(0).id()).isEqualTo("crypt.sector-size-below-physical-block");
        assertThat(f.get(0).device()).isEqualTo("dm-0");
        // 4096 / 512 = 8 cipher runs per physical block
        assertThat(f.get(0).message()).isEqualTo("dm-0 (cluks) encrypts 512-byte sectors on vda, whose physical block"
                + " is 4096 bytes: it offers 512-byte logical blocks, so a write smaller than or off a 4096-byte block"
                + " is a read-modify-write in the drive, and the cipher runs 8 times per 4KiB");
        assertThat(f.get(0).fix()).contains("--sector-size 4096");
    }

    @Test
    void noSectorFindingWithCryptSectorsOfThePhysicalBlockOrOnA512ByteDisk() {
        assertThat(findings(advancedFormat(), 4096, true, FindingType.CRYPT_SECTOR_BELOW_PHYSICAL_BLOCK)).isEmpty();
        assertThat(findings(DiskPresets.virtioBlk(), 512, true, FindingType.CRYPT_SECTOR_BELOW_PHYSICAL_BLOCK))
                .isEmpty();
    }

    @Test
    void discardsWithoutAllowDiscardsOverADiskThatTakesThemAreDropped() {
        // the crypt-plain512-* cases: no allow_discards, discard_max_bytes 0 at the crypt device, while virtio-blk
        // takes 4194303 sectors = 2147483136 bytes
        List<Finding> f = findings(DiskPresets.virtioBlk(), 512, false, FindingType.CRYPT_DISCARDS_DROPPED);
        assertThat(f).hasSize(1);
        assertThat(f.get(0).severity()).isEqualTo(dev.dmmodel.finding.Severity.INFO);
        assertThat(f.get(0).message()).startsWith("dm-0 (cluks) has no allow_discards: it reports discard_max_bytes 0")
                .contains("vda below takes discards of up to");
        assertThat(Layout.builder(KernelProfile.LINUX_6_12).disk("vda", DiskPresets.virtioBlk().withSize(Bytes.gib(1)))
                .build().limits("vda").maxDiscardSectors()).isEqualTo(4194303);
    }

    @Test
    void noDiscardFindingWithAllowDiscardsOrOverADiskWithoutDiscard() {
        assertThat(findings(DiskPresets.virtioBlk(), 512, true, FindingType.CRYPT_DISCARDS_DROPPED)).isEmpty();
        // a SATA hard disk has no discard: nothing is lost
        assertThat(findings(DiskPresets.ahciSata(), 512, false, FindingType.CRYPT_DISCARDS_DROPPED)).isEmpty();
    }
}
