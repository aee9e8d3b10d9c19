package dev.dmmodel.impl.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Bytes;
import org.junit.jupiter.api.Test;

class BlockLimitsTest {
    private static final KernelProfile K61 = KernelProfile.LINUX_6_1;
    private static final KernelProfile K612 = KernelProfile.LINUX_6_12;

    private static Limits disk(long lbs, long pbs, long ioMin, long ioOpt, long ao) {
        Limits l = BlockLimits.stackingDefaults(K61);
        l.logicalBlockSize = lbs;
        l.physicalBlockSize = pbs;
        l.ioMin = ioMin;
        l.ioOpt = ioOpt;
        l.alignmentOffset = ao;
        l.maxSectors = 2560;
        l.maxHwSectors = 65535;
        return l;
    }

    @Test
    void partitionAt63OnA512eDiskIsOffBy512Bytes() {
        // granularity 4096; 63 mod 8 = 7 -> 3584 bytes into a block; (4096 + 0 - 3584) mod 4096 = 512
        assertThat(BlockLimits.alignmentOffsetAt(disk(512, 4096, 4096, 0, 0), 63)).isEqualTo(512);
        assertThat(BlockLimits.alignmentOffsetAt(disk(512, 4096, 4096, 0, 0), 2048)).isZero();
    }

    @Test
    void partitionAt63OnARaidWithA64KiBChunkIsOffBy33280Bytes() {
        // granularity 65536; 63 mod 128 = 63 -> 32256 bytes; 65536 - 32256 = 33280 (recorded: sdg1 alignment_offset)
        assertThat(BlockLimits.alignmentOffsetAt(disk(512, 4096, 65536, 458752, 0), 63)).isEqualTo(33280);
    }

    @Test
    void lowestAlignedLbaMovesThePartitionOffset() {
        // disk alignment_offset 512: (4096 + 512 - 3584) mod 4096 = 1024 (recorded: limits-sd-512e-la1 sdg1)
        assertThat(BlockLimits.alignmentOffsetAt(disk(512, 4096, 4096, 0, 512), 63)).isEqualTo(1024);
        assertThat(BlockLimits.alignmentOffsetAt(disk(512, 4096, 4096, 0, 512), 2048)).isEqualTo(512);
    }

    @Test
    void stripesOverPartitionsAt63And2048CannotBeAligned() {
        Limits b = disk(512, 4096, 4096, 0, 0);
        Limits t = BlockLimits.stackingDefaults(K61);
        assertThat(BlockLimits.stack(t, b, 63, K61)).isTrue();
        assertThat(t.alignmentOffset).isEqualTo(512);
        // top = 4096 + 512, bottom = 4096 + 0: 4608 mod 4096 != 0
        assertThat(BlockLimits.stack(t, b, 2048, K61)).isFalse();
        assertThat(t.misaligned).isTrue();
        assertThat(t.toQueueLimits().sysfsAlignmentOffset()).isEqualTo(-1);
    }

    @Test
    void linux612ValidationReducesTheOffsetModuloThePhysicalBlockAndClearsMisaligned() {
        Limits t = BlockLimits.stackingDefaults(K612);
        t.alignmentOffset = 33280;
        t.physicalBlockSize = 4096;
        t.misaligned = true;
        BlockLimits.validateOnCommit(t, K612);
        // 33280 & 4095 = 512 (recorded on 6.12 for lin63 over the io_min 64 KiB disk)
        assertThat(t.alignmentOffset).isEqualTo(512);
        assertThat(t.misaligned).isFalse();
    }

    @Test
    void sdTakesTheOptimalTransferLengthAsMaxSectorsOn61ButNotOn612() {
        var spec = DiskPresets.hardwareRaid(dev.dmmodel.device.RaidLevel.RAID5, 8, Bytes.kib(64))
                .withSize(Bytes.gib(4));
        // io_opt 7 x 64 KiB = 458752 bytes = 896 sectors
        assertThat(BlockLimits.disk("sda", spec, K61).maxSectors).isEqualTo(896);
        assertThat(BlockLimits.disk("sda", spec, K612).maxSectors).isEqualTo(2560);
        assertThat(BlockLimits.disk("sda", spec, KernelProfile.LINUX_3_10).maxSectors).isEqualTo(1024);
    }

    @Test
    void ahciDiskKeepsItsHardwareLimitAndTheDefaultCap() {
        Limits l = BlockLimits.disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)), K61);
        assertThat(l.maxHwSectors).isEqualTo(65535);
        assertThat(l.maxSectors).isEqualTo(2560);
        assertThat(l.maxSegments).isEqualTo(168);
        assertThat(l.readAheadKb).isEqualTo(128);
    }

    @Test
    void readaheadIsTwiceTheOptimalIoSize() {
        var spec = DiskPresets.scsiDebug(512, 512, 1024).withSize(Bytes.mib(64));
        // io_opt 512 KiB -> read_ahead_kb 1024 (recorded: limits-sd-default)
        assertThat(BlockLimits.disk("sdg", spec, K61).readAheadKb).isEqualTo(1024);
    }

    @Test
    void maxSectorsKbAcceptsAPageUpToTheHardwareLimit() {
        Limits l = BlockLimits.disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)), K612);
        BlockLimits.storeMaxSectorsKb("sdb", l, 124, K612);
        assertThat(l.maxSectors).isEqualTo(248);
        assertThat(l.maxUserSectors).isEqualTo(248);
        assertThatThrownBy(() -> BlockLimits.storeMaxSectorsKb("sdb", l, 2, K612))
                .isInstanceOf(LayoutException.class)
                .hasMessage("echo 2 > /sys/block/sdb/queue/max_sectors_kb: Invalid argument (must be between 4 and"
                        + " max_hw_sectors_kb 32767)");
        assertThatThrownBy(() -> BlockLimits.storeMaxSectorsKb("sdb", l, 32768, K612))
                .isInstanceOf(LayoutException.class).hasMessageContaining("Invalid argument");
    }

    @Test
    void diskSizeMustBeWholeLogicalBlocks() {
        var spec = DiskPresets.scsiDebug(4096, 4096, 0).withSize(dev.dmmodel.units.Sectors.of(1001));
        assertThatThrownBy(() -> BlockLimits.disk("sdx", spec, K61))
                .isInstanceOf(LayoutException.class)
                .hasMessage("sdx: size 1001 sectors is not a multiple of the logical block size (4096 bytes)");
    }

    @Test
    void optimalIoSizeMustBeWholePhysicalBlocks() {
        var spec = DiskPresets.sasDisk().toBuilder().ioOpt(6144).build();
        assertThatThrownBy(() -> BlockLimits.disk("sdy", spec, K61))
                .isInstanceOf(LayoutException.class)
                .hasMessage("sdy: optimal_io_size (6144) is not a multiple of the physical block size (4096)");
    }
}
