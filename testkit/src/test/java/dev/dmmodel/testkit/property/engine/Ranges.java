package dev.dmmodel.testkit.property.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Sector ranges per device: sorted, checked for overlaps, coalesced. */
final class Ranges {
    private Ranges() {
    }

    /**
     * A half-open sector range with where it came from.
     *
     * @param start first sector
     * @param end sector after the last
     * @param origin what produced it, for messages (an event, a mapped piece)
     */
    record Range(long start, long end, String origin) {
        @Override
        public String toString() {
            return start + "+" + (end - start);
        }
    }

    /** Ranges grouped by device, each list sorted by start. */
    static final class PerDevice {
        final Map<String, List<Range>> byDevice = new TreeMap<>();

        void add(String device, long start, long length, String origin) {
            byDevice.computeIfAbsent(device, d -> new ArrayList<>()).add(new Range(start, start + length, origin));
        }

        long total() {
            long t = 0;
            for (List<Range> l : byDevice.values()) {
                for (Range r : l) {
                    t += r.end - r.start;
                }
            }
            return t;
        }

        /** The first pair of overlapping ranges on one device, described; null if none overlap. */
        String firstOverlap() {
            for (Map.Entry<String, List<Range>> e : byDevice.entrySet()) {
                List<Range> sorted = sorted(e.getValue());
                for (int i = 1; i < sorted.size(); i++) {
                    Range a = sorted.get(i - 1);
                    Range b = sorted.get(i);
                    if (b.start < a.end) {
                        return e.getKey() + ": " + a + " (" + a.origin + ") overlaps " + b + " (" + b.origin + ")";
                    }
                }
            }
            return null;
        }

        /** The union per device as coalesced "start+length" ranges. */
        Map<String, List<String>> coalesced() {
            Map<String, List<String>> out = new TreeMap<>();
            for (Map.Entry<String, List<Range>> e : byDevice.entrySet()) {
                List<String> merged = new ArrayList<>();
                long s = -1;
                long end = -1;
                for (Range r : sorted(e.getValue())) {
                    if (r.end == r.start) {
                        continue;
                    }
                    if (s >= 0 && r.start <= end) {
                        end = Math.max(end, r.end);
                    } else {
                        if (s >= 0) {
                            merged.add(s + "+" + (end - s));
                        }
                        s = r.start;
                        end = r.end;
                    }
                }
                if (s >= 0) {
                    merged.add(s + "+" + (end - s));
                }
                if (!merged.isEmpty()) {
                    out.put(e.getKey(), merged);
                }
            }
            return out;
        }

        private static List<Range> sorted(List<Range> l) {
            List<Range> s = new ArrayList<>(l);
            s.sort(Comparator.comparingLong(Range::start).thenComparingLong(Range::end));
            return s;
        }
    }
}
