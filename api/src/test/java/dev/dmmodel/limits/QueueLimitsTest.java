package dev.dmmodel.limits;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QueueLimitsTest {

    @Test
    void alignmentGranularityIsTheLargerOfPhysicalBlockAndIoMin() {
        // a 512e disk: 4096-byte physical blocks, io_min 4096 -> 4096
        assertThat(QueueLimits.alignmentGranularity(4096, 4096)).isEqualTo(4096);
        // a RAID 5 with 64 KiB chunks on 512-byte sectors: io_min 65536 outweighs the 512-byte block
        assertThat(QueueLimits.alignmentGranularity(512, 65536)).isEqualTo(65536);
        // a 4Kn drive that reports io_min 512 (below its block): the physical block decides
        assertThat(QueueLimits.alignmentGranularity(4096, 512)).isEqualTo(4096);
        QueueLimits raid = QueueLimits.builder().physicalBlockSize(512).ioMin(65536).ioOpt(458752).build();
        assertThat(raid.alignmentGranularity()).isEqualTo(65536);
    }

    /**
     * Seed 003's RAID 5 of 7 + 1 disks with 64 KiB chunks (io_min 65536, io_opt 7 x 65536 = 458752) on
     * 4 KiB physical blocks.
     */
    private static final QueueLimits RAID5 = QueueLimits.builder().physicalBlockSize(4096).ioMin(65536)
            .ioOpt(458752).build();

    @Test
    void misalignmentAt_sector63IsOffThePhysicalBlockFirst() {
        // 63 x 512 = 32256 bytes; 32256 mod 4096 = 3584 (32256 = 7 x 4096 + 3584)
        assertThat(RAID5.misalignmentAt(63 * 512)).contains(
                new QueueLimits.Misalignment(QueueLimits.Grain.PHYSICAL_BLOCK, 4096, 3584));
    }

    @Test
    void misalignmentAt_1MiBIsOnTheChunkButNotTheFullStripe() {
        // 1048576 = 16 x 65536, so on io_min; 1048576 mod 458752 = 131072 (1048576 = 2 x 458752 + 131072)
        assertThat(RAID5.misalignmentAt(1 << 20)).contains(
                new QueueLimits.Misalignment(QueueLimits.Grain.IO_OPT, 458752, 131072));
        // 4096 x 5 = 20480 is on the physical block, 20480 mod 65536 = 20480 off io_min
        assertThat(RAID5.misalignmentAt(20480)).contains(
                new QueueLimits.Misalignment(QueueLimits.Grain.IO_MIN, 65536, 20480));
    }

    @Test
    void misalignmentAt_aFullStripeMultipleIsAligned() {
        // 2 x 458752 = 917504: on every grain
        assertThat(RAID5.misalignmentAt(917504)).isEmpty();
    }

    @Test
    void misalignmentAt_countsFromTheAlignmentOffsetUnlessMisaligned() {
        // a 512e disk whose first aligned sector is 7 (alignment_offset 3584, as 4K drives with jumper set):
        // sector 63 = 32256 bytes, 32256 - 3584 = 28672 = 7 x 4096, aligned
        QueueLimits jumpered = QueueLimits.builder().physicalBlockSize(4096).alignmentOffset(3584).build();
        assertThat(jumpered.misalignmentAt(63 * 512)).isEmpty();
        // 2048 x 512 = 1048576; 1048576 - 3584 = 1044992 = 255 x 4096 + 512
        assertThat(jumpered.misalignmentAt(2048 * 512)).contains(
                new QueueLimits.Misalignment(QueueLimits.Grain.PHYSICAL_BLOCK, 4096, 512));
        // stacking gave up (alignment_offset -1): counted from byte 0, so 1 MiB is on 4096
        assertThat(jumpered.toBuilder().misaligned(true).build().misalignmentAt(2048 * 512)).isEmpty();
    }

    @Test
    void misalignmentAt_refusesANegativeOffset() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RAID5.misalignmentAt(-512))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("byteOffset: -512 is negative");
    }
}
