package dev.dmmodel.engine;

import java.util.Objects;

/**
 * One device's I/O counters as {@code /proc/diskstats} keeps them: completed I/Os, merges and sectors per
 * direction. What one "I/O" is depends on the device: a request for a request-based disk (and for a
 * partition, the requests that start in it), a bio for a bio-based dm device (each piece that re-enters dm
 * after a split at a target boundary counts again since dm's per-{@code dm_io} accounting).
 *
 * @param device kernel name
 * @param readIos reads completed
 * @param readMerges reads merged into an existing request
 * @param readSectors sectors read
 * @param writeIos writes completed
 * @param writeMerges writes merged into an existing request
 * @param writeSectors sectors written
 * @param discardIos discards completed
 * @param discardSectors sectors discarded
 * @param flushIos flushes completed
 */
public record DeviceStats(String device, long readIos, long readMerges, long readSectors, long writeIos,
                          long writeMerges, long writeSectors, long discardIos, long discardSectors, long flushIos) {

    /** Rejects nulls. */
    public DeviceStats {
        Objects.requireNonNull(device, "device");
    }

    /** Average size of a read I/O in sectors (0 when none). */
    public double averageReadSectors() {
        return readIos == 0 ? 0 : (double) readSectors / readIos;
    }

    /** Average size of a write I/O in sectors (0 when none). */
    public double averageWriteSectors() {
        return writeIos == 0 ? 0 : (double) writeSectors / writeIos;
    }

    /**
     * {@code avgrq-sz} as iostat -x prints it: sectors per I/O over both directions (sysstat's
     * {@code (rsec + wsec) / (r + w)}).
     */
    public double averageRequestSectors() {
        long ios = readIos + writeIos;
        return ios == 0 ? 0 : (double) (readSectors + writeSectors) / ios;
    }

    /**
     * The line {@code iostat -x} (sysstat, sectors) would print for these counters over {@code seconds}:
     * {@code Device rrqm/s wrqm/s r/s w/s rsec/s wsec/s avgrq-sz}.
     */
    public String iostatLine(double seconds) {
        if (!(seconds > 0)) {
            throw new IllegalArgumentException("interval (" + seconds + " s) must be positive");
        }
        return String.format(java.util.Locale.ROOT, "%-8s %8.2f %8.2f %8.2f %8.2f %10.2f %10.2f %8.2f", device,
                readMerges / seconds, writeMerges / seconds, readIos / seconds, writeIos / seconds,
                readSectors / seconds, writeSectors / seconds, averageRequestSectors());
    }

    /** The header matching {@link #iostatLine(double)}. */
    public static String iostatHeader() {
        return String.format(java.util.Locale.ROOT, "%-8s %8s %8s %8s %8s %10s %10s %8s", "Device", "rrqm/s", "wrqm/s",
                "r/s", "w/s", "rsec/s", "wsec/s", "avgrq-sz");
    }
}
