package dev.dmmodel.impl.block;

import dev.dmmodel.engine.DeviceStats;
import java.util.HashMap;
import java.util.Map;

/**
 * /proc/diskstats counting ({@code block/blk-core.c: blk_account_io_done}, {@code blk_account_io_merge_bio};
 * {@code drivers/md/dm.c: dm_start_io_acct}).
 */
public final class Accounting {
    private static final class Counters {
        long rIos;
        long rMerges;
        long rSectors;
        long wIos;
        long wMerges;
        long wSectors;
        long dIos;
        long dSectors;
        long fIos;
    }

    private final Map<String, Counters> counters = new HashMap<>();
    /**
     * The last devices counted, by identity: an I/O path names the same few String objects (each queue's and dm
     * device's own name) over and over, so most lookups end here without hashing.
     */
    private final String[] recentNames = new String[4];
    private final Counters[] recentCounters = new Counters[4];
    private int nextRecent;

    private Counters of(String device) {
        for (int i = 0; i < recentNames.length; i++) {
            if (recentNames[i] == device) {
                return recentCounters[i];
            }
        }
        Counters c = counters.computeIfAbsent(device, d -> new Counters());
        recentNames[nextRecent] = device;
        recentCounters[nextRecent] = c;
        nextRecent = (nextRecent + 1) & (recentNames.length - 1);
        return c;
    }

    /** One completed I/O of {@code sectors} on a device. */
    /** A device created anew starts from zero ({@code /proc/diskstats} of a new gendisk). */
    void reset(String device) {
        counters.remove(device);
        java.util.Arrays.fill(recentNames, null);
        java.util.Arrays.fill(recentCounters, null);
    }

    public void io(String device, Op op, long sectors) {
        Counters c = of(device);
        switch (op) {
            case READ:
                c.rIos++;
                c.rSectors += sectors;
                break;
            case WRITE:
            case WRITE_ZEROES:
                c.wIos++;
                c.wSectors += sectors;
                break;
            case DISCARD:
                c.dIos++;
                c.dSectors += sectors;
                break;
            case FLUSH:
                c.fIos++;
                break;
            default:
                break;
        }
    }

    /** A bio merged into an existing request. */
    void merge(String device, Op op) {
        Counters c = of(device);
        if (op == Op.READ) {
            c.rMerges++;
        } else if (op == Op.WRITE) {
            c.wMerges++;
        }
    }

    public DeviceStats stats(String device) {
        Counters c = counters.getOrDefault(device, new Counters());
        return new DeviceStats(device, c.rIos, c.rMerges, c.rSectors, c.wIos, c.wMerges, c.wSectors, c.dIos,
                c.dSectors, c.fIos);
    }
}
