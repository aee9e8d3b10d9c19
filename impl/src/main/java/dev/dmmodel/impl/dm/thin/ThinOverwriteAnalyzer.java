package dev.dmmodel.impl.dm.thin;

import dev.dmmodel.analysis.ThinOverwriteReport.FixOutcome;
import dev.dmmodel.analysis.ThinOverwriteReport;
import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ThinPoolFeature;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.engine.EngineOptions;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.engine.ThinStats;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.spi.ModelProvider;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.units.Sizes;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Explains partial first writes to thin devices (seed 004) and re-runs the model with each fix.
 */
public final class ThinOverwriteAnalyzer {
    private final ModelProvider provider;
    private final LayoutSpec spec;
    private final Script workload;
    private final EngineOptions options;

    /** An analysis of one layout and workload. */
    public ThinOverwriteAnalyzer(ModelProvider provider, LayoutSpec spec, Script workload, EngineOptions options) {
        this.provider = provider;
        this.spec = spec;
        this.workload = workload;
        this.options = options;
    }

    private record Run(Layout layout, List<ThinStats> stats) {
        ThinStats of(String thin) {
            return stats.stream().filter(s -> s.thinDevice().equals(thin)).findFirst().orElseThrow();
        }
    }

    private Run run(LayoutSpec s, Script w) {
        Layout layout = provider.build(s);
        Simulation sim = provider.simulate(layout, options);
        sim.run(w, TraceListener.NONE);
        return new Run(sim.layout(), sim.thinStats());
    }

    /** The reports, one per thin device that received writes. */
    public List<ThinOverwriteReport> analyze() {
        Run base = run(spec, workload);
        List<ThinOverwriteReport> out = new ArrayList<>();
        for (ThinStats st : base.stats()) {
            if (st.writeBios() == 0) {
                continue;
            }
            if (st.partialFirstWrites() == 0) {
                out.add(new ThinOverwriteReport(st.thinDevice(), st, List.of("every first write covered its whole "
                        + st.blockSectors() + "-sector block"), Optional.empty(), List.of()));
                continue;
            }
            List<String> causes = causes(base.layout(), st);
            // what shapes the bios at the thin device: its max_sectors, and before 4.3 its max_segments (bio_get_nr_vecs)
            List<dev.dmmodel.limits.LimitRef> basis = new ArrayList<>();
            basis.add(new dev.dmmodel.limits.LimitRef(st.thinDevice(), dev.dmmodel.limits.LimitField.MAX_SECTORS_KB));
            if (base.layout().profile().bioShaping() == KernelProfile.BioShaping.AT_BUILD) {
                basis.add(new dev.dmmodel.limits.LimitRef(st.thinDevice(), dev.dmmodel.limits.LimitField.MAX_SEGMENTS));
            }
            Finding f = new Finding(FindingType.THIN_PARTIAL_FIRST_WRITES, FindingType.THIN_PARTIAL_FIRST_WRITES
                    .defaultSeverity(), st.thinDevice(), String.join("; ", causes), fixSummary(st), basis);
            out.add(new ThinOverwriteReport(st.thinDevice(), st, causes, Optional.of(f), fixes(base, st)));
        }
        return List.copyOf(out);
    }

    private static String fixSummary(ThinStats st) {
        return "make the bios that reach " + st.thinDevice() + " cover whole " + Sizes.format(st.blockSectors() * 512)
                + " blocks, or use a block no larger than the largest bio (" + st.largestBioSectors()
                + " sectors), or skip zeroing; see the checked fixes";
    }

    // the cause chain: the bios' size at the thin device, what shaped it, and what it cost
    private List<String> causes(Layout layout, ThinStats st) {
        List<String> c = new ArrayList<>();
        KernelProfile p = layout.profile();
        QueueLimits thin = layout.limits(st.thinDevice());
        long largest = st.largestBioSectors();
        long bs = st.blockSectors();
        OptionalLong directSize = directWriteSize(layout, st.thinDevice());
        boolean buffered = bufferedWrites(layout, st.thinDevice());
        if (buffered && directSize.isEmpty()) {
            c.add("writes to " + st.thinDevice() + " go through the page cache, and writeback sends one bio per "
                    + "soft block: bios of " + largest + " sectors");
        } else if (directSize.isPresent() && directSize.getAsLong() / 512 < bs && largest <= directSize.getAsLong() / 512) {
            c.add("the application writes " + directSize.getAsLong() / 512 + " sectors at a time, less than a block");
        } else if (p.bioShaping() == KernelProfile.BioShaping.AT_BUILD) {
            long nrVecs = dev.dmmodel.impl.block.Bios.bioGetNrVecs(thin.maxSegments(), thin.maxSectors());
            if (largest == nrVecs * 8 && nrVecs == thin.maxSegments()) {
                c.add("bios at " + st.thinDevice() + " are at most " + largest + " sectors because its max_segments = "
                        + thin.maxSegments() + " (stacked from " + segmentSource(layout, st.thinDevice())
                        + ") limits a direct-I/O bio to " + nrVecs + " pages when it is built (bio_get_nr_vecs)");
            } else if (largest >= thin.maxSectors()) {
                c.add("bios at " + st.thinDevice() + " are at most " + largest + " sectors because its max_sectors = "
                        + thin.maxSectors() + " (max_sectors_kb " + thin.maxSectorsKb() + ")");
            } else {
                c.add("bios at " + st.thinDevice() + " are at most " + largest + " sectors");
            }
        } else {
            c.add("bios at " + st.thinDevice() + " are at most " + largest + " sectors");
        }
        c.add("pool block = " + bs + " sectors; " + st.partialFirstWrites() + " of " + st.blocksProvisioned()
                + " provisioned blocks were first written partially");
        if (st.blocksZeroed() > 0) {
            c.add(st.blocksZeroed() + " blocks zeroed before write");
        }
        if (st.blocksCopied() > 0) {
            c.add(st.blocksCopied() + " shared blocks copied before write");
        }
        c.add(Sizes.format(st.extraBytesWritten()) + " extra written");
        return c;
    }

    // the device below whose max_segments the thin device inherited
    private static String segmentSource(Layout layout, String device) {
        BlockDevice d = layout.device(device);
        long want = d.limits().maxSegments();
        String found = device;
        List<String> frontier = new ArrayList<>(List.of(device));
        while (!frontier.isEmpty()) {
            String n = frontier.remove(0);
            BlockDevice x = layout.device(n);
            if (x instanceof DmDevice dm) {
                for (DmTarget t : dm.table().targets()) {
                    List<String> below = t instanceof ThinPoolTarget pt ? List.of(pt.dataDevice()) : t.devices();
                    frontier.addAll(below);
                }
            } else if (x.limits().maxSegments() == want) {
                found = x.name() + (x instanceof dev.dmmodel.device.Disk disk ? ", " + disk.driver() : "");
            }
        }
        return found;
    }

    private OptionalLong directWriteSize(Layout layout, String thin) {
        long size = 0;
        for (Command c : workload.commands()) {
            if (c instanceof Command.Dd dd && dd.outputFlags().contains(Command.DdFlag.DIRECT)
                    && layout.find(dd.output()).map(BlockDevice::name).orElse("").equals(thin)) {
                size = Math.max(size, dd.outputBlockSize());
            }
        }
        return size == 0 ? OptionalLong.empty() : OptionalLong.of(size);
    }

    private boolean bufferedWrites(Layout layout, String thin) {
        for (Command c : workload.commands()) {
            if (c instanceof Command.Dd dd && !dd.outputFlags().contains(Command.DdFlag.DIRECT)
                    && layout.find(dd.output()).map(BlockDevice::name).orElse("").equals(thin)) {
                return true;
            }
        }
        return false;
    }

    private List<FixOutcome> fixes(Run base, ThinStats st) {
        List<FixOutcome> out = new ArrayList<>();
        Layout layout = base.layout();
        String pool = st.poolDevice();
        DmDevice poolDev = (DmDevice) layout.device(pool);
        String poolName = poolDev.dmName();
        long largest = st.largestBioSectors();
        // 1. a block no larger than the largest bio: the largest multiple of 64 KiB, a power of two, that fits
        long block = 128;
        while (block * 2 <= largest && block * 2 <= ThinPoolTarget.MAX_BLOCK_SECTORS) {
            block *= 2;
        }
        if (block < st.blockSectors() && largest >= 128) {
            final long b = block;
            out.add(outcome("recreate the pool with " + Sizes.format(b * 512) + " blocks (" + b + " sectors)",
                    replacePool(poolName, t -> new ThinPoolTarget(t.start(), t.length(), t.metadataDevice(),
                            t.dataDevice(), b, t.lowWaterMark(), t.features())), workload, st.thinDevice(), ""));
        }
        // 2. a larger max_sectors_kb on the thin device, where max_sectors is what limits the bios
        QueueLimits thin = layout.limits(st.thinDevice());
        if (largest >= thin.maxSectors() && thin.maxSectors() < st.blockSectors()) {
            long kb = Math.min(st.blockSectors() / 2, thin.maxHwSectorsKb());
            Script w = prepend(new Command.SysfsWrite("echo " + kb + " > /sys/block/" + st.thinDevice()
                    + "/queue/max_sectors_kb", "/sys/block/" + st.thinDevice() + "/queue/max_sectors_kb",
                    Long.toString(kb)));
            out.add(outcome("echo " + kb + " > /sys/block/" + st.thinDevice() + "/queue/max_sectors_kb", spec, w,
                    st.thinDevice(), ""));
        }
        // 3. no zeroing
        out.add(outcome("reload the pool with skip_block_zeroing (lvcreate/lvchange -Zn)",
                replacePool(poolName, t -> {
                    Set<ThinPoolFeature> f = t.features().isEmpty() ? EnumSet.noneOf(ThinPoolFeature.class)
                            : EnumSet.copyOf(t.features());
                    f.add(ThinPoolFeature.SKIP_BLOCK_ZEROING);
                    return new ThinPoolTarget(t.start(), t.length(), t.metadataDevice(), t.dataDevice(), t.blockSectors(),
                            t.lowWaterMark(), f);
                }), workload, st.thinDevice(), "new blocks then hold whatever the data device held before: stale data"
                        + " is readable through the thin device until overwritten"));
        // 4. whole-block application writes
        Script aligned = alignedWrites(layout, st.thinDevice(), st.blockSectors() * 512);
        if (aligned != null) {
            out.add(outcome("write whole blocks from a block-aligned buffer (dd bs=" + Sizes.format(st.blockSectors() * 512)
                    + ")", spec, aligned, st.thinDevice(), "applications rarely control their write size"));
        }
        return out;
    }

    private FixOutcome outcome(String description, LayoutSpec s, Script w, String thin, String caveat) {
        try {
            ThinStats t = run(s, w).of(thin);
            return new FixOutcome(description, t.blocksZeroed(), t.blocksCopied(), t.extraBytesWritten(),
                    t.partialFirstWrites(), caveat);
        } catch (RuntimeException e) {
            return new FixOutcome(description + " (not possible: " + e.getMessage() + ")", -1, -1, -1, -1, caveat);
        }
    }

    private LayoutSpec replacePool(String poolDmName, UnaryOperator<ThinPoolTarget> change) {
        List<LayoutStep> steps = new ArrayList<>();
        for (LayoutStep step : spec.steps()) {
            if (step instanceof LayoutStep.DmCreate dc && dc.name().equals(poolDmName)) {
                DmTable.Builder b = DmTable.builder();
                for (DmTarget t : dc.table().targets()) {
                    b.add(t instanceof ThinPoolTarget pt ? change.apply(pt) : t);
                }
                steps.add(new LayoutStep.DmCreate(dc.name(), dc.uuid(), b.build(), dc.kernelName(), dc.devNumber()));
            } else {
                steps.add(step);
            }
        }
        return new LayoutSpec(spec.profile(), steps);
    }

    private Script prepend(Command c) {
        List<Command> cmds = new ArrayList<>();
        cmds.add(c);
        cmds.addAll(workload.commands());
        return new Script(cmds);
    }

    // dd writes to the thin device rewritten with bs = the block (same bytes, O_DIRECT)
    private Script alignedWrites(Layout layout, String thin, long blockBytes) {
        List<Command> cmds = new ArrayList<>();
        boolean changed = false;
        for (Command c : workload.commands()) {
            if (c instanceof Command.Dd dd && layout.find(dd.output()).map(BlockDevice::name).orElse("").equals(thin)
                    && dd.seekBytes() % blockBytes == 0) {
                Set<Command.DdFlag> flags = EnumSet.of(Command.DdFlag.DIRECT);
                flags.addAll(dd.outputFlags());
                OptionalLong count = dd.count().isPresent()
                        ? OptionalLong.of((dd.count().getAsLong() + blockBytes - 1) / blockBytes * blockBytes)
                        : OptionalLong.empty();
                cmds.add(new Command.Dd(dd.line() + " [bs=" + blockBytes + ", oflag=direct]", dd.input(), dd.output(),
                        blockBytes, blockBytes, true, count, dd.skipBytes(), dd.seekBytes(), dd.inputFlags(), flags,
                        dd.conversions()));
                changed = true;
            } else {
                cmds.add(c);
            }
        }
        return changed ? new Script(cmds) : null;
    }
}
