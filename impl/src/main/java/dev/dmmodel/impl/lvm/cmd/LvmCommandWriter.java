package dev.dmmodel.impl.lvm.cmd;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.lvm.PvCreate;
import dev.dmmodel.impl.lvm.PvTopology;
import dev.dmmodel.io.LvmScript;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.ExtentRange;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvFlag;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.ThinDiscards;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes the LVM commands that recreate a layout's physical volumes, volume groups and logical volumes on a
 * blank host with the same extent placement: {@code pvcreate} with the options that give each PV its
 * {@code pe_start} under LVM 2.03's rules, {@code vgcreate -s}, then per LV {@code lvcreate} of its first
 * segment and {@code lvextend} of each further one, both with explicit {@code PV:first-last} ranges; a thin
 * pool as two such LVs joined by {@code lvconvert --type thin-pool}; thin volumes and thin snapshots in
 * device id order. What the commands cannot express is a {@code # not expressible: ...} line and a warning,
 * never a silently different script. {@link LvmCommandParser} reads the output back.
 */
public final class LvmCommandWriter {

    private static final Pattern LVOL = Pattern.compile("lvol([+-]?\\d{1,9})");

    /** lib/metadata/pool_manip.c: the pool metadata spare never exceeds 16 GiB (in sectors). */
    private static final long MAX_SPARE_SECTORS = 33_554_432;

    private LvmCommandWriter() {
    }

    /**
     * The script and what it could not express.
     *
     * @param script the shell script ({@code set -e}, one command a line)
     * @param warnings one line per thing the script does not reproduce (also in the script as
     *     {@code # not expressible: ...} lines); empty when the script reproduces the layout's LVM exactly
     */
    public record Result(String script, List<String> warnings) {
        /** Rejects nulls. */
        public Result {
            Objects.requireNonNull(script, "script");
            warnings = List.copyOf(warnings);
        }
    }

    /**
     * The commands for every PV and VG of {@code layout}, VGs in layout order, orphan PVs last.
     *
     * @param layout the layout (built or imported from a host snapshot)
     * @return the script and its warnings
     */
    public static Result write(Layout layout) {
        Objects.requireNonNull(layout, "layout");
        return new Writer(layout).write();
    }

    private static final class Writer {
        private final Layout layout;
        private final StringBuilder body = new StringBuilder();
        private final List<String> warnings = new ArrayList<>();
        private final Set<String> devicesDestroyed = new LinkedHashSet<>();
        /** LV names in the VG being written, as the commands so far leave them (for the spare's lvolN). */
        private final List<String> lvNames = new ArrayList<>();

        Writer(Layout layout) {
            this.layout = layout;
        }

        Result write() {
            Set<String> lvmDmNames = new HashSet<>();
            for (VolumeGroup vg : layout.volumeGroups()) {
                body.append("\n# volume group ").append(vg.name()).append('\n');
                volumeGroup(vg);
                for (LogicalVolume lv : vg.logicalVolumes()) {
                    lvmDmNames.add(lv.dmName());
                    lvmDmNames.add(LogicalVolume.dmName(vg.name(), lv.name(), "tpool"));
                    // a classic snapshot's layers: the origin's -real and the COW store's -cow
                    lvmDmNames.add(LogicalVolume.dmName(vg.name(), lv.name(), "real"));
                    lvmDmNames.add(LogicalVolume.dmName(vg.name(), lv.name(), "cow"));
                }
            }
            List<PhysicalVolume> orphans = layout.physicalVolumes().stream().filter(PhysicalVolume::isOrphan).toList();
            if (!orphans.isEmpty()) {
                body.append("\n# physical volumes in no volume group\n");
                for (PhysicalVolume pv : orphans) {
                    pvcreate(pv);
                }
            }
            for (DmDevice dm : layout.dmDevices()) {
                if (!lvmDmNames.contains(dm.dmName())) {
                    notExpressible("dm device " + dm.dmName() + " (" + dm.name() + ") is not an LVM logical volume;"
                            + " recreate it with dmsetup create");
                }
            }
            StringBuilder head = new StringBuilder();
            head.append("#!/bin/sh\n");
            head.append("# Recreates this layout's LVM physical volumes, volume groups and logical volumes on a\n");
            head.append("# blank host with the same extent placement (written by dmmodel export --to lvm-commands).\n");
            head.append("# WARNING: it DESTROYS ALL DATA on ")
                    .append(devicesDestroyed.isEmpty() ? "no device" : String.join(" ", devicesDestroyed))
                    .append(".\n");
            head.append("# pvcreate still asks before it overwrites an existing signature; lvcreate/lvconvert\n");
            head.append("# wipe the new LVs without asking (--yes).\n");
            if (!warnings.isEmpty()) {
                head.append("# ").append(warnings.size()).append(" thing(s) are not expressible: see the '")
                        .append(LvmScript.NOT_EXPRESSIBLE.strip()).append("' lines.\n");
            }
            head.append("set -e\n");
            return new Result(head.append(body).toString(), warnings);
        }

        private void notExpressible(String what) {
            warnings.add(what);
            body.append(LvmScript.NOT_EXPRESSIBLE).append(what).append('\n');
        }

        private String path(String device) {
            return layout.find(device).map(BlockDevice::path).orElse("/dev/" + device);
        }

        private void volumeGroup(VolumeGroup vg) {
            for (PhysicalVolume pv : vg.physicalVolumes()) {
                pvcreate(pv);
            }
            StringBuilder c = new StringBuilder("vgcreate -s ").append(size(vg.extentSize().count()));
            if (vg.allocationPolicy() != AllocationPolicy.NORMAL) {
                c.append(" --alloc ").append(vg.allocationPolicy().name().toLowerCase(Locale.ROOT));
            }
            c.append(' ').append(vg.name());
            for (PhysicalVolume pv : vg.physicalVolumes()) {
                c.append(' ').append(path(pv.device()));
            }
            line(c.toString());
            lvNames.clear();
            List<LogicalVolume> thins = new ArrayList<>();
            List<String> pools = new ArrayList<>();
            long spare = 0;
            Optional<LogicalVolume> spareLv = vg.logicalVolumes().stream()
                    .filter(l -> l.role() == LvRole.POOL_METADATA_SPARE).findFirst();
            for (LogicalVolume lv : vg.logicalVolumes()) {
                switch (lv.role()) {
                    case PUBLIC -> striped(vg, lv.name(), lv);
                    case THIN_POOL -> {
                        spare = thinPool(vg, lv, spareLv, spare);
                        pools.add(lv.name());
                    }
                    case THIN_VOLUME -> thins.add(lv);
                    case SNAPSHOT -> cowSnapshot(vg, lv);
                    case RAID -> raid(vg, lv);
                    case CACHED, WRITECACHED, CACHE_POOL -> notExpressible(vg.name() + "/" + lv.name()
                            + " is a " + lv.segments().get(0).type().typeName() + " LV, which these commands do not"
                            + " make yet");
                    default -> {
                        // sub-LVs and the spare come with their pool
                    }
                }
            }
            if (spareLv.isPresent() && spare != spareLv.get().extentCount()) {
                notExpressible("pool metadata spare " + vg.name() + "/" + spareLv.get().name() + " has "
                        + spareLv.get().extentCount() + " extents; lvconvert makes it " + spare
                        + " (the largest pool metadata LV's size)");
            }
            thins.sort(Comparator.comparing((LogicalVolume l) -> pools.indexOf(l.thin().orElseThrow().pool()))
                    .thenComparingLong(l -> l.thin().orElseThrow().deviceId()));
            thinVolumes(vg, thins);
        }

        // lib/metadata/metadata.c: pv_create — the simplest options whose pe_start and mda1 are the PV's
        private void pvcreate(PhysicalVolume pv) {
            devicesDestroyed.add(path(pv.device()));
            long pe = pv.peStart().count();
            Optional<BlockDevice> device = layout.find(pv.device());
            String options = null;
            if (device.isPresent()) {
                Limits l = Limits.of(device.get().limits());
                PvTopology topo = PvTopology.of(device.get().limits(), layout.profile().pageSize());
                long offset = l.misaligned ? 0 : l.alignmentOffset / Sectors.SECTOR_SIZE;
                options = choose(pv, device.get().size(), topo, offset, true);
                if (options == null) {
                    options = choose(pv, device.get().size(), topo, offset, false);
                    if (options != null) {
                        notExpressible("PV " + pv.device() + ": no pvcreate options found that give both pe_start "
                                + pe + " and metadata area size " + pv.mdaSize().count() + "s; pe_start only");
                    }
                }
            }
            if (options == null) {
                notExpressible("PV " + pv.device() + ": no pvcreate options found that give pe_start " + pe
                        + " on this device; --dataalignment " + pe + "s is a guess");
                options = "--dataalignment " + pe + "s ";
            }
            line("pvcreate " + options + path(pv.device()));
        }

        private String choose(PhysicalVolume pv, Sectors devSize, PvTopology topo, long offset, boolean mdaToo) {
            long pe = pv.peStart().count();
            List<Long> aligns = new ArrayList<>(List.of(pe));
            if (offset > 0 && offset < pe) {
                aligns.add(pe - offset);
            }
            List<Integer> copies = pv.mda1Size().count() != 0 ? List.of(2) : List.of(1, 0);
            for (int copy : copies) {
                String copyOpt = copy == 1 ? "" : "--pvmetadatacopies " + copy + " ";
                PvCreateOptions base = PvCreateOptions.DEFAULTS.withMetadataCopies(copy);
                List<String> names = new ArrayList<>();
                List<PvCreateOptions> candidates = new ArrayList<>();
                names.add(copyOpt);
                candidates.add(base);
                List<Long> metadata = new ArrayList<>();
                if (pv.mda1Size().count() != 0) {
                    metadata.add(pv.mda1Size().count());
                }
                if (pv.mdaSize().count() != 0) {
                    metadata.add(pv.mdaSize().count());
                }
                for (long a : aligns) {
                    names.add(copyOpt + "--dataalignment " + a + "s ");
                    candidates.add(base.withDataAlignment(Sectors.of(a)));
                    List<Long> sizes = new ArrayList<>(metadata);
                    sizes.add(a - 8);
                    for (long m : sizes) {
                        if (m > 0) {
                            names.add(copyOpt + "--dataalignment " + a + "s --metadatasize " + m + "s ");
                            candidates.add(base.withDataAlignment(Sectors.of(a)).withMetadataSize(Sectors.of(m)));
                        }
                    }
                }
                for (int i = 0; i < candidates.size(); i++) {
                    if (gives(pv, devSize, topo, candidates.get(i), mdaToo)) {
                        return names.get(i);
                    }
                }
            }
            return null;
        }

        private static boolean gives(PhysicalVolume pv, Sectors devSize, PvTopology topo, PvCreateOptions o,
                                     boolean mdaToo) {
            try {
                PhysicalVolume made = PvCreate.pvcreate(pv.device(), devSize, topo, o);
                return made.peStart().equals(pv.peStart()) && made.mda1Size().equals(pv.mda1Size())
                        && (!mdaToo || pv.mdaSize().count() == 0 || made.mdaSize().equals(pv.mdaSize()));
            } catch (LayoutException refused) {
                return false;
            }
        }

        /*
         * lvcreate of the first segment, lvextend of each further one, every area as an exact PV:first-last
         * range so that the allocator has no choice (lib/metadata/pv_list.c: create_pv_list).
         */
        private void striped(VolumeGroup vg, String name, LogicalVolume lv) {
            lvNames.add(name);
            boolean first = true;
            for (LvSegment s : lv.segments()) {
                if (!s.isStriped()) {
                    notExpressible("LV " + vg.name() + "/" + lv.name() + ": a " + s.type().typeName()
                            + " segment in an LV of role " + lv.role());
                    return;
                }
                StringBuilder c = new StringBuilder();
                if (first) {
                    c.append("lvcreate --yes -l ").append(s.extentCount()).append(" -n ").append(name);
                } else {
                    c.append("lvextend -l +").append(s.extentCount());
                }
                if (s.stripes() > 1) {
                    c.append(" -i ").append(s.stripes()).append(" -I ").append(size(s.stripeSize().count()));
                } else if (!first) {
                    c.append(" -i 1");
                }
                if (!first && (vg.allocationPolicy() == AllocationPolicy.CONTIGUOUS
                        || vg.allocationPolicy() == AllocationPolicy.CLING)) {
                    c.append(" --alloc normal");
                }
                c.append(' ').append(first ? vg.name() : vg.name() + "/" + name);
                for (StripeArea a : s.areas()) {
                    c.append(' ').append(path(a.pv())).append(':').append(a.startPe()).append('-')
                            .append(a.startPe() + s.areaLength() - 1);
                }
                line(c.toString());
                first = false;
            }
        }

        // tools/lvcreate.c: lvcreate --type raid* on the images' PVs in image order; LVM's allocator puts each
        // rmeta directly before its image (lib/metadata/lv_manip.c: alloc_and_split_meta), so only that layout is
        // what the command gives
        private void raid(VolumeGroup vg, LogicalVolume lv) {
            SegmentType.Raid r = (SegmentType.Raid) lv.segments().get(0).type();
            List<String> pvs = new ArrayList<>();
            for (int i = 0; i < r.deviceCount(); i++) {
                Optional<LogicalVolume> image = vg.logicalVolume(r.imageLvs().get(i));
                Optional<LogicalVolume> meta = vg.logicalVolume(r.metadataLvs().get(i));
                if (image.isEmpty() || meta.isEmpty() || image.get().segments().size() != 1
                        || meta.get().segments().size() != 1 || image.get().segments().get(0).stripes() != 1
                        || meta.get().segments().get(0).stripes() != 1) {
                    notExpressible("RAID LV " + vg.name() + "/" + lv.name() + ": an image or metadata LV of more than "
                            + "one linear segment");
                    return;
                }
                StripeArea ia = image.get().segments().get(0).areas().get(0);
                StripeArea ma = meta.get().segments().get(0).areas().get(0);
                if (!ia.pv().equals(ma.pv()) || ma.startPe() + meta.get().extentCount() != ia.startPe()) {
                    notExpressible("RAID LV " + vg.name() + "/" + lv.name() + ": " + r.metadataLvs().get(i)
                            + " does not lie directly before " + r.imageLvs().get(i) + " on one PV");
                }
                pvs.add(path(ia.pv()));
            }
            StringBuilder c = new StringBuilder("lvcreate --yes --type ").append(r.raidType());
            if (r.isRaid1()) {
                c.append(" -m ").append(r.deviceCount() - 1);
            } else {
                c.append(" -i ").append(r.dataStripes()).append(" -I ").append(size(r.stripeSize().count()));
            }
            c.append(" -R ").append(size(r.regionSize().count()));
            if (lv.hasFlag(dev.dmmodel.lvm.LvFlag.NOTSYNCED)) {
                c.append(" --nosync");
            }
            c.append(" -l ").append(lv.extentCount()).append(" -n ").append(lv.name()).append(' ').append(vg.name());
            for (String p : pvs) {
                c.append(' ').append(p);
            }
            lvNames.add(lv.name());
            line(c.toString());
        }

        // tools/lvcreate.c: lvcreate -s -L — the COW store's extents at its PE range, the chunk in sectors
        private void cowSnapshot(VolumeGroup vg, LogicalVolume snapshot) {
            SegmentType.Snapshot x = (SegmentType.Snapshot) snapshot.segments().get(0).type();
            Optional<LogicalVolume> cow = vg.logicalVolume(x.cowStore());
            if (cow.isEmpty() || cow.get().segments().size() != 1 || cow.get().segments().get(0).stripes() != 1) {
                notExpressible("snapshot " + vg.name() + "/" + x.cowStore() + ": a COW store of more than one linear"
                        + " segment");
                return;
            }
            LvSegment s = cow.get().segments().get(0);
            StripeArea a = s.areas().get(0);
            lvNames.add(x.cowStore());
            line("lvcreate --yes -s -L " + size(Math.multiplyExact(s.extentCount(), vg.extentSize().count())) + " -c "
                    + size(x.chunkSize().count()) + " -n " + x.cowStore() + " " + vg.name() + "/"
                    + x.origin() + " " + path(a.pv()) + ":" + a.startPe() + "-" + (a.startPe() + s.extentCount() - 1));
        }

        // tools/lvconvert.c: _lvconvert_to_pool — data LV (named as the pool) + metadata LV, then convert
        private long thinPool(VolumeGroup vg, LogicalVolume pool, Optional<LogicalVolume> spareLv, long spare) {
            SegmentType.ThinPool p = pool.thinPool().orElseThrow();
            Optional<LogicalVolume> data = vg.logicalVolume(p.dataLv());
            Optional<LogicalVolume> meta = vg.logicalVolume(p.metadataLv());
            if (data.isEmpty() || meta.isEmpty()) {
                notExpressible("thin pool " + vg.name() + "/" + pool.name() + " lacks its data or metadata LV");
                return spare;
            }
            String metaName = pool.name() + "meta";
            for (int i = 2; vg.logicalVolume(metaName).isPresent(); i++) {
                metaName = pool.name() + "meta" + i;
            }
            if (p.transactionId() != 0 && vg.logicalVolumes().stream().noneMatch(l -> l.thin().isPresent()
                    && l.thin().get().pool().equals(pool.name()))) {
                notExpressible("thin pool " + vg.name() + "/" + pool.name() + " has transaction_id "
                        + p.transactionId() + " but no thin volume: lvconvert makes it 0");
            }
            striped(vg, pool.name(), data.get());
            striped(vg, metaName, meta.get());
            StringBuilder c = new StringBuilder("lvconvert --yes --type thin-pool --poolmetadata ")
                    .append(vg.name()).append('/').append(metaName)
                    .append(" --chunksize ").append(size(p.chunkSize().count()))
                    .append(" --zero ").append(p.zeroNewBlocks() ? 'y' : 'n');
            if (p.discards() != ThinDiscards.PASSDOWN) {
                c.append(" --discards ").append(p.discards().word());
            }
            if (pool.hasFlag(LvFlag.ERROR_WHEN_FULL)) {
                c.append(" --errorwhenfull y");
            }
            long grown = spare;
            if (spareLv.isEmpty()) {
                c.append(" --poolmetadataspare n");
            } else {
                long max = (MAX_SPARE_SECTORS + vg.extentSize().count() - 1) / vg.extentSize().count();
                long wanted = Math.min(meta.get().extentCount(), max);
                if (wanted > spare) {
                    grown = Math.min(wanted, spareLv.get().extentCount());
                }
            }
            c.append(' ').append(vg.name()).append('/').append(pool.name());
            if (grown > spare) {
                List<ExtentRange> ranges = extentsOf(spareLv.orElseThrow(), spare, grown);
                for (ExtentRange r : ranges) {
                    c.append(' ').append(path(r.pv())).append(':').append(r.start()).append('-').append(r.end() - 1);
                }
                if (ranges.size() > 1) {
                    notExpressible("pool metadata spare " + vg.name() + "/" + spareLv.get().name() + ": lvconvert"
                            + " allocates its extents from " + ranges.size() + " ranges in an order of LVM's"
                            + " choosing, which need not be the recorded one");
                }
                if (spare == 0) {
                    String name = nextLvolName() + "_pmspare";
                    if (!name.equals(spareLv.get().name())) {
                        notExpressible("pool metadata spare " + vg.name() + "/" + spareLv.get().name()
                                + ": lvconvert names it " + name);
                    }
                    lvNames.add(name);
                }
            }
            // the data LV keeps its name as the pool's; the metadata LV becomes <pool>_tmeta
            lvNames.remove(metaName);
            lvNames.add(pool.name() + "_tmeta");
            lvNames.add(pool.name() + "_tdata");
            line(c.toString());
            return grown;
        }

        // lib/metadata/lv_manip.c: generate_lv_name — lvolN, N one more than the highest lvolN prefix in use
        private String nextLvolName() {
            long high = -1;
            for (String n : lvNames) {
                Matcher m = LVOL.matcher(n);
                if (m.lookingAt()) {
                    high = Math.max(high, Long.parseLong(m.group(1)));
                }
            }
            return "lvol" + (high + 1);
        }

        // the PV extents behind logical extents [from, to) of a linear LV
        private static List<ExtentRange> extentsOf(LogicalVolume lv, long from, long to) {
            List<ExtentRange> out = new ArrayList<>();
            for (LvSegment s : lv.segments()) {
                long start = Math.max(from, s.startExtent());
                long end = Math.min(to, s.endExtent());
                if (start < end && s.stripes() == 1) {
                    StripeArea a = s.areas().get(0);
                    out.add(new ExtentRange(a.pv(), a.startPe() + start - s.startExtent(), end - start));
                }
            }
            return out;
        }

        // tools/lvcreate.c: thin volumes (-V -T) and thin snapshots (-s), each pool's in device id order
        private void thinVolumes(VolumeGroup vg, List<LogicalVolume> thins) {
            Map<String, Long> created = new HashMap<>();
            for (LogicalVolume lv : thins) {
                SegmentType.Thin t = lv.thin().orElseThrow();
                long before = created.getOrDefault(t.pool(), 0L);
                long maxId = vg.logicalVolumes().stream().filter(l -> l.thin().isPresent()
                        && l.thin().get().pool().equals(t.pool()) && l.thin().get().deviceId() < t.deviceId())
                        .mapToLong(l -> l.thin().get().deviceId()).max().orElse(0);
                if (t.deviceId() != maxId + 1) {
                    notExpressible("thin LV " + vg.name() + "/" + lv.name() + " has device_id " + t.deviceId()
                            + "; lvcreate gives it " + (maxId + 1) + " (ids of removed thin LVs are not reused)");
                }
                if (t.transactionId() != before) {
                    notExpressible("thin LV " + vg.name() + "/" + lv.name() + " has transaction_id "
                            + t.transactionId() + "; created here it gets " + before);
                }
                created.put(t.pool(), before + 1);
                boolean skip = lv.hasFlag(LvFlag.ACTIVATION_SKIP);
                if (t.origin().isPresent()) {
                    if (!skip) {
                        notExpressible("thin snapshot " + vg.name() + "/" + lv.name() + " has no activation skip"
                                + " flag; lvcreate -s sets it (lvchange -kn after it would clear it)");
                    }
                    line("lvcreate --yes -s " + vg.name() + "/" + t.origin().get() + " -n " + lv.name());
                } else {
                    if (skip) {
                        notExpressible("thin LV " + vg.name() + "/" + lv.name() + " has the activation skip flag;"
                                + " lvcreate -V does not set it");
                    }
                    line("lvcreate --yes -V " + size(Math.multiplyExact(lv.extentCount(), vg.extentSize().count())) + " -T "
                            + vg.name() + "/" + t.pool() + " -n " + lv.name());
                }
            }
            for (LogicalVolume pool : vg.logicalVolumes()) {
                if (pool.thinPool().isPresent()) {
                    long made = created.getOrDefault(pool.name(), 0L);
                    long tid = pool.thinPool().get().transactionId();
                    if (made != tid && !(made == 0 && tid != 0)) {
                        notExpressible("thin pool " + vg.name() + "/" + pool.name() + " has transaction_id " + tid
                                + "; the commands give it " + made);
                    }
                }
            }
        }

        private void line(String command) {
            body.append(command).append('\n');
        }
    }

    /** A size in sectors in the largest unit that states it exactly: {@code 4m}, {@code 64k}, {@code 2753s}. */
    static String size(long sectors) {
        if (sectors != 0 && sectors % (2048L * 1024) == 0) {
            return sectors / (2048L * 1024) + "g";
        }
        if (sectors != 0 && sectors % 2048 == 0) {
            return sectors / 2048 + "m";
        }
        if (sectors % 2 == 0) {
            return sectors / 2 + "k";
        }
        return sectors + "s";
    }
}
