package dev.dmmodel.impl.lvm.cmd;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.impl.lvm.DisplaySize;
import dev.dmmodel.impl.lvm.PvCreate;
import dev.dmmodel.impl.lvm.PvTopology;
import dev.dmmodel.impl.lvm.ThinPools;
import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanOpFailure;
import dev.dmmodel.impl.plan.PlanState;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.plan.PlanException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An LVM command of a plan ({@code pvcreate}, {@code vgcreate}, {@code vgextend}, {@code lvcreate},
 * {@code lvextend}, {@code lvconvert}): read with {@link LvmCommandParser} when the plan is read (percentages and
 * sizes relative to what exists are checked for form only), and again when it runs, against the host as the plan
 * has left it — so that {@code -l 100%FREE} is the free space at that point, as LVM computes it. Its result says
 * what LVM decided: a PV's {@code pe_start} and what set the data alignment, a VG's extents, an LV's extents and
 * where they lie.
 */
public final class LvmPlanCommand implements PlanOp {

    private final Origin origin;
    private final String tool;
    private final List<String> words;
    private final List<int[]> places;

    private LvmPlanCommand(Origin origin, String tool, List<String> words, List<int[]> places) {
        this.origin = origin;
        this.tool = tool;
        this.words = List.copyOf(words);
        this.places = List.copyOf(places);
    }

    /**
     * Reads one LVM command.
     *
     * @param origin where it was written
     * @param words the command and its arguments
     * @param places each word's line and column ({@code int[]{line, column}})
     * @throws PlanException at the word LVM's syntax refuses
     */
    public static LvmPlanCommand read(Origin origin, List<String> words, List<int[]> places) {
        Objects.requireNonNull(origin, "origin");
        if (words.isEmpty() || words.size() != places.size()) {
            throw new IllegalArgumentException("an LVM command needs its words and their places");
        }
        LvmPlanCommand c = new LvmPlanCommand(origin, words.get(0), words, places);
        c.parse(null);
        return c;
    }

    @Override
    public Origin origin() {
        return origin;
    }

    @Override
    public String tool() {
        return tool;
    }

    private List<LayoutStep> parse(LvmCommandParser.HostSizes sizes) {
        try {
            return LvmCommandParser.parseCommand(words, origin.source(), origin.line(), sizes);
        } catch (LvmCommandException e) {
            int index = Math.max(1, Math.min(e.column(), places.size())) - 1;
            int[] at = places.get(index);
            throw origin.error(at[0], at[1], e.problem());
        }
    }

    @Override
    public List<String> apply(PlanState state) {
        Layout before = state.layout();
        List<LayoutStep> steps = parse(new Sizes(before));
        List<LayoutStep> all = new ArrayList<>();
        for (LayoutStep s : steps) {
            if (s instanceof LayoutStep.PvCreate p && before.find(p.device()).isEmpty()) {
                // lib/device/dev-cache.c: a name no device answers to
                throw new PlanOpFailure("No device found for " + p.device() + ".");
            }
            List<String> named = s instanceof LayoutStep.VgExtend v ? v.pvs()
                    : s instanceof LayoutStep.VgCreate v ? v.pvs() : List.of();
            if (!named.isEmpty()) {
                // tools/vgcreate.c, vgextend.c: a device that is not a PV yet is initialised with pvcreate's defaults
                for (String pv : named) {
                    BlockDevice d = before.find(pv).orElseThrow(() -> new PlanOpFailure("No device found for " + pv
                            + "."));
                    if (before.physicalVolume(d.name()).isEmpty()) {
                        all.add(new LayoutStep.PvCreate(pv, PvCreateOptions.DEFAULTS));
                    }
                }
            }
            all.add(s);
        }
        Layout after = state.add(all);
        List<String> out = new ArrayList<>();
        for (LayoutStep s : all) {
            out.addAll(describe(s, before, after));
        }
        return out;
    }

    // ---- what LVM decided

    private List<String> describe(LayoutStep s, Layout before, Layout after) {
        if (s instanceof LayoutStep.PvCreate p) {
            BlockDevice d = after.device(p.device());
            PhysicalVolume pv = after.physicalVolume(d.name()).orElseThrow();
            PvCreate.PeAlign align = PvCreate.peAlignment(d.name(), PvTopology.of(d.limits(),
                    after.profile().pageSize()), p.options());
            String offset = pv.peStart().count() == align.sectors() ? ""
                    : " (" + pv.peStart().count() + " = a multiple of it"
                            + (d.limits().alignmentOffset() != 0 ? " plus alignment_offset " + d.limits().alignmentOffset()
                            + "B" : "") + ")";
            return List.of(d.path() + ": pe_start " + pv.peStart().count() + "s, data alignment "
                    + size(align.sectors()) + " from " + align.source() + offset);
        }
        if (s instanceof LayoutStep.VgCreate v) {
            VolumeGroup vg = after.volumeGroup(v.name()).orElseThrow();
            return List.of(vgLine(vg, "extent size"));
        }
        if (s instanceof LayoutStep.VgExtend v) {
            VolumeGroup vg = after.volumeGroup(v.vg()).orElseThrow();
            return List.of(vgLine(vg, "extended; extent size"));
        }
        String vgName = vgOf(s);
        if (vgName == null) {
            return List.of();
        }
        VolumeGroup vgBefore = before.volumeGroup(vgName).orElse(null);
        VolumeGroup vg = after.volumeGroup(vgName).orElseThrow();
        List<String> out = new ArrayList<>();
        for (LogicalVolume lv : vg.logicalVolumes()) {
            Optional<LogicalVolume> old = vgBefore == null ? Optional.empty() : vgBefore.logicalVolume(lv.name());
            if (old.isPresent() && old.get().segments().equals(lv.segments())) {
                continue;
            }
            out.add(lvLine(vg, lv, old, after));
        }
        return out;
    }

    private static String vgLine(VolumeGroup vg, String what) {
        List<String> pvs = new ArrayList<>();
        for (PhysicalVolume pv : vg.physicalVolumes()) {
            pvs.add(pv.device() + " " + pv.peCount());
        }
        return "VG " + vg.name() + ": " + what + " " + size(vg.extentSize().count())
                + ", " + vg.extentCount() + " extents (" + String.join(", ", pvs) + "), " + vg.freeCount() + " free";
    }

    private static String lvLine(VolumeGroup vg, LogicalVolume lv, Optional<LogicalVolume> old, Layout after) {
        long extent = vg.extentSize().count();
        StringBuilder b = new StringBuilder();
        b.append(lv.visible() ? "" : "hidden ").append("LV ").append(vg.name()).append('/').append(lv.name())
                .append(old.isPresent() ? ": extended to " : ": ").append(lv.extentCount()).append(" extents (")
                .append(size(Math.multiplyExact(lv.extentCount(), extent))).append(')');
        lv.thinPool().ifPresent(p -> b.append(", thin pool chunk ")
                .append(size(p.chunkSize().count())));
        List<String> where = new ArrayList<>();
        for (LvSegment seg : lv.segments()) {
            if (seg.areas().isEmpty()) {
                continue;
            }
            List<String> areas = new ArrayList<>();
            for (StripeArea a : seg.areas()) {
                Optional<PhysicalVolume> pv = vg.physicalVolume(a.pv());
                if (pv.isEmpty()) {
                    areas.add(a.pv()); // a sub-LV: a pool's data or metadata, a RAID image
                    continue;
                }
                long first = a.startPe();
                long last = first + seg.areaLength() - 1;
                long sector = Math.addExact(pv.get().peStart().count(), Math.multiplyExact(first, extent));
                areas.add(a.pv() + " PE " + first + "-" + last + " (sector " + sector + " of " + a.pv() + ")");
            }
            where.add((seg.stripes() > 1 ? seg.stripes() + " stripes of "
                    + size(seg.stripeSize().count()) + ": " : "")
                    + String.join(", ", areas));
        }
        if (!where.isEmpty()) {
            b.append(" on ").append(String.join("; ", where));
        }
        return b.toString();
    }

    /** A size as LVM prints it, without the blank and without ".00": {@code 448KiB}, {@code 1.50GiB}. */
    private static String size(long sectors) {
        return DisplaySize.sectors(sectors).replace(" ", "").replace(".00", "");
    }

    private static String vgOf(LayoutStep s) {
        if (s instanceof LayoutStep.LvCreate c) {
            return c.vg();
        }
        if (s instanceof LayoutStep.LvExtend c) {
            return c.vg();
        }
        if (s instanceof LayoutStep.ThinPoolCreate c) {
            return c.vg();
        }
        if (s instanceof LayoutStep.ThinPoolConvert c) {
            return c.vg();
        }
        if (s instanceof LayoutStep.ThinLvCreate c) {
            return c.vg();
        }
        if (s instanceof LayoutStep.ThinSnapshotCreate c) {
            return c.vg();
        }
        if (s instanceof LayoutStep.CowSnapshotCreate c) {
            return c.vg();
        }
        if (s instanceof LayoutStep.RaidLvCreate c) {
            return c.vg();
        }
        return null;
    }

    /** The host's VGs for percentages and relative sizes. */
    private record Sizes(Layout layout) implements LvmCommandParser.HostSizes {

        private VolumeGroup vg(String name) {
            return layout.volumeGroup(name).orElseThrow(() -> new PlanOpFailure("Volume group \"" + name
                    + "\" not found"));
        }

        @Override
        public long extentSize(String vg) {
            return vg(vg).extentSize().count();
        }

        // lib/misc/lvm-percent.c: percent_of_extents (rounded down), tools/lvcreate.c: _update_extents_params
        @Override
        public long percentExtents(String vgName, long percent, String base, List<String> pvs, String origin) {
            VolumeGroup vg = vg(vgName);
            long count;
            switch (base) {
                case "VG" -> count = vg.extentCount();
                case "FREE" -> count = vg.freeCount();
                case "PVS" -> {
                    count = 0;
                    for (PhysicalVolume pv : vg.physicalVolumes()) {
                        if (pvs.isEmpty() || pvs.stream().anyMatch(r -> layout.find(r.replaceFirst(":.*", ""))
                                .map(d -> d.name().equals(pv.device())).orElse(false))) {
                            count = Math.addExact(count, freeOn(vg, pv));
                        }
                    }
                }
                case "ORIGIN" -> count = lvExtents(vgName, origin);
                default -> throw new IllegalArgumentException("percent base " + base);
            }
            long extents = Math.multiplyExact(count, percent) / 100;
            if (base.equals("VG") && extents > vg.freeCount()) {
                extents = vg.freeCount(); // "Reducing N%VG to remaining free space"
            }
            if (extents == 0) {
                throw new PlanOpFailure("Calculated size of logical volume is 0 extents. Needs to be larger.");
            }
            return extents;
        }

        private static long freeOn(VolumeGroup vg, PhysicalVolume pv) {
            long used = 0;
            for (LogicalVolume lv : vg.logicalVolumes()) {
                for (LvSegment seg : lv.segments()) {
                    for (StripeArea a : seg.areas()) {
                        if (a.pv().equals(pv.device())) {
                            used = Math.addExact(used, seg.areaLength());
                        }
                    }
                }
            }
            return pv.peCount() - used;
        }

        @Override
        public long lvExtents(String vgName, String lv) {
            VolumeGroup vg = vg(vgName);
            return vg.logicalVolume(lv).orElseThrow(() -> new PlanOpFailure("Failed to find logical volume \""
                    + vgName + "/" + lv + "\"")).extentCount();
        }

        // lib/metadata/thin_manip.c: update_thin_pool_params (the metadata size a new pool gets)
        @Override
        public long poolMetadataExtents(String vgName, long dataExtents, long chunkSectors) {
            VolumeGroup vg = vg(vgName);
            return ThinPools.poolParams(vgName + "/pool", dataExtents, vg.extentSize().count(), chunkSectors, 0,
                    ThinPoolRequest.ChunkPolicy.GENERIC, false).metadataExtents();
        }
    }
}
