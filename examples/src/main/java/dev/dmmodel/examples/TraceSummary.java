package dev.dmmodel.examples;

import dev.dmmodel.engine.DeviceStats;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.trace.TraceListener;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Counts a run's events per device and prints them with the iostat view. */
final class TraceSummary implements TraceListener {

    private static final class PerDevice {
        final Map<Long, Long> bioSizes = new TreeMap<>();
        long bios;
        long splits;
        long requests;
        long requestSectors;
        long merges;
    }

    private final Map<String, PerDevice> devices = new LinkedHashMap<>();

    @Override
    public void onEvent(TraceEvent e) {
        PerDevice d = devices.computeIfAbsent(e.device(), k -> new PerDevice());
        switch (e.type()) {
            case BIO_QUEUE:
                if (e.nrSectors() > 0) {
                    d.bios++;
                    d.bioSizes.merge(e.nrSectors(), 1L, Long::sum);
                }
                break;
            case SPLIT:
                d.splits++;
                break;
            case RQ_ISSUE:
                if (e.nrSectors() > 0) {
                    d.requests++;
                    d.requestSectors += e.nrSectors();
                }
                break;
            case BIO_BACKMERGE:
            case BIO_FRONTMERGE:
                d.merges++;
                break;
            default:
                break;
        }
    }

    void print(PrintStream out, Simulation sim, double seconds) {
        out.println();
        out.println("Per layer (bios queued by size, splits, requests issued):");
        for (Map.Entry<String, PerDevice> e : devices.entrySet()) {
            PerDevice d = e.getValue();
            if (d.bios == 0 && d.requests == 0) {
                continue;
            }
            StringBuilder sizes = new StringBuilder();
            d.bioSizes.forEach((size, n) -> sizes.append(' ').append(n).append(" x ").append(size));
            out.printf("  %-6s bios:%s%s%s%n", e.getKey(), sizes.length() == 0 ? " none" : sizes,
                    d.splits > 0 ? "; splits " + d.splits : "",
                    d.requests > 0 ? String.format("; requests %d, average %.1f sectors, %d bios merged", d.requests,
                            (double) d.requestSectors / d.requests, d.merges) : "");
        }
        out.println();
        out.println("iostat -x over " + seconds + " s (sectors):");
        out.println("  " + DeviceStats.iostatHeader());
        List<DeviceStats> stats = sim.stats();
        for (DeviceStats s : stats) {
            if (s.readIos() + s.writeIos() > 0) {
                out.println("  " + s.iostatLine(seconds));
            }
        }
    }

    long bios(String device) {
        PerDevice d = devices.get(device);
        return d == null ? 0 : d.bios;
    }

    Map<Long, Long> bioSizes(String device) {
        PerDevice d = devices.get(device);
        return d == null ? Map.of() : d.bioSizes;
    }

    static boolean isData(TraceEvent e) {
        return e.type() == EventType.BIO_QUEUE && e.nrSectors() > 0;
    }
}
