package dev.dmmodel.analysis;

import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How sequential a device's requests were, the way the script in seed 000 measured it: requests in issue
 * order are grouped into runs ("extents") of back-to-back requests, each request starting where the
 * previous one ended.
 *
 * @param device the device
 * @param extents the runs in order
 */
public record Sequentiality(String device, List<Extent> extents) {

    /**
     * A run of back-to-back requests.
     *
     * @param start first sector
     * @param sectors sectors covered
     * @param transactions requests in the run
     */
    public record Extent(long start, long sectors, long transactions) {
        /** The sector after the run. */
        public long end() {
            return start + sectors;
        }
    }

    /** Copies the list. */
    public Sequentiality {
        Objects.requireNonNull(device, "device");
        extents = List.copyOf(extents);
    }

    /** The runs of the {@code block_rq_issue} events of {@code device} in trace order. */
    public static Sequentiality ofIssuedRequests(String device, Iterable<TraceEvent> trace) {
        List<Extent> out = new ArrayList<>();
        long start = -1;
        long sectors = 0;
        long count = 0;
        for (TraceEvent e : trace) {
            if (e.type() != EventType.RQ_ISSUE || !e.device().equals(device) || e.nrSectors() <= 0) {
                continue;
            }
            if (count > 0 && e.sector() == start + sectors) {
                sectors += e.nrSectors();
                count++;
            } else {
                if (count > 0) {
                    out.add(new Extent(start, sectors, count));
                }
                start = e.sector();
                sectors = e.nrSectors();
                count = 1;
            }
        }
        if (count > 0) {
            out.add(new Extent(start, sectors, count));
        }
        return new Sequentiality(device, out);
    }

    /** Total sectors. */
    public long totalSectors() {
        return extents.stream().mapToLong(Extent::sectors).sum();
    }

    /** Total requests. */
    public long totalTransactions() {
        return extents.stream().mapToLong(Extent::transactions).sum();
    }

    /**
     * Seeks per request: the fraction of requests that did not start where the previous one ended
     * (0 = perfectly sequential; 1 = every request seeks).
     */
    public double seekiness() {
        long t = totalTransactions();
        return t <= 1 ? 0 : (double) (extents.size() - 1) / (t - 1);
    }

    /** The report in the seed script's words. */
    public String report() {
        StringBuilder sb = new StringBuilder();
        for (Extent x : extents) {
            sb.append("Request: start ").append(x.start()).append(", length ").append(x.sectors()).append(" sec (")
                    .append(x.sectors() / 2).append(" KB), transactions: ").append(x.transactions()).append('\n');
        }
        sb.append("Number of \"extents\": ").append(extents.size()).append('\n');
        sb.append("Total number of sectors: ").append(totalSectors()).append(" (").append(totalSectors() / 2)
                .append(" KB)\n");
        sb.append("Total transactions: ").append(totalTransactions()).append('\n');
        return sb.toString();
    }
}
