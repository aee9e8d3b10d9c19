package dev.dmmodel.impl.block;

/**
 * A {@code struct bio} in flight: its device (kernel name), operation, flags, sector, size and data
 * vectors, plus the trace flags the kernel keeps ({@code BIO_TRACE_COMPLETION}, {@code BIO_REMAPPED}).
 */
public final class Bio {
    public static final int SYNC = 1;
    public static final int IDLE = 1 << 1;
    public static final int RAHEAD = 1 << 2;
    public static final int PREFLUSH = 1 << 3;
    public static final int FUA = 1 << 4;
    public static final int META = 1 << 5;
    static final int NOMERGE = 1 << 6;

    public String device;
    public final Op op;
    public int flags;
    public long sector;
    public long sectors;
    Bvecs data;
    public boolean traced;
    /** Why the bio has its size, for its {@code block_bio_queue} event under {@code trace --why}; null if not said. */
    public String why;
    boolean remapped;
    /** The bio whose completion this one counts towards ({@code bio_chain}, dm clones), or null. */
    public Bio parent;
    /** Pieces still in flight that complete into this bio ({@code __bi_remaining}). */
    public int remaining;
    /** Whether this bio entered a bio-based (dm) device, which reports its completion. */
    public boolean dmBio;
    /** A dm target's {@code end_io} for this bio's clone (dm-multipath's selector), run when this bio completes. */
    public Runnable endIo;
    /** Whether dm already counted this bio (before 4.3 dm counted each original bio once). */
    public boolean dmAccounted;
    /** Whether dm-thin's statistics already saw this bio. */
    public boolean thinCounted;
    /** Whether an md array's statistics already counted this bio (a remainder it resubmitted to itself). */
    public boolean mdCounted;

    public Bio(String device, Op op, int flags, long sector, long sectors, Bvecs data) {
        this.device = device;
        this.op = op;
        this.flags = flags;
        this.sector = sector;
        this.sectors = sectors;
        this.data = data;
    }

    long end() {
        return sector + sectors;
    }

    public boolean has(int flag) {
        return (flags & flag) != 0;
    }

    private static final String[][] RWBS = new String[Op.values().length][1 << 6];

    static {
        for (Op op : Op.values()) {
            for (int f = 0; f < (1 << 6); f++) {
                RWBS[op.ordinal()][f] = format(op, f);
            }
        }
    }

    /** The operation and flags as blktrace prints them ({@code blk_fill_rwbs}). */
    public String rwbs() {
        return rwbsOf(op, flags);
    }

    static String rwbsOf(Op op, int flags) {
        return RWBS[op.ordinal()][flags & ((1 << 6) - 1)];
    }

    // kernel/trace/blktrace.c: blk_fill_rwbs
    private static String format(Op op, int flags) {
        Bio b = new Bio("", op, flags, 0, 0, null);
        return b.build();
    }

    private String build() {
        StringBuilder sb = new StringBuilder(4);
        if (has(PREFLUSH)) {
            sb.append('F');
        }
        switch (op) {
            case WRITE:
                sb.append('W');
                break;
            case DISCARD:
                sb.append('D');
                break;
            case FLUSH:
                sb.append('F');
                break;
            case READ:
                sb.append('R');
                break;
            default:
                sb.append('N');
                break;
        }
        if (has(FUA)) {
            sb.append('F');
        }
        if (has(RAHEAD)) {
            sb.append('A');
        }
        if (has(SYNC)) {
            sb.append('S');
        }
        if (has(META)) {
            sb.append('M');
        }
        return sb.toString();
    }

    /** A clone sharing this bio's data ({@code bio_alloc_clone}), covering {@code sectors} from {@code offset}. */
    public Bio clone(long offsetSectors, long cloneSectors) {
        Bvecs d = data == null ? null : data.slice(offsetSectors * 512, cloneSectors * 512);
        Bio c = new Bio(device, op, flags & ~NOMERGE, sector + offsetSectors, cloneSectors, d);
        return c;
    }

    /** Drops the first {@code n} sectors ({@code bio_advance}). */
    public void advance(long n) {
        if (data != null) {
            data = data.slice(n * 512, (sectors - n) * 512);
        }
        sector += n;
        sectors -= n;
    }
}
