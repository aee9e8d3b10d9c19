package dev.dmmodel.testkit.conformance;

import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceFormat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Compares a modelled trace with a recorded one in one of the {@link CompareMode}s of
 * {@code docs/snapshot-format.md}:
 * <ul>
 *   <li>{@link CompareMode#SEQUENCE}: per device, the subsequence of {@code block_bio_queue},
 *       {@code block_bio_remap}, {@code block_split} and {@code block_rq_issue} events, in order;</li>
 *   <li>{@link CompareMode#MULTISET}: per device, the bag of {@code block_bio_queue},
 *       {@code block_bio_remap} and {@code block_split} events;</li>
 *   <li>{@link CompareMode#MULTISET_DM}: the same on device-mapper devices only;</li>
 *   <li>{@link CompareMode#MULTISET_DATA}: the same on every device, leaving out zero-length bios
 *       ({@code nr_sectors} 0: flushes), the events inside the thin pools' metadata
 *       ({@link CompareScope#thinMetadata}) and splits on partitions and disks.</li>
 * </ul>
 * Events are compared on (tracepoint, rwbs, sector, nr_sectors); a {@code block_split} on its sector only.
 * In the multiset modes, a tracepoint the scope lists as {@linkplain CompareScope#atMostModelled timing-dependent}
 * on a device is compared as a part of the modelled ones: each recorded event must be modelled, and modelled ones
 * the kernel did not happen to trace are left out (the report says how many).
 * Sequence numbers, {@code extra} ({@code from=dm-0:64}) and the interleaving of devices are not compared.
 * Where {@link CompareScope#requestSizes} says so, the multiset modes also compare per device the multiset
 * of issued request sizes ({@code block_rq_issue} as rwbs and nr_sectors, requeued issues not counted; see
 * {@link CompareMode}).
 */
public final class TraceComparator {

    /** The most lines a report has (about). */
    static final int MAX_REPORT_LINES = 40;
    private static final int SEQUENCE_DIFFERENCES = 5;
    private static final int BAG_ITEMS = 4;

    private TraceComparator() {
    }

    /**
     * Compares the traces.
     *
     * @param recorded the kernel's trace ({@code trace.csv})
     * @param modelled the model's trace
     * @param mode how to compare
     * @param scope the stack's dm devices and thin metadata, and whether to compare request sizes
     */
    public static Comparison compare(List<TraceEvent> recorded, List<TraceEvent> modelled, CompareMode mode,
                                     CompareScope scope) {
        Objects.requireNonNull(recorded, "recorded");
        Objects.requireNonNull(modelled, "modelled");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(scope, "scope");
        Map<String, List<TraceEvent>> rec = byDevice(recorded, mode, scope);
        Map<String, List<TraceEvent>> mod = byDevice(modelled, mode, scope);
        Map<CompareScope.DeviceEvents, Long> leftOut = mode.ordered() ? Map.of() : leaveOutBeyondRecorded(rec, mod, scope);
        TreeSet<String> names = new TreeSet<>(DEVICE_ORDER);
        names.addAll(rec.keySet());
        names.addAll(mod.keySet());

        List<Comparison.DeviceCounts> counts = new ArrayList<>();
        List<List<String>> blocks = new ArrayList<>();
        for (String device : names) {
            List<TraceEvent> r = rec.getOrDefault(device, List.of());
            List<TraceEvent> m = mod.getOrDefault(device, List.of());
            List<String> block = new ArrayList<>();
            Comparison.DeviceCounts c = mode.ordered() ? sequence(device, r, m, block) : multiset(device, r, m, block);
            counts.add(c);
            if (!c.matches()) {
                blocks.add(block);
            }
        }
        boolean requestSizes = scope.requestSizes() && !mode.ordered();
        List<Comparison.DeviceCounts> requests = new ArrayList<>();
        List<List<String>> requestBlocks = new ArrayList<>();
        if (requestSizes) {
            Map<String, Map<RequestKey, Long>> rr = requestsByDevice(recorded, mode, scope);
            Map<String, Map<RequestKey, Long>> mr = requestsByDevice(modelled, mode, scope);
            TreeSet<String> devices = new TreeSet<>(DEVICE_ORDER);
            devices.addAll(rr.keySet());
            devices.addAll(mr.keySet());
            for (String device : devices) {
                List<String> block = new ArrayList<>();
                Comparison.DeviceCounts c = requestBags(device, rr.getOrDefault(device, Map.of()),
                        mr.getOrDefault(device, Map.of()), block);
                requests.add(c);
                if (!c.matches()) {
                    requestBlocks.add(block);
                }
            }
        }
        return new Comparison(mode, counts, requestSizes, requests,
                report(mode, counts, blocks, requestSizes, requests, requestBlocks, scope, leftOut));
    }

    /** Whether the mode compares this event. */
    static boolean compared(TraceEvent e, CompareMode mode, CompareScope scope) {
        if (!mode.events().contains(e.type())) {
            return false;
        }
        return switch (mode) {
            case SEQUENCE, MULTISET -> true;
            case MULTISET_DM -> scope.dmDevices().contains(e.device());
            case MULTISET_DATA -> e.nrSectors() != 0
                    && (e.type() != EventType.SPLIT || scope.dmDevices().contains(e.device()))
                    && !scope.inThinMetadata(e);
        };
    }

    /**
     * Whether a request event counts towards the request sizes: a {@code block_rq_issue} or
     * {@code block_rq_requeue} with sectors, and in {@link CompareMode#MULTISET_DATA} not inside thin metadata.
     */
    static boolean requestCompared(TraceEvent e, CompareMode mode, CompareScope scope) {
        if ((e.type() != EventType.RQ_ISSUE && e.type() != EventType.RQ_REQUEUE) || e.nrSectors() <= 0) {
            return false;
        }
        return mode != CompareMode.MULTISET_DATA || !scope.inThinMetadata(e);
    }

    private static Map<String, List<TraceEvent>> byDevice(List<TraceEvent> events, CompareMode mode,
                                                         CompareScope scope) {
        Map<String, List<TraceEvent>> out = new TreeMap<>(DEVICE_ORDER);
        for (TraceEvent e : events) {
            if (compared(Objects.requireNonNull(e, "event"), mode, scope)) {
                out.computeIfAbsent(e.device(), k -> new ArrayList<>()).add(e);
            }
        }
        return out;
    }

    /**
     * For each of the scope's {@link CompareScope#atMostModelled} events, drops from the device's modelled events
     * those of that tracepoint beyond the recorded ones of the same key (what is kept of each key is as many as
     * were recorded, or all modelled if fewer), so that a recorded event the model lacks is still missing while a
     * modelled one the kernel did not happen to trace is not extra. Returns how many were dropped of each.
     */
    private static Map<CompareScope.DeviceEvents, Long> leaveOutBeyondRecorded(Map<String, List<TraceEvent>> rec,
            Map<String, List<TraceEvent>> mod, CompareScope scope) {
        Map<CompareScope.DeviceEvents, Long> out = new TreeMap<>(Comparator.comparing(CompareScope.DeviceEvents::device,
                DEVICE_ORDER).thenComparing(d -> d.type().tracepoint()));
        for (CompareScope.DeviceEvents de : scope.atMostModelled()) {
            List<TraceEvent> m = mod.get(de.device());
            if (m == null) {
                continue;
            }
            Map<Key, Long> room = new LinkedHashMap<>();
            for (TraceEvent e : rec.getOrDefault(de.device(), List.of())) {
                if (e.type() == de.type()) {
                    room.merge(Key.of(e), 1L, Long::sum);
                }
            }
            List<TraceEvent> kept = new ArrayList<>(m.size());
            long dropped = 0;
            for (TraceEvent e : m) {
                if (e.type() == de.type()) {
                    Key k = Key.of(e);
                    long left = room.getOrDefault(k, 0L);
                    if (left == 0) {
                        dropped++;
                        continue;
                    }
                    room.put(k, left - 1);
                }
                kept.add(e);
            }
            mod.put(de.device(), kept);
            out.put(de, dropped);
        }
        return out;
    }

    /** Per device, issued requests by (rwbs, size): +1 per issue, -1 per requeue (the request is issued again). */
    private static Map<String, Map<RequestKey, Long>> requestsByDevice(List<TraceEvent> events, CompareMode mode,
                                                                      CompareScope scope) {
        Map<String, Map<RequestKey, Long>> out = new TreeMap<>(DEVICE_ORDER);
        for (TraceEvent e : events) {
            if (requestCompared(Objects.requireNonNull(e, "event"), mode, scope)) {
                out.computeIfAbsent(e.device(), k -> new LinkedHashMap<>())
                        .merge(new RequestKey(e.rwbs(), e.nrSectors()), e.type() == EventType.RQ_ISSUE ? 1L : -1L,
                                Long::sum);
            }
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------- sequence

    private static Comparison.DeviceCounts sequence(String device, List<TraceEvent> r, List<TraceEvent> m,
                                                    List<String> block) {
        int common = Math.min(r.size(), m.size());
        long matched = 0;
        int first = -1;
        List<String> details = new ArrayList<>();
        int shown = 0;
        int differences = 0;
        for (int i = 0; i < Math.max(r.size(), m.size()); i++) {
            boolean equal = i < common && Key.of(r.get(i)).equals(Key.of(m.get(i)));
            if (equal) {
                matched++;
                continue;
            }
            differences++;
            if (first < 0) {
                first = i;
            }
            if (shown < SEQUENCE_DIFFERENCES) {
                shown++;
                details.add("    [" + i + "] recorded: " + row(i < r.size() ? r.get(i) : null, "recorded"));
                details.add("    " + " ".repeat(Integer.toString(i).length() + 2) + " modelled: "
                        + row(i < m.size() ? m.get(i) : null, "modelled"));
            }
        }
        Comparison.DeviceCounts c = new Comparison.DeviceCounts(device, r.size(), m.size(), matched);
        if (!c.matches()) {
            block.add("  " + device + ": " + r.size() + " recorded, " + m.size() + " modelled, " + matched
                    + " equal in place; " + differences + " position(s) differ, the first at index " + first
                    + " of the device's compared events:");
            block.addAll(details);
            if (differences > shown) {
                block.add("    ... " + (differences - shown) + " more differing position(s)");
            }
        }
        return c;
    }

    private static String row(TraceEvent e, String which) {
        return e == null ? "<none: the " + which + " sequence has ended>" : TraceFormat.CSV.format(e);
    }

    // ------------------------------------------------------------------------------------------- multiset

    private static Comparison.DeviceCounts multiset(String device, List<TraceEvent> r, List<TraceEvent> m,
                                                    List<String> block) {
        Map<Key, long[]> bag = new LinkedHashMap<>(); // recorded count, modelled count, first seq of each
        for (TraceEvent e : r) {
            long[] v = bag.computeIfAbsent(Key.of(e), k -> new long[] {0, 0, e.seq(), -1});
            v[0]++;
        }
        for (TraceEvent e : m) {
            long[] v = bag.computeIfAbsent(Key.of(e), k -> new long[] {0, 0, -1, e.seq()});
            if (v[1]++ == 0) {
                v[3] = e.seq();
            }
        }
        long matched = 0;
        long missing = 0;
        long extra = 0;
        List<String> missingLines = new ArrayList<>();
        List<String> extraLines = new ArrayList<>();
        int missingKinds = 0;
        int extraKinds = 0;
        for (Map.Entry<Key, long[]> entry : bag.entrySet()) {
            long[] v = entry.getValue();
            matched += Math.min(v[0], v[1]);
            if (v[0] > v[1]) {
                missing += v[0] - v[1];
                if (missingKinds++ < BAG_ITEMS) {
                    missingLines.add("    missing " + (v[0] - v[1]) + "x " + entry.getKey() + "  (recorded " + v[0]
                            + ", modelled " + v[1] + "; first recorded at seq " + v[2] + ")");
                }
            } else if (v[1] > v[0]) {
                extra += v[1] - v[0];
                if (extraKinds++ < BAG_ITEMS) {
                    extraLines.add("    extra   " + (v[1] - v[0]) + "x " + entry.getKey() + "  (recorded " + v[0]
                            + ", modelled " + v[1] + "; first modelled at seq " + v[3] + ")");
                }
            }
        }
        Comparison.DeviceCounts c = new Comparison.DeviceCounts(device, r.size(), m.size(), matched);
        if (!c.matches()) {
            block.add("  " + device + ": " + r.size() + " recorded, " + m.size() + " modelled, " + matched
                    + " matched; " + missing + " missing (recorded, not modelled), " + extra
                    + " extra (modelled, not recorded):");
            block.addAll(missingLines);
            if (missingKinds > BAG_ITEMS) {
                block.add("    ... " + (missingKinds - BAG_ITEMS) + " more kind(s) of missing event");
            }
            block.addAll(extraLines);
            if (extraKinds > BAG_ITEMS) {
                block.add("    ... " + (extraKinds - BAG_ITEMS) + " more kind(s) of extra event");
            }
        }
        return c;
    }

    // ------------------------------------------------------------------------------------------- requests

    private static Comparison.DeviceCounts requestBags(String device, Map<RequestKey, Long> r,
                                                       Map<RequestKey, Long> m, List<String> block) {
        Map<RequestKey, long[]> bag = new TreeMap<>(Comparator.comparing(RequestKey::rwbs)
                .thenComparingLong(RequestKey::nrSectors));
        r.forEach((k, v) -> bag.computeIfAbsent(k, x -> new long[2])[0] += v);
        m.forEach((k, v) -> bag.computeIfAbsent(k, x -> new long[2])[1] += v);
        long recorded = 0;
        long modelled = 0;
        long matched = 0;
        List<String> lines = new ArrayList<>();
        int kinds = 0;
        for (Map.Entry<RequestKey, long[]> entry : bag.entrySet()) {
            long rc = Math.max(entry.getValue()[0], 0);
            long mc = Math.max(entry.getValue()[1], 0);
            recorded += rc;
            modelled += mc;
            matched += Math.min(rc, mc);
            if (rc != mc && kinds++ < 2 * BAG_ITEMS) {
                lines.add("    " + entry.getKey() + ": recorded " + rc + ", modelled " + mc);
            }
        }
        Comparison.DeviceCounts c = new Comparison.DeviceCounts(device, recorded, modelled, matched);
        if (!c.matches()) {
            block.add("  " + device + " requests: " + recorded + " recorded, " + modelled + " modelled, " + matched
                    + " matched in size:");
            block.addAll(lines);
            if (kinds > 2 * BAG_ITEMS) {
                block.add("    ... " + (kinds - 2 * BAG_ITEMS) + " more request size(s) differ");
            }
        }
        return c;
    }

    /** What is compared of a request: its rwbs and size. */
    record RequestKey(String rwbs, long nrSectors) {
        @Override
        public String toString() {
            return "block_rq_issue " + rwbs + " " + nrSectors + " sectors";
        }
    }

    // --------------------------------------------------------------------------------------------- report

    private static String report(CompareMode mode, List<Comparison.DeviceCounts> counts, List<List<String>> blocks,
                                 boolean requestSizes, List<Comparison.DeviceCounts> requests,
                                 List<List<String>> requestBlocks, CompareScope scope,
                                 Map<CompareScope.DeviceEvents, Long> leftOut) {
        long compared = counts.stream().mapToLong(Comparison.DeviceCounts::compared).sum();
        long modelled = counts.stream().mapToLong(Comparison.DeviceCounts::modelled).sum();
        long matched = counts.stream().mapToLong(Comparison.DeviceCounts::matched).sum();
        List<String> lines = new ArrayList<>();
        String verdict;
        String inRequests = "in request sizes on " + requestBlocks.size() + " of " + requests.size() + " device(s)";
        if (blocks.isEmpty()) {
            verdict = requestBlocks.isEmpty() ? "the traces agree" : "the traces differ " + inRequests;
        } else {
            verdict = "the traces differ on " + blocks.size() + " of " + counts.size() + " device(s)"
                    + (requestBlocks.isEmpty() ? "" : " and " + inRequests);
        }
        lines.add(mode.word() + ": " + verdict + " (" + compared + " recorded and " + modelled
                + " modelled events compared, " + matched + " matched)");
        lines.add("  compared: " + scope(mode, scope));
        leftOut.forEach((de, n) -> lines.add("  timing-dependent: " + de + " compared as part of the modelled ones; "
                + n + " modelled beyond the recorded left out"));
        if (requestSizes) {
            long rr = requests.stream().mapToLong(Comparison.DeviceCounts::compared).sum();
            long rm = requests.stream().mapToLong(Comparison.DeviceCounts::modelled).sum();
            long rmatched = requests.stream().mapToLong(Comparison.DeviceCounts::matched).sum();
            lines.add("  and request sizes (block_rq_issue rwbs and nr_sectors, per device, in any order; flushes"
                    + (mode == CompareMode.MULTISET_DATA ? " and thin metadata" : "")
                    + " left out, requeued issues not counted): " + rr + " recorded and " + rm + " modelled, "
                    + rmatched + " matched");
        }
        List<String> agreeing = counts.stream().filter(Comparison.DeviceCounts::matches)
                .map(d -> d.device() + " (" + d.compared() + ")").toList();
        if (!agreeing.isEmpty()) {
            lines.add("  agreeing devices: " + String.join(", ", agreeing));
        }
        List<List<String>> all = new ArrayList<>(blocks);
        all.addAll(requestBlocks);
        int shown = 0;
        for (List<String> block : all) {
            int room = MAX_REPORT_LINES - 1 - lines.size();
            if (block.size() > room && shown > 0) {
                break;
            }
            lines.addAll(block.subList(0, Math.min(block.size(), Math.max(room, 1))));
            shown++;
        }
        if (shown < all.size()) {
            List<String> rest = new ArrayList<>();
            for (List<String> block : all.subList(shown, all.size())) {
                rest.add(block.get(0).strip().split(":", 2)[0]);
            }
            lines.add("  ... " + rest.size() + " more differing device(s): " + String.join(", ", rest));
        }
        return String.join("\n", lines);
    }

    private static String scope(CompareMode mode, CompareScope scope) {
        String events = String.join(", ", mode.events().stream().map(EventType::tracepoint).sorted().toList());
        return switch (mode) {
            case SEQUENCE -> events + " in order, per device";
            case MULTISET -> events + " in any order, per device";
            case MULTISET_DM -> events + " in any order, on the dm devices " + sorted(scope.dmDevices());
            case MULTISET_DATA -> events + " in any order, per device, without zero-length bios, splits on disks"
                    + " and partitions, and events inside the thin-pool metadata " + scope.thinMetadata();
        };
    }

    private static String sorted(Set<String> names) {
        TreeSet<String> s = new TreeSet<>(DEVICE_ORDER);
        s.addAll(names);
        return s.toString();
    }

    // -------------------------------------------------------------------------------------------- helpers

    /** What is compared of an event: a split by its sector only. */
    record Key(EventType type, String rwbs, long sector, long nrSectors) {
        static Key of(TraceEvent e) {
            return e.type() == EventType.SPLIT ? new Key(EventType.SPLIT, "", remainderStart(e), -1)
                    : new Key(e.type(), e.rwbs(), e.sector(), e.nrSectors());
        }

        /**
         * Where a split's remainder starts: its {@code new_sector}. 6.1 and later print that sector in both
         * fields; 5.10 prints the front piece's start as the event's sector ({@code 64 / 128}).
         */
        private static long remainderStart(TraceEvent e) {
            for (String part : e.extra().split("[ ,]")) {
                if (part.startsWith("new_sector=")) {
                    try {
                        return Long.parseUnsignedLong(part.substring("new_sector=".length()));
                    } catch (NumberFormatException ignored) {
                        return e.sector();
                    }
                }
            }
            return e.sector();
        }

        @Override
        public String toString() {
            if (type == EventType.SPLIT) {
                return type.tracepoint() + " at " + Long.toUnsignedString(sector);
            }
            return type.tracepoint() + " " + rwbs + " " + Long.toUnsignedString(sector)
                    + (nrSectors >= 0 ? " + " + nrSectors : "");
        }
    }

    /** Device names with their numbers in numeric order: sda, sda1, sda2, sdb, dm-2, dm-10. */
    static final Comparator<String> DEVICE_ORDER = TraceComparator::compareNames;

    private static int compareNames(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char ca = a.charAt(i);
            char cb = b.charAt(j);
            if (Character.isDigit(ca) && Character.isDigit(cb)) {
                int si = i;
                int sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) {
                    i++;
                }
                while (j < b.length() && Character.isDigit(b.charAt(j))) {
                    j++;
                }
                String na = a.substring(si, i).replaceFirst("^0+(?=.)", "");
                String nb = b.substring(sj, j).replaceFirst("^0+(?=.)", "");
                int c = na.length() != nb.length() ? Integer.compare(na.length(), nb.length()) : na.compareTo(nb);
                if (c != 0) {
                    return c;
                }
            } else {
                if (ca != cb) {
                    return Character.compare(ca, cb);
                }
                i++;
                j++;
            }
        }
        int c = Integer.compare(a.length() - i, b.length() - j);
        return c != 0 ? c : a.compareTo(b);
    }
}
