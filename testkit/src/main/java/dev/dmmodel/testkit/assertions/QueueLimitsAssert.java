package dev.dmmodel.testkit.assertions;

import dev.dmmodel.limits.QueueLimits;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a device's queue limits, named after their sysfs files ({@code /sys/block/X/queue/...}) and
 * in sysfs's units: {@code max_sectors_kb} in KiB, sizes and offsets in bytes. Failure messages name the device
 * and list all its limits.
 *
 * <pre>{@code
 * assertThat(layout).device("/dev/vg/lv")
 *         .hasLogicalBlockSize(512)
 *         .hasMinimumIoSize(65536)
 *         .hasMaxSectorsKb(448)
 *         .isAligned();
 * }</pre>
 */
public final class QueueLimitsAssert extends AbstractAssert<QueueLimitsAssert, QueueLimits> {

    private final String device;

    QueueLimitsAssert(QueueLimits actual, String device) {
        super(actual, QueueLimitsAssert.class);
        this.device = device;
    }

    private QueueLimitsAssert check(String sysfsName, long expected, long value) {
        isNotNull();
        if (expected != value) {
            failWithMessage("%s", "Expecting " + sysfsName + " of " + device + " to be " + expected + " but was "
                    + value + "\n" + Messages.limits(device, actual));
        }
        return this;
    }

    /**
     * Verifies {@code max_sectors_kb}: the soft limit for one request, in KiB ({@link QueueLimits#maxSectorsKb()}).
     *
     * <pre>{@code assertThat(limits).hasMaxSectorsKb(1280);}</pre>
     */
    public QueueLimitsAssert hasMaxSectorsKb(long kib) {
        isNotNull();
        return check("max_sectors_kb", kib, actual.maxSectorsKb());
    }

    /**
     * Verifies {@code max_hw_sectors_kb}: the controller's hard limit, in KiB.
     *
     * <pre>{@code assertThat(limits).hasMaxHwSectorsKb(32767);}</pre>
     */
    public QueueLimitsAssert hasMaxHwSectorsKb(long kib) {
        isNotNull();
        return check("max_hw_sectors_kb", kib, actual.maxHwSectorsKb());
    }

    /**
     * Verifies {@code max_segments}: scatter-gather entries per request.
     *
     * <pre>{@code assertThat(limits).hasMaxSegments(128);}</pre>
     */
    public QueueLimitsAssert hasMaxSegments(long segments) {
        isNotNull();
        return check("max_segments", segments, actual.maxSegments());
    }

    /**
     * Verifies {@code max_segment_size}, bytes per scatter-gather entry.
     *
     * <pre>{@code assertThat(limits).hasMaxSegmentSize(65536);}</pre>
     */
    public QueueLimitsAssert hasMaxSegmentSize(long bytes) {
        isNotNull();
        return check("max_segment_size", bytes, actual.maxSegmentSize());
    }

    /**
     * Verifies {@code logical_block_size}, bytes.
     *
     * <pre>{@code assertThat(limits).hasLogicalBlockSize(512);}</pre>
     */
    public QueueLimitsAssert hasLogicalBlockSize(long bytes) {
        isNotNull();
        return check("logical_block_size", bytes, actual.logicalBlockSize());
    }

    /**
     * Verifies {@code physical_block_size}, bytes.
     *
     * <pre>{@code assertThat(limits).hasPhysicalBlockSize(4096);}</pre>
     */
    public QueueLimitsAssert hasPhysicalBlockSize(long bytes) {
        isNotNull();
        return check("physical_block_size", bytes, actual.physicalBlockSize());
    }

    /**
     * Verifies {@code minimum_io_size} ({@code io_min}), bytes: a RAID's chunk.
     *
     * <pre>{@code assertThat(limits).hasMinimumIoSize(65536);}</pre>
     */
    public QueueLimitsAssert hasMinimumIoSize(long bytes) {
        isNotNull();
        return check("minimum_io_size", bytes, actual.ioMin());
    }

    /**
     * Verifies {@code optimal_io_size} ({@code io_opt}), bytes: a RAID's full stripe; 0 when unknown.
     *
     * <pre>{@code assertThat(limits).hasOptimalIoSize(458752);}</pre>
     */
    public QueueLimitsAssert hasOptimalIoSize(long bytes) {
        isNotNull();
        return check("optimal_io_size", bytes, actual.ioOpt());
    }

    /**
     * Verifies {@code alignment_offset} as sysfs prints it ({@link QueueLimits#sysfsAlignmentOffset()}): bytes,
     * or -1 for a stack that cannot be aligned.
     *
     * <pre>{@code assertThat(layout).device("sda1").hasAlignmentOffset(33280);}</pre>
     */
    public QueueLimitsAssert hasAlignmentOffset(long bytes) {
        isNotNull();
        return check("alignment_offset", bytes, actual.sysfsAlignmentOffset());
    }

    /**
     * Verifies {@code chunk_sectors}: I/O must not cross a multiple of it (0 = none).
     *
     * <pre>{@code assertThat(limits).hasChunkSectors(0);}</pre>
     */
    public QueueLimitsAssert hasChunkSectors(long sectors) {
        isNotNull();
        return check("chunk_sectors", sectors, actual.chunkSectors());
    }

    /**
     * Verifies that the device is naturally aligned: {@code alignment_offset} 0 and not misaligned (sysfs would
     * show -1).
     *
     * <pre>{@code assertThat(layout).device("/dev/vg/lv").isAligned();}</pre>
     */
    public QueueLimitsAssert isAligned() {
        isNotNull();
        if (actual.misaligned() || actual.alignmentOffset() != 0) {
            failWithMessage("%s", "Expecting " + device + " to be aligned (alignment_offset 0) but its alignment_offset"
                    + " was " + actual.sysfsAlignmentOffset() + (actual.misaligned() ? " (misaligned)" : "") + "\n"
                    + Messages.limits(device, actual));
        }
        return this;
    }
}
