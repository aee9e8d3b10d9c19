package dev.dmmodel.testkit.property.engine;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.Partition;
import dev.dmmodel.engine.EngineOptions;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.IoJob;
import java.util.List;

/**
 * One generated case: a stack (the builder calls that made it, and the layout), the device the workload
 * targets, and the workload.
 *
 * @param script the builder calls, as Java, in order
 * @param layout the built layout
 * @param options the simulation's options (how contiguous the direct-I/O buffer is)
 * @param targetPath the path the workload uses ({@code /dev/vg/lv1}, {@code /dev/mapper/top})
 * @param ops the workload, ending with {@code sync}
 */
record Case(List<String> script, Layout layout, EngineOptions options, String targetPath,
            List<Op> ops) {

    Case {
        script = List.copyOf(script);
        ops = List.copyOf(ops);
    }

    /** The kernel name of the target ({@code dm-2}). */
    String target() {
        return layout.device(targetPath).name();
    }

    /** The case in full: the builder calls, the devices with their limits, the dm tables, the workload. */
    String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append("Case\n  layout:\n");
        for (String s : script) {
            sb.append("    ").append(s).append('\n');
        }
        sb.append("  devices:\n");
        for (BlockDevice d : layout.devices()) {
            QueueLimits l = d.limits();
            sb.append("    ").append(d.name()).append(' ').append(d.path()).append(" size=").append(d.size().count())
                    .append(" lbs=").append(l.logicalBlockSize()).append(" pbs=").append(l.physicalBlockSize())
                    .append(" max_sectors=").append(l.maxSectors()).append(" max_segments=").append(l.maxSegments())
                    .append(" chunk_sectors=").append(l.chunkSectors()).append(" io_min=").append(l.ioMin())
                    .append(" io_opt=").append(l.ioOpt());
            if (d instanceof Partition p) {
                sb.append(" start=").append(p.start().count()).append(" of ").append(p.disk());
            }
            if (d instanceof Disk disk) {
                sb.append(" driver=").append(disk.driver());
            }
            sb.append('\n');
        }
        sb.append("  dmsetup table:\n");
        for (String line : layout.dmsetupTable().split("\n")) {
            sb.append("    ").append(line).append('\n');
        }
        sb.append("  simulation: Simulation.of(layout, new EngineOptions(").append(options.bufferRunBytes())
                .append("))\n");
        sb.append("  workload on ").append(targetPath).append(" (").append(target()).append("):\n");
        for (Op op : ops) {
            sb.append("    ").append(op).append('\n');
        }
        return sb.toString();
    }

    /** What an operation does to the target, for the expected sector ranges. */
    enum Kind {
        DIRECT_WRITE, DIRECT_READ, BUFFERED_WRITE, BUFFERED_READ, JOB, SYNC
    }

    /** One workload operation: a command or a job. */
    sealed interface Op permits CommandOp, JobOp {
        Kind kind();

        /** First byte of the target the operation covers (0 for sync). */
        long offset();

        /** Bytes covered (0 for sync). */
        long bytes();

        /** Java that builds it, for the report. */
        String java();
    }

    /**
     * A command ({@code dd} or {@code sync}).
     *
     * @param kind what it does
     * @param command the command
     * @param offset first byte on the target
     * @param bytes bytes
     * @param java how the test builds it
     */
    record CommandOp(Kind kind, Command command, long offset, long bytes, String java) implements Op {
        @Override
        public String toString() {
            return command.line() + "    // " + kind + " bytes " + offset + "+" + bytes + " = sectors " + offset / 512
                    + "+" + bytes / 512 + "; " + java;
        }
    }

    /**
     * An fio-style job.
     *
     * @param job the job
     * @param java how the test builds it
     */
    record JobOp(IoJob job, String java) implements Op {
        @Override
        public Kind kind() {
            return Kind.JOB;
        }

        @Override
        public long offset() {
            return job.offset();
        }

        @Override
        public long bytes() {
            return job.size();
        }

        @Override
        public String toString() {
            return job + "    // sectors " + job.offset() / 512 + "+" + job.size() / 512 + "; " + java;
        }
    }
}
