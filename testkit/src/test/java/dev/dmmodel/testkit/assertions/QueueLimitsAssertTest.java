package dev.dmmodel.testkit.assertions;

import static dev.dmmodel.testkit.assertions.DmAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import org.junit.jupiter.api.Test;

class QueueLimitsAssertTest {

    private final Layout raid = Fixtures.raid5AtSector63();
    /** The disk's limits: the RAID preset's, which the partition and the LV inherit by stacking. */
    private final QueueLimits disk = raid.limits("sda");
    private final String lv = raid.device("/dev/vg/lv").name();

    @Test
    void everySysfsCheckPassesWithTheStackedValues() {
        // dm-linear over one partition stacks the disk's limits unchanged; the LV starts on a chunk boundary
        long lvStartBytes = (Fixtures.PARTITION_START + raid.physicalVolume("sda1").orElseThrow().peStart().count())
                * 512;
        org.assertj.core.api.Assertions.assertThat(lvStartBytes % disk.ioMin()).isZero();
        assertThat(raid).device("/dev/vg/lv")
                .hasMaxSectorsKb(disk.maxSectors() / 2)
                .hasMaxHwSectorsKb(disk.maxHwSectors() / 2)
                .hasMaxSegments(disk.maxSegments())
                .hasMaxSegmentSize(disk.maxSegmentSize())
                .hasLogicalBlockSize(disk.logicalBlockSize())
                .hasPhysicalBlockSize(disk.physicalBlockSize())
                .hasMinimumIoSize(64 * 1024)          // the RAID chunk
                .hasOptimalIoSize(7 * 64 * 1024)      // 7 data disks of RAID 5 over 8
                .hasChunkSectors(disk.chunkSectors())
                .hasAlignmentOffset(0)
                .isAligned();
    }

    @Test
    void aFailedCheckNamesTheDeviceTheSysfsFileAndListsAllLimits() {
        long kb = disk.maxSectors() / 2;
        assertThatThrownBy(() -> assertThat(raid).device("/dev/vg/lv").hasMaxSectorsKb(kb * 2))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting max_sectors_kb of /dev/vg/lv (" + lv + ") to be " + kb * 2
                        + " but was " + kb)
                .hasMessageContaining("queue limits of /dev/vg/lv (" + lv + "):")
                .hasMessageContaining("    minimum_io_size=65536")
                .hasMessageContaining("    optimal_io_size=458752")
                .hasMessageContaining("    max_segments=" + disk.maxSegments());
        assertThatThrownBy(() -> assertThat(raid).device("sda").hasMaxSegments(disk.maxSegments() + 1))
                .isInstanceOf(AssertionError.class).hasMessageContaining("Expecting max_segments of sda to be");
        assertThatThrownBy(() -> assertThat(raid).device("sda").hasMaxHwSectorsKb(1))
                .isInstanceOf(AssertionError.class).hasMessageContaining("max_hw_sectors_kb of sda to be 1 but was "
                        + disk.maxHwSectors() / 2);
        assertThatThrownBy(() -> assertThat(raid).device("sda").hasMaxSegmentSize(1))
                .isInstanceOf(AssertionError.class).hasMessageContaining("max_segment_size of sda to be 1");
        assertThatThrownBy(() -> assertThat(raid).device("sda").hasLogicalBlockSize(4096))
                .isInstanceOf(AssertionError.class).hasMessageContaining("logical_block_size of sda to be 4096 but"
                        + " was 512");
        assertThatThrownBy(() -> assertThat(raid).device("sda").hasPhysicalBlockSize(4096))
                .isInstanceOf(AssertionError.class).hasMessageContaining("physical_block_size of sda to be 4096 but"
                        + " was 512");
        assertThatThrownBy(() -> assertThat(raid).device("sda").hasMinimumIoSize(512))
                .isInstanceOf(AssertionError.class).hasMessageContaining("minimum_io_size of sda to be 512 but was"
                        + " 65536");
        assertThatThrownBy(() -> assertThat(raid).device("sda").hasOptimalIoSize(0))
                .isInstanceOf(AssertionError.class).hasMessageContaining("optimal_io_size of sda to be 0 but was"
                        + " 458752");
        assertThatThrownBy(() -> assertThat(raid).device("sda").hasChunkSectors(128))
                .isInstanceOf(AssertionError.class).hasMessageContaining("chunk_sectors of sda to be 128 but was "
                        + disk.chunkSectors());
        assertThatThrownBy(() -> assertThat(raid).device("sda").hasAlignmentOffset(512))
                .isInstanceOf(AssertionError.class).hasMessageContaining("alignment_offset of sda to be 512 but"
                        + " was 0");
    }

    @Test
    void isAlignedFailsOnAMisalignedStackWithSysfsMinusOne() {
        QueueLimits misaligned = disk.toBuilder().misaligned(true).build();
        assertThat(misaligned).hasAlignmentOffset(-1);
        assertThatThrownBy(() -> assertThat(misaligned).isAligned())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting (limits) to be aligned (alignment_offset 0) but its alignment_offset"
                        + " was -1 (misaligned)")
                .hasMessageContaining("    alignment_offset=-1 (misaligned)");
    }

    @Test
    void nullLimitsAreRejectedTheAssertJWay() {
        assertThatThrownBy(() -> assertThat((QueueLimits) null).hasMaxSegments(128))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expecting actual not to be null");
    }
}
