package dev.dmmodel.impl.md;

import dev.dmmodel.device.MdArraySpec;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.limits.LimitField;
import dev.dmmodel.limits.LimitRef;
import dev.dmmodel.finding.FindingType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** What a run's counters say about an md array or an LVM raid LV ({@link MdArray.Stats}), one method per finding. */
public final class MdFindings {
    /** Sectors in a MiB. */
    static final long MIB_SECTORS = 2048;
    /** Bytes in a stripe-cache page. */
    static final long PAGE = 4096;

    private MdFindings() {
    }

    /**
     * The findings of one array's run, in the order of {@link FindingType}.
     *
     * @param device the array (md device or dm-raid device)
     * @param spec its configuration
     * @param s what it did
     */
    public static List<Finding> of(String device, MdArraySpec spec, MdArray.Stats s) {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(s, "stats");
        List<Finding> out = new ArrayList<>();
        if (s.arrayWriteSectors() == 0) {
            return List.of();
        }
        partialStripes(device, spec, s, out);
        writeAmplification(device, spec, s, out);
        chunkLargerThanWrites(device, spec, s, out);
        return List.copyOf(out);
    }

    private static double mib(long sectors) {
        return (double) sectors / MIB_SECTORS;
    }

    private static long stripeSectors(MdArraySpec spec) {
        return spec.chunk().count() * (spec.raidDisks() - Raid5.forLevel(spec.level()).maxDegraded());
    }

    // drivers/md/raid5.c: handle_stripe_dirtying — a stripe written in part reads before it writes parity
    private static void partialStripes(String device, MdArraySpec spec, MdArray.Stats s, List<Finding> out) {
        if (s.stripes() == null || s.stripes().totalPagesRead() == 0) {
            return;
        }
        long read = s.stripes().totalPagesRead();
        long stripe = stripeSectors(spec);
        out.add(new Finding(FindingType.MD_PARTIAL_STRIPE_WRITES, FindingType.MD_PARTIAL_STRIPE_WRITES
                .defaultSeverity(), device, String.format(Locale.ROOT, "%s (%s, %d KiB chunks, %d KiB data stripe): "
                + "of %d stripe heads written, %d needed a reconstruct-write and %d a read-modify-write; the members "
                + "read %d pages (%.1f MiB) for %.2f MiB written: %.1f pages read per MiB", device,
                spec.level().sysfsName(), spec.chunk().count() / 2, stripe / 2, s.stripes().stripeHeadsHandled(),
                s.stripes().reconstructWrites(), s.stripes().readModifyWrites(), read, read * PAGE / 1048576.0,
                mib(s.arrayWriteSectors()), read / mib(s.arrayWriteSectors())),
                "write whole stripes: writes of " + stripe / 2 + " KiB (or multiples) starting on a multiple of "
                        + stripe / 2 + " KiB of " + device + " (partitions and PV data areas aligned to its"
                        + " optimal_io_size), or let the page cache gather sequential writes",
                List.of(new LimitRef(device, LimitField.OPTIMAL_IO_SIZE))));
    }

    // raid1/raid10 write every copy; raid4/5/6 add parity
    private static void writeAmplification(String device, MdArraySpec spec, MdArray.Stats s, List<Finding> out) {
        long member = s.memberWriteSectors();
        if (member <= s.arrayWriteSectors()) {
            return;
        }
        double factor = (double) member / s.arrayWriteSectors();
        String why = switch (spec.level()) {
            case RAID1 -> "every mirror gets each write";
            case RAID10 -> "each chunk is written to each of its copies";
            case RAID4, RAID5, RAID6 -> "parity is written with the data" + (s.stripes() != null
                    && s.stripes().totalPagesRead() > 0 ? ", and partial stripes read first" : "");
            case RAID0 -> "";
        };
        out.add(new Finding(FindingType.MD_WRITE_AMPLIFICATION, FindingType.MD_WRITE_AMPLIFICATION.defaultSeverity(),
                device, String.format(Locale.ROOT, "%s (%s): %.2f MiB written to the array became %.2f MiB at its "
                        + "members (%.2f x): %s", device, spec.level().sysfsName(), mib(s.arrayWriteSectors()),
                        mib(member), factor, why),
                "none needed: the redundancy costs this; plan the members' bandwidth for it"));
    }

    // every write smaller than the data stripe cannot fill one
    private static void chunkLargerThanWrites(String device, MdArraySpec spec, MdArray.Stats s, List<Finding> out) {
        if (!spec.level().hasParity()) {
            return;
        }
        long stripe = stripeSectors(spec);
        if (s.largestWriteSectors() >= stripe) {
            return;
        }
        int dataDisks = (int) (stripe / spec.chunk().count());
        long fitting = Long.highestOneBit(Math.max(8, s.largestWriteSectors() / dataDisks));
        out.add(new Finding(FindingType.MD_CHUNK_LARGER_THAN_WRITES, FindingType.MD_CHUNK_LARGER_THAN_WRITES
                .defaultSeverity(), device, String.format(Locale.ROOT, "%s: the largest of %d writes was %d KiB, "
                + "smaller than the %d KiB data stripe (%d x %d KiB chunks): no write could fill a stripe", device,
                s.arrayWrites(), s.largestWriteSectors() / 2, stripe / 2, dataDisks, spec.chunk().count() / 2),
                "a chunk of " + fitting / 2 + " KiB would make a " + fitting * dataDisks / 2 + " KiB stripe that writes"
                        + " of that size fill (mdadm --create --chunk=" + fitting / 2 + "), if the writes are"
                        + " stripe-aligned", List.of(new LimitRef(device, LimitField.MINIMUM_IO_SIZE),
                        new LimitRef(device, LimitField.OPTIMAL_IO_SIZE))));
    }
}
