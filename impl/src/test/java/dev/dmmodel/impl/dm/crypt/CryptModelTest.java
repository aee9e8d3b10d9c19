package dev.dmmodel.impl.dm.crypt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.dm.CryptTarget;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Sectors;
import java.util.List;
import org.junit.jupiter.api.Test;

/** crypt_io_hints, get_max_request_size and what the target passes down. */
class CryptModelTest {

    private static CryptTarget target(int sectorSize, boolean discards) {
        return new CryptTarget(Sectors.ZERO, Sectors.of(491520), "aes-xts-plain64", "-", Sectors.ZERO, "dm-0",
                Sectors.of(32768), sectorSize, discards, false, List.of());
    }

    @Test
    void ioHintsRaiseBlockSizesAndIoMinToTheCryptSector() {
        // the README: a crypt device with sector_size:4096 over 512-byte sectors has logical/physical block size
        // and io_min 4096 and dma_alignment 4095
        Limits l = new Limits();
        l.logicalBlockSize = 512;
        l.physicalBlockSize = 512;
        l.ioMin = 512;
        l.dmaAlignment = 511;
        new CryptModel(target(4096, false)).ioHints(l, d -> null, KernelProfile.LINUX_6_12);
        assertThat(l.logicalBlockSize).isEqualTo(4096);
        assertThat(l.physicalBlockSize).isEqualTo(4096);
        assertThat(l.ioMin).isEqualTo(4096);
        assertThat(l.dmaAlignment).isEqualTo(4095);
    }

    @Test
    void ioHintsKeepLargerValuesFromBelow() {
        // max(): a 4 KiB-sector disk under a 512-byte crypt keeps 4096; io_min 64 KiB from below stays
        Limits l = new Limits();
        l.logicalBlockSize = 4096;
        l.physicalBlockSize = 4096;
        l.ioMin = 65536;
        new CryptModel(target(512, false)).ioHints(l, d -> null, KernelProfile.LINUX_6_12);
        assertThat(l.logicalBlockSize).isEqualTo(4096);
        assertThat(l.ioMin).isEqualTo(65536);
        assertThat(l.dmaAlignment).isEqualTo(4095);
    }

    @Test
    void maxRequestSizeIs128KiB() {
        // DM_CRYPT_DEFAULT_MAX_{READ,WRITE}_SIZE = 131072 bytes = 256 sectors; a write is also capped at
        // BIO_MAX_VECS (256) pages = 1 MiB, which is more; 131072 is a multiple of 512 and of 4096
        assertThat(CryptModel.maxRequestSectors(false, 512, 512)).isEqualTo(256);
        assertThat(CryptModel.maxRequestSectors(true, 512, 512)).isEqualTo(256);
        assertThat(CryptModel.maxRequestSectors(true, 512, 4096)).isEqualTo(256);
        assertThat(CryptModel.maxRequestSectors(false, 4096, 512)).isEqualTo(256);
    }

    @Test
    void discardsOnlyWithAllowDiscardsAndNeverWriteZeroes() {
        assertThat(new CryptModel(target(512, false)).numDiscardBios()).isZero();
        assertThat(new CryptModel(target(512, true)).numDiscardBios()).isEqualTo(1);
        assertThat(new CryptModel(target(512, true)).numWriteZeroesBios()).isZero();
        assertThat(new CryptModel(target(512, true)).discardsSupported()).isFalse();
    }

    @Test
    void theDeviceAreaStartsAtTheOffset() {
        // crypt_iterate_devices: cc->dev from cc->start (the LUKS2 data offset, 32768) for ti->len
        assertThat(new CryptModel(target(4096, false)).iterateDevices())
                .containsExactly(new TargetModel.DeviceArea("dm-0", 32768, 491520));
    }
}
