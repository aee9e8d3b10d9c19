package dev.dmmodel.impl.lvm.text;

import dev.dmmodel.impl.lvm.text.LvmConfigParser.ArrayValue;
import dev.dmmodel.impl.lvm.text.LvmConfigParser.IntValue;
import dev.dmmodel.impl.lvm.text.LvmConfigParser.Located;
import dev.dmmodel.impl.lvm.text.LvmConfigParser.Node;
import dev.dmmodel.impl.lvm.text.LvmConfigParser.Section;
import dev.dmmodel.impl.lvm.text.LvmConfigParser.Setting;
import dev.dmmodel.impl.lvm.text.LvmConfigParser.StringValue;
import dev.dmmodel.impl.lvm.text.LvmConfigParser.Value;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvFlag;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.LvmMetadataException;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.ThinDiscards;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Sectors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Reads LVM2 text metadata (a {@code vgcfgbackup} file, or the text of an on-disk metadata area) into a
 * {@link VolumeGroup}, as {@code lib/format_text/import_vsn1.c} does: the header, the VG section, its PVs
 * and its LVs with {@code striped} (and linear), {@code thin-pool}, {@code thin}, {@code snapshot} (classic
 * snapshots), {@code cache-pool} (with the {@code METADATA_FORMAT} flag), {@code cache}, {@code writecache} and
 * RAID ({@code raid1}, {@code raid4}, {@code raid5*}, {@code raid6*}, {@code raid10}) segments; a RAID LV's
 * {@code NOTSYNCED} status is kept as {@link LvFlag#NOTSYNCED}.
 *
 * <p>What the model has no place for is reported, not dropped: any other segment type ({@code raid0},
 * {@code mirror}, {@code vdo}, {@code integrity}...), other segment type flags, a cache on a {@code --cachevol},
 * a merging snapshot, settings a segment type's importer does not read, queued thin-pool
 * messages, external origins, areas on LVs and hidden LVs of no known role raise an
 * {@link LvmMetadataException}. What carries no modelled meaning is ignored: UUIDs, tags, creation
 * times, {@code seqno}, LV allocation policies and read-ahead, {@code historical_logical_volumes}.
 *
 * <p>PV devices are the {@code device} hints without {@code /dev/} ({@code "/dev/sda1"} gives
 * {@code sda1}); a PV without a hint, or with the hint of an earlier PV, is named by its key
 * ({@code pv1}). The metadata does not record metadata-area sizes: {@code mdaSize} and {@code mda1Size}
 * are zero. LVs are inactive (empty {@code dmDevice}), in file order.
 */
public final class VgMetadataReader {

    private static final String CONTENTS = "Text Format Volume Group";
    private static final Set<String> VG_STATUS = Set.of("EXPORTED", "RESIZEABLE", "PVMOVE", "READ", "WRITE",
            "CLUSTERED", "SHARED", "PARTIAL");
    private static final Set<String> PV_STATUS = Set.of("ALLOCATABLE", "EXPORTED", "MISSING");
    private static final Set<String> LV_STATUS = Set.of("READ", "WRITE", "FIXED_MINOR", "VISIBLE", "PVMOVE",
            "LOCKED", "NOTSYNCED", "REBUILD", "WRITEMOSTLY");

    private final String source;

    private VgMetadataReader(String source) {
        this.source = source;
    }

    /**
     * Reads a metadata file.
     *
     * @throws LvmMetadataException with the file name on any problem in the text
     * @throws IOException if the file cannot be read
     */
    public static VolumeGroup read(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        String text = Files.readString(file, StandardCharsets.UTF_8);
        Path name = file.getFileName();
        return read(text, name == null ? file.toString() : name.toString());
    }

    /**
     * Reads metadata text.
     *
     * @param text the whole text
     * @param source the file name for messages, or {@code <input>}
     * @throws LvmMetadataException on any problem
     */
    public static VolumeGroup read(String text, String source) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        return new VgMetadataReader(source).volumeGroup(LvmConfigParser.parse(text, source));
    }

    /** Reads already parsed metadata. */
    public static VolumeGroup read(Section root, String source) {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(source, "source");
        return new VgMetadataReader(source).volumeGroup(root);
    }

    private LvmMetadataException error(Located at, String message) {
        return new LvmMetadataException(source, at.line(), at.column(), message);
    }

    private LvmMetadataException wrap(Located at, IllegalArgumentException e) {
        if (e instanceof LvmMetadataException m) {
            return m;
        }
        LvmMetadataException m = error(at, String.valueOf(e.getMessage()));
        m.initCause(e);
        return m;
    }

    // ---- typed lookups -------------------------------------------------------------------------------

    private Optional<Setting> setting(Section s, String key) {
        Optional<Node> n = s.child(key);
        if (n.isEmpty()) {
            return Optional.empty();
        }
        if (n.get() instanceof Setting st) {
            return Optional.of(st);
        }
        throw error(n.get(), "expected \"" + key + "\" to be a setting (" + key + " = ...), found a section");
    }

    private Setting requireSetting(Section s, String key, String what) {
        return setting(s, key).orElseThrow(() -> error(s, "Couldn't read '" + key + "' for " + what));
    }

    private long integer(Setting st) {
        if (st.value() instanceof IntValue i) {
            return i.value();
        }
        throw error(st.value(), "expected an integer for \"" + st.key() + "\", found " + st.value().describe());
    }

    private long nonNegative(Setting st) {
        long v = integer(st);
        if (v < 0) {
            throw error(st.value(), "expected a non-negative integer for \"" + st.key() + "\", found \"" + v + "\"");
        }
        return v;
    }

    private String string(Setting st) {
        if (st.value() instanceof StringValue s) {
            return s.value();
        }
        throw error(st.value(), "expected a string for \"" + st.key() + "\", found " + st.value().describe());
    }

    private List<StringValue> words(Setting st) {
        if (!(st.value() instanceof ArrayValue a)) {
            throw error(st.value(), "expected an array of strings for \"" + st.key() + "\", found "
                    + st.value().describe());
        }
        List<StringValue> out = new ArrayList<>();
        for (Value v : a.items()) {
            if (!(v instanceof StringValue s)) {
                throw error(v, "expected a string in \"" + st.key() + "\", found " + v.describe());
            }
            out.add(s);
        }
        return out;
    }

    private Section section(Section s, String key, String what) {
        Node n = s.child(key).orElseThrow(() -> error(s, "Couldn't find " + key + " section for " + what));
        if (n instanceof Section sec) {
            return sec;
        }
        throw error(n, "expected \"" + key + "\" to be a section (" + key + " { ... }), found a setting");
    }

    private List<Section> subsections(Section s, String what) {
        for (Node n : s.children()) {
            if (!(n instanceof Section)) {
                throw error(n, "expected a section for each " + what + " in \"" + s.key() + "\", found setting \""
                        + n.key() + "\"");
            }
        }
        return s.sections();
    }

    // ---- the VG ---------------------------------------------------------------------------------------

    // lib/format_text/import_vsn1.c: _vsn1_check_version and _read_vg (the first section is the VG)
    private VolumeGroup volumeGroup(Section root) {
        // lib/format_text/import_vsn1.c: _vsn1_check_version (contents)
        Setting contents = setting(root, "contents").orElseThrow(() -> error(root,
                "Can't process text format file - missing contents field."));
        if (!CONTENTS.equals(string(contents))) {
            throw error(contents.value(), "Can't process text format file - expected contents \"" + CONTENTS
                    + "\", found " + contents.value().describe());
        }
        // lib/format_text/import_vsn1.c: _vsn1_check_version (version)
        Setting version = setting(root, "version").orElseThrow(() -> error(root,
                "Can't process text format file - missing version field."));
        if (integer(version) != 1) {
            throw error(version.value(), "Can't process text format file - unrecognised version number "
                    + integer(version) + " (expected 1)");
        }
        Section vg = root.sections().stream()
                .filter(s -> s.child("id").isPresent() || s.child("seqno").isPresent()
                        || s.child("physical_volumes").isPresent())
                .findFirst()
                .orElseThrow(() -> error(root, "expected a volume group section (with id, seqno and "
                        + "physical_volumes), found none"));
        String vgName = vg.key();
        String what = "volume group " + vgName;
        // lib/format_text/import_vsn1.c: _read_vg (required keys)
        string(requireSetting(vg, "id", what));
        nonNegative(requireSetting(vg, "seqno", what));
        // lib/format_text/import_vsn1.c: _read_vg ("format" names a known metadata format)
        Optional<Setting> format = setting(vg, "format");
        if (format.isPresent() && !"lvm2".equals(string(format.get()))) {
            throw error(format.get().value(), "Unrecognised format " + format.get().value().describe()
                    + " for " + what + " (expected \"lvm2\")");
        }
        // lib/format_text/flags.c: read_flags (VG status words)
        for (StringValue w : words(requireSetting(vg, "status", what))) {
            if (!VG_STATUS.contains(w.value())) {
                throw error(w, "Unknown status flag '" + w.value() + "'.");
            }
        }
        Optional<Setting> vgFlags = setting(vg, "flags");
        if (vgFlags.isPresent()) {
            words(vgFlags.get());
        }
        Setting extentSetting = requireSetting(vg, "extent_size", what);
        long extentSize = integer(extentSetting);
        // lib/format_text/import_vsn1.c: _read_vg (extent_size) and lib/metadata/vg.c: vg_check_new_extent_size
        if (extentSize <= 0) {
            throw error(extentSetting.value(), "extent_size must be positive, found \"" + extentSize + "\"");
        }
        nonNegative(requireSetting(vg, "max_lv", what));
        nonNegative(requireSetting(vg, "max_pv", what));
        AllocationPolicy policy = AllocationPolicy.NORMAL;
        Optional<Setting> alloc = setting(vg, "allocation_policy");
        if (alloc.isPresent()) {
            policy = allocationPolicy(alloc.get(), what);
        }
        Sectors extent = Sectors.of(extentSize);

        Map<String, PhysicalVolume> pvsByKey = new LinkedHashMap<>();
        Map<String, String> devices = new HashMap<>();
        for (Section pv : subsections(section(vg, "physical_volumes", what), "physical volume")) {
            PhysicalVolume p = physicalVolume(pv, vgName, extent, devices);
            pvsByKey.put(pv.key(), p);
        }

        List<LogicalVolume> lvs = List.of();
        Optional<Node> lvNode = vg.child("logical_volumes");
        if (lvNode.isPresent()) {
            lvs = new LvReader(vgName, pvsByKey).read(subsections(section(vg, "logical_volumes", what),
                    "logical volume"));
        }
        try {
            return new VolumeGroup(vgName, extent, List.copyOf(pvsByKey.values()), lvs, policy);
        } catch (IllegalArgumentException e) {
            throw wrap(vg, e);
        }
    }

    // lib/format_text/import_vsn1.c: _read_vg (allocation_policy) and lib/display/display.c: get_alloc_from_string
    private AllocationPolicy allocationPolicy(Setting st, String what) {
        String word = string(st);
        return switch (word) {
            case "contiguous" -> AllocationPolicy.CONTIGUOUS;
            case "cling" -> AllocationPolicy.CLING;
            case "normal" -> AllocationPolicy.NORMAL;
            case "anywhere" -> AllocationPolicy.ANYWHERE;
            case "cling_by_tags" -> throw error(st.value(), "allocation policy \"cling_by_tags\" of " + what
                    + " is not modelled");
            case "inherit" -> throw error(st.value(), "Volume Group allocation policy cannot inherit from anything");
            default -> throw error(st.value(), "Unrecognised allocation policy " + st.value().describe()
                    + " (expected contiguous, cling, normal or anywhere)");
        };
    }

    // lib/format_text/import_vsn1.c: _read_pv
    private PhysicalVolume physicalVolume(Section pv, String vgName, Sectors extent, Map<String, String> devices) {
        String what = "physical volume " + pv.key();
        string(requireSetting(pv, "id", what));
        // lib/format_text/flags.c: read_flags (PV status words)
        for (StringValue w : words(requireSetting(pv, "status", what))) {
            if (!PV_STATUS.contains(w.value())) {
                throw error(w, "Unknown status flag '" + w.value() + "'.");
            }
        }
        Setting peStartSetting = requireSetting(pv, "pe_start", what);
        long peStart = nonNegative(peStartSetting);
        Setting peCountSetting = requireSetting(pv, "pe_count", what);
        long peCount = nonNegative(peCountSetting);
        Optional<Setting> devSizeSetting = setting(pv, "dev_size");
        long devSize = devSizeSetting.isPresent() ? nonNegative(devSizeSetting.get()) : 0;
        String device = pv.key();
        Optional<Setting> hint = setting(pv, "device");
        if (hint.isPresent()) {
            String d = string(hint.get());
            d = d.startsWith("/dev/") ? d.substring("/dev/".length()) : d;
            if (!d.isEmpty() && !devices.containsKey(d)) {
                device = d;
            }
        }
        if (devices.containsKey(device)) {
            throw error(pv, "PV " + pv.key() + " is named " + device + ", like PV " + devices.get(device));
        }
        devices.put(device, pv.key());
        // model invariant (the data area lies on the device), not an LVM import check
        if (devSize > 0) {
            long end;
            try {
                end = Math.addExact(peStart, Math.multiplyExact(peCount, extent.count()));
            } catch (ArithmeticException e) {
                throw error(peCountSetting.value(), "pe_count " + peCount + " of " + what + " overflows");
            }
            if (end > devSize) {
                throw error(peCountSetting.value(), "the " + peCount + " extents of " + what + " end at sector "
                        + end + ", beyond dev_size " + devSize);
            }
        }
        try {
            return new PhysicalVolume(device, Sectors.of(devSize), Sectors.of(peStart), Sectors.ZERO, Sectors.ZERO,
                    vgName, peCount, extent);
        } catch (IllegalArgumentException e) {
            throw wrap(pv, e);
        }
    }

    /** The LVs of one VG: read in two passes, since roles follow from references between LVs. */
    private final class LvReader {
        private final String vgName;
        private final Map<String, PhysicalVolume> pvs;
        private final Map<String, Section> sections = new LinkedHashMap<>();

        LvReader(String vgName, Map<String, PhysicalVolume> pvs) {
            this.vgName = vgName;
            this.pvs = pvs;
        }

        private record Raw(Section section, boolean visible, Set<LvFlag> flags, List<LvSegment> segments,
                           Located statusAt) {
        }

        List<LogicalVolume> read(List<Section> lvSections) {
            for (Section s : lvSections) {
                sections.put(s.key(), s);
            }
            Map<String, Raw> raws = new LinkedHashMap<>();
            Map<String, Located> dataOf = new HashMap<>();
            Map<String, Located> metadataOf = new HashMap<>();
            for (Section s : lvSections) {
                Raw raw = lv(s);
                raws.put(s.key(), raw);
                for (LvSegment seg : raw.segments()) {
                    if (seg.thinPool().isPresent()) {
                        reference(dataOf, seg.thinPool().get().dataLv(), s, "pool");
                        reference(metadataOf, seg.thinPool().get().metadataLv(), s, "metadata");
                    }
                    SegmentType t = seg.type();
                    if (t instanceof SegmentType.Snapshot x) {
                        subRole(x.cowStore(), LvRole.SNAPSHOT_COW, s, "cow_store");
                    } else if (t instanceof SegmentType.CachePool x) {
                        subRole(x.dataLv(), LvRole.CACHE_POOL_DATA, s, "cache data");
                        subRole(x.metadataLv(), LvRole.CACHE_POOL_METADATA, s, "cache metadata");
                    } else if (t instanceof SegmentType.Cache x) {
                        subRole(x.cachePool(), LvRole.CACHE_POOL_IN_USE, s, "cache_pool");
                        subRole(x.origin(), LvRole.CACHE_ORIGIN, s, "cache origin");
                    } else if (t instanceof SegmentType.Writecache x) {
                        subRole(x.writecache(), LvRole.CACHE_VOLUME, s, "writecache");
                        subRole(x.origin(), LvRole.WRITECACHE_ORIGIN, s, "writecache origin");
                    } else if (t instanceof SegmentType.Raid x) {
                        // lib/raid/raid.c: _raid_text_import_areas (set_lv_segment_area_lv: RAID_META, RAID_IMAGE)
                        for (int i = 0; i < x.deviceCount(); i++) {
                            subRole(x.metadataLvs().get(i), LvRole.RAID_METADATA, s, "raid metadata " + i);
                            subRole(x.imageLvs().get(i), LvRole.RAID_IMAGE, s, "raid image " + i);
                        }
                    }
                }
            }
            // lib/metadata/lv.c: lv_layout_and_role — what the referenced LVs must be
            for (Map.Entry<String, SubRole> e : subRoles.entrySet()) {
                Raw target = raws.get(e.getKey());
                LvSegment first = target.segments().get(0);
                boolean fits = switch (e.getValue().role()) {
                    case CACHE_POOL_IN_USE -> first.type() instanceof SegmentType.CachePool;
                    default -> first.isStriped();
                };
                if (!fits || (e.getValue().role() != LvRole.CACHE_POOL_IN_USE && (dataOf.containsKey(e.getKey())
                        || metadataOf.containsKey(e.getKey())))) {
                    throw error(e.getValue().at(), "LV " + vgName + "/" + e.getKey() + ", the " + e.getValue().key()
                            + " of LV " + vgName + "/" + e.getValue().at().key() + ", is a " + first.type().typeName()
                            + (fits ? " LV of a thin pool" : " LV") + ", not a "
                            + (e.getValue().role() == LvRole.CACHE_POOL_IN_USE ? "cache pool" : "linear or striped LV"));
                }
            }
            List<LogicalVolume> out = new ArrayList<>();
            Located spare = null;
            for (Raw raw : raws.values()) {
                Section s = raw.section();
                String name = s.key();
                String lv = vgName + "/" + name;
                LvRole role;
                // lib/metadata/lv.c: lv_layout_and_role (roles from segment types, references, _pmspare)
                if (subRoles.containsKey(name)) {
                    role = subRoles.get(name).role();
                } else if (dataOf.containsKey(name) && metadataOf.containsKey(name)) {
                    throw error(s, "LV " + lv + " is both a thin pool's data and metadata LV");
                } else if (dataOf.containsKey(name)) {
                    role = LvRole.THIN_POOL_DATA;
                } else if (metadataOf.containsKey(name)) {
                    role = LvRole.THIN_POOL_METADATA;
                } else if (raw.segments().get(0).thinPool().isPresent()) {
                    role = LvRole.THIN_POOL;
                } else if (raw.segments().get(0).thin().isPresent()) {
                    role = LvRole.THIN_VOLUME;
                } else if (!raw.segments().get(0).isStriped()) {
                    // snapshot, an unattached cache pool, cache, writecache: the role of the segment type
                    SegmentType t = raw.segments().get(0).type();
                    role = t instanceof SegmentType.Snapshot ? LvRole.SNAPSHOT
                            : t instanceof SegmentType.CachePool ? LvRole.CACHE_POOL
                            : t instanceof SegmentType.Cache ? LvRole.CACHED
                            : t instanceof SegmentType.Raid ? LvRole.RAID : LvRole.WRITECACHED;
                } else if (!raw.visible() && name.endsWith("_pmspare")) {
                    role = LvRole.POOL_METADATA_SPARE;
                    // lib/metadata/merge.c: check_lv_segments_complete_vg (at most one pool metadata spare)
                    if (spare != null) {
                        throw error(s, "LV " + lv + " is a second pool metadata spare (the first is at line "
                                + spare.line() + ")");
                    }
                    spare = s;
                } else if (raw.visible()) {
                    role = LvRole.PUBLIC;
                } else {
                    throw error(s, "hidden LV " + lv + " has no role this model knows (not a thin pool's data "
                            + "or metadata LV, not a *_pmspare)");
                }
                // lib/metadata/merge.c: check_lv_segments (visibility agrees with the role)
                if (role.visible() != raw.visible()) {
                    throw error(raw.statusAt(), "LV " + lv + " of role " + role + " must "
                            + (role.visible() ? "" : "not ") + "have the VISIBLE status");
                }
                // lib/metadata/merge.c: check_lv_segments (a pool's data LV is as long as the pool)
                if (raw.segments().get(0).thinPool().isPresent()) {
                    Raw data = raws.get(raw.segments().get(0).thinPool().get().dataLv());
                    long dataLen = data.segments().get(data.segments().size() - 1).endExtent();
                    long poolLen = raw.segments().get(0).extentCount();
                    if (dataLen != poolLen) {
                        throw error(s, "LV " + lv + ": segment 1 with len=" + poolLen + " has inconsistent area_len "
                                + dataLen + " (data LV " + data.section().key() + ")");
                    }
                }
                if (raw.segments().get(0).type() instanceof SegmentType.Raid x) {
                    // lib/metadata/merge.c: check_lv_segments (each image as long as the segment's area_len)
                    long areaLen = x.imageExtents(raw.segments().get(0).extentCount());
                    for (String image : x.imageLvs()) {
                        Raw r = raws.get(image);
                        long len = r.segments().get(r.segments().size() - 1).endExtent();
                        if (len != areaLen) {
                            throw error(s, "LV " + lv + ": segment 1 with len=" + raw.segments().get(0).extentCount()
                                    + " has inconsistent area_len " + areaLen + " (" + x.raidType() + " image "
                                    + image + " has " + len + " extents)");
                        }
                    }
                }
                // lib/format_text/flags.c: NOTSYNCED is a mirror's or RAID LV's status; mirrors are not modelled
                if (raw.flags().contains(LvFlag.NOTSYNCED) && role != LvRole.RAID) {
                    throw error(raw.statusAt(), "status NOTSYNCED of LV " + lv + " (role " + role + ") is not modelled "
                            + "(only a RAID LV's)");
                }
                if (raw.segments().get(0).thin().isPresent()) {
                    String pool = raw.segments().get(0).thin().get().pool();
                    if (raws.get(pool).segments().get(0).thinPool().isEmpty()) {
                        throw error(s, "LV " + lv + ": thin_pool \"" + pool + "\" is not a thin pool");
                    }
                }
                try {
                    out.add(new LogicalVolume(vgName, name, raw.segments(), "", role, raw.flags()));
                } catch (IllegalArgumentException e) {
                    throw wrap(s, e);
                }
            }
            return out;
        }

        /** An LV another LV's segment names, with the role that gives it. */
        private record SubRole(LvRole role, Section at, String key) {
        }

        private final Map<String, SubRole> subRoles = new LinkedHashMap<>();

        // lib/metadata/lv_manip.c: an LV is a sub-LV of one LV only (attach_pool_lv, set_lv_segment_area_lv)
        private void subRole(String lvName, LvRole role, Section user, String key) {
            SubRole first = subRoles.putIfAbsent(lvName, new SubRole(role, user, key));
            if (first != null) {
                throw error(user, "LV " + vgName + "/" + lvName + " is the " + key + " of LV " + vgName + "/"
                        + user.key() + " and already the " + first.key() + " of LV " + vgName + "/" + first.at().key()
                        + " (line " + first.at().line() + ")");
            }
        }

        private void reference(Map<String, Located> uses, String lvName, Section pool, String key) {
            Located first = uses.putIfAbsent(lvName, pool);
            if (first != null) {
                throw error(pool, "LV " + vgName + "/" + lvName + " is the " + key + " LV of two thin pools (the other "
                        + "at line " + first.line() + ")");
            }
        }

        // lib/format_text/import_vsn1.c: _read_lvnames and _read_lvsegs
        private Raw lv(Section s) {
            String lv = vgName + "/" + s.key();
            String what = "logical volume " + lv;
            string(requireSetting(s, "id", what));
            Setting status = requireSetting(s, "status", what);
            boolean visible = false;
            // lib/format_text/flags.c: read_flags (LV status words)
            for (StringValue w : words(status)) {
                if (!LV_STATUS.contains(w.value())) {
                    throw error(w, "Unknown status flag '" + w.value() + "'.");
                }
                visible |= w.value().equals("VISIBLE");
            }
            Set<LvFlag> flags = EnumSet.noneOf(LvFlag.class);
            for (StringValue w : words(status)) {
                if (w.value().equals("NOTSYNCED")) {
                    flags.add(LvFlag.NOTSYNCED);
                }
            }
            Optional<Setting> flagSetting = setting(s, "flags");
            if (flagSetting.isPresent()) {
                // lib/format_text/flags.c: read_flags (compatible LV flags; unknown words are ignored)
                for (StringValue w : words(flagSetting.get())) {
                    if (w.value().equals("ACTIVATION_SKIP")) {
                        flags.add(LvFlag.ACTIVATION_SKIP);
                    } else if (w.value().equals("ERROR_WHEN_FULL")) {
                        flags.add(LvFlag.ERROR_WHEN_FULL);
                    }
                }
            }
            Setting countSetting = requireSetting(s, "segment_count", what);
            long count = integer(countSetting);
            List<Section> segs = s.sections();
            // lib/format_text/import_vsn1.c: _read_segments (segment_count agrees)
            if (count != segs.size()) {
                throw error(countSetting.value(), "segment_count and actual number of segments disagree for "
                        + "logical volume " + lv + " (segment_count " + count + ", " + segs.size() + " segments)");
            }
            if (segs.isEmpty()) {
                throw error(s, "LV " + lv + " has no segment.");
            }
            List<LvSegment> segments = new ArrayList<>();
            long le = 0;
            for (Section seg : segs) {
                LvSegment segment = segment(seg, lv, le);
                segments.add(segment);
                le = segment.endExtent();
            }
            return new Raw(s, visible, flags, segments, status);
        }

        // lib/format_text/import_vsn1.c: _read_segment
        private LvSegment segment(Section seg, String lv, long expectedStart) {
            String what = "segment " + seg.key() + " of logical volume " + lv;
            Setting startSetting = requireSetting(seg, "start_extent", what);
            long start = nonNegative(startSetting);
            // lib/metadata/merge.c: check_lv_segments (segments follow each other without gaps)
            if (start != expectedStart) {
                throw error(startSetting.value(), "LV " + lv + " invalid: " + seg.key() + " should begin at LE "
                        + expectedStart + " (found " + start + ").");
            }
            Setting countSetting = requireSetting(seg, "extent_count", what);
            long count = integer(countSetting);
            if (count <= 0) {
                throw error(countSetting.value(), "extent_count of " + what + " must be positive, found \"" + count
                        + "\"");
            }
            if (count > Long.MAX_VALUE - start) {
                throw error(countSetting.value(), "extent_count " + count + " of " + what + " overflows");
            }
            Setting typeSetting = requireSetting(seg, "type", what);
            String written = string(typeSetting);
            // lib/format_text/import_vsn1.c: _read_segment — "name+FLAG+FLAG": segment type flags after the name
            List<String> parts = List.of(written.split("\\+", -1));
            String type = parts.get(0);
            Set<String> typeFlags = new java.util.LinkedHashSet<>(parts.subList(1, parts.size()));
            boolean cacheType = type.equals("cache-pool") || type.equals("cache");
            if (!typeFlags.isEmpty() && (!cacheType || !typeFlags.equals(Set.of("METADATA_FORMAT")))) {
                throw error(typeSetting.value(), "segment type flags \"" + written.substring(type.length() + 1)
                        + "\" of LV " + lv + " are not modelled (only cache-pool+METADATA_FORMAT is)");
            }
            try {
                if (SegmentType.Raid.TYPES.contains(type)) {
                    return raid(seg, what, lv, start, count, countSetting);
                }
                return switch (type) {
                    case "striped", "linear" -> striped(seg, what, start, count, countSetting);
                    case "thin-pool" -> thinPool(seg, what, start, count);
                    case "thin" -> thin(seg, what, start, count);
                    case "snapshot" -> snapshot(seg, what, start, count);
                    case "cache-pool" -> cachePool(seg, what, start, count, typeSetting, !typeFlags.isEmpty());
                    case "cache" -> cache(seg, what, start, count, !typeFlags.isEmpty(), typeSetting);
                    case "writecache" -> writecache(seg, what, start, count);
                    case "raid0", "raid0_meta" -> throw error(typeSetting.value(), "segment type \"" + type
                            + "\" of LV " + lv + " (striped RAID without redundancy) is not modelled");
                    // lib/format_text/import_vsn1.c: _read_segment (get_segtype_from_string): other types
                    default -> throw error(typeSetting.value(), "segment type \"" + type + "\" of LV " + lv
                            + " is not modelled");
                };
            } catch (IllegalArgumentException e) {
                throw wrap(seg, e);
            }
        }

        // lib/striped/striped.c: _striped_text_import and lib/format_text/import_vsn1.c: text_import_areas
        private LvSegment striped(Section seg, String what, long start, long count, Setting countSetting) {
            Setting stripeCountSetting = requireSetting(seg, "stripe_count", what);
            long stripes = integer(stripeCountSetting);
            if (stripes <= 0) {
                throw error(stripeCountSetting.value(), "Zero areas not allowed for " + what + " (stripe_count "
                        + stripes + ")");
            }
            long stripeSize = 0;
            if (stripes > 1) {
                stripeSize = nonNegative(requireSetting(seg, "stripe_size", what));
            } else {
                Optional<Setting> ss = setting(seg, "stripe_size");
                if (ss.isPresent()) {
                    stripeSize = nonNegative(ss.get());
                }
            }
            // lib/format_text/import_vsn1.c: _read_segment (area_len = extent_count / area_count)
            if (count % stripes != 0) {
                throw error(countSetting.value(), "extent_count " + count + " of " + what + " is not divisible by "
                        + stripes + " stripes");
            }
            long areaLen = count / stripes;
            Setting areasSetting = requireSetting(seg, "stripes", what);
            if (!(areasSetting.value() instanceof ArrayValue areas)) {
                throw error(areasSetting.value(), "expected an array for \"stripes\" of " + what + ", found "
                        + areasSetting.value().describe());
            }
            if (areas.items().size() != 2 * stripes) {
                throw error(areasSetting.value(), "Incorrect number of areas in area array for " + what + " ("
                        + areas.items().size() / 2 + " pairs for stripe_count " + stripes + ")");
            }
            List<StripeArea> out = new ArrayList<>();
            for (int i = 0; i < areas.items().size(); i += 2) {
                Value name = areas.items().get(i);
                Value offset = areas.items().get(i + 1);
                if (!(name instanceof StringValue pvName)) {
                    throw error(name, "Bad volume name in areas array for " + what + ": found " + name.describe());
                }
                if (!(offset instanceof IntValue pe)) {
                    throw error(offset, "Missing offset in areas array for " + what + ": found " + offset.describe());
                }
                PhysicalVolume pv = pvs.get(pvName.value());
                if (pv == null) {
                    if (sections.containsKey(pvName.value())) {
                        throw error(name, "area on LV \"" + pvName.value() + "\" (a stacked LV) in " + what
                                + " is not modelled");
                    }
                    throw error(name, "Couldn't find volume '" + pvName.value() + "' for " + what + ".");
                }
                if (pe.value() < 0) {
                    throw error(offset, "negative extent " + pe.value() + " in areas array for " + what);
                }
                // lib/metadata/pv_manip.c: check_pv_segments (areas lie within the PV's pe_count)
                if (pe.value() > pv.peCount() - areaLen) {
                    throw error(offset, "extents " + pe.value() + ".." + (pe.value() + areaLen - 1) + " of " + what
                            + " lie beyond the " + pv.peCount() + " extents of " + pvName.value());
                }
                out.add(new StripeArea(pv.device(), pe.value()));
            }
            return new LvSegment(start, count, Sectors.of(stripeSize), out, SegmentType.STRIPED);
        }

        private String lvReference(Section seg, String key, String what, String kind) {
            Setting st = setting(seg, key).orElseThrow(() -> error(seg, kind + " must be a string in " + what));
            if (!(st.value() instanceof StringValue sv)) {
                throw error(st.value(), kind + " must be a string in " + what + ", found " + st.value().describe());
            }
            if (!sections.containsKey(sv.value())) {
                throw error(st.value(), "Unknown " + kind.toLowerCase(java.util.Locale.ROOT) + " " + sv.value()
                        + " in " + what);
            }
            return sv.value();
        }

        // lib/thin/thin.c: _thin_pool_text_import
        private LvSegment thinPool(Section seg, String what, long start, long count) {
            String metadata = lvReference(seg, "metadata", what, "Metadata");
            String data = lvReference(seg, "pool", what, "Pool");
            long transaction = nonNegative(requireSetting(seg, "transaction_id", what));
            Setting chunkSetting = requireSetting(seg, "chunk_size", what);
            long chunk = integer(chunkSetting);
            if (chunk < SegmentType.ThinPool.MIN_CHUNK_SECTORS || chunk > SegmentType.ThinPool.MAX_CHUNK_SECTORS) {
                throw error(chunkSetting.value(), "Unsupported value " + chunk + " for chunk_size");
            }
            ThinDiscards discards = ThinDiscards.IGNORE;
            Optional<Setting> discardSetting = setting(seg, "discards");
            if (discardSetting.isPresent()) {
                try {
                    discards = ThinDiscards.ofWord(string(discardSetting.get()));
                } catch (IllegalArgumentException e) {
                    throw wrap(discardSetting.get().value(), e);
                }
            }
            boolean zero = false;
            Optional<Setting> zeroSetting = setting(seg, "zero_new_blocks");
            if (zeroSetting.isPresent()) {
                zero = nonNegative(zeroSetting.get()) != 0;
            }
            // lib/thin/thin.c: _thin_pool_text_import (messageN subsections: queued kernel messages)
            for (Section sub : seg.sections()) {
                throw error(sub, "queued thin-pool message \"" + sub.key() + "\" in " + what + " is not modelled");
            }
            return new LvSegment(start, count, Sectors.ZERO, List.of(),
                    new SegmentType.ThinPool(metadata, data, transaction, Sectors.of(chunk), discards, zero));
        }

        // lib/thin/thin.c: _thin_text_import
        private LvSegment thin(Section seg, String what, long start, long count) {
            String pool = lvReference(seg, "thin_pool", what, "Pool");
            long transaction = nonNegative(requireSetting(seg, "transaction_id", what));
            Setting idSetting = requireSetting(seg, "device_id", what);
            long id = integer(idSetting);
            if (id < 0 || id > SegmentType.Thin.MAX_DEVICE_ID) {
                throw error(idSetting.value(), "Unsupported value " + id + " for device_id");
            }
            Optional<String> origin = Optional.empty();
            if (seg.child("origin").isPresent()) {
                origin = Optional.of(lvReference(seg, "origin", what, "Origin"));
            }
            for (String key : List.of("external_origin", "merge")) {
                Optional<Node> n = seg.child(key);
                if (n.isPresent()) {
                    throw error(n.get(), "\"" + key + "\" of thin " + what + " is not modelled");
                }
            }
            return new LvSegment(start, count, Sectors.ZERO, List.of(),
                    new SegmentType.Thin(pool, transaction, id, origin));
        }

        // lib/snapshot/snapshot.c: _snap_text_import
        private LvSegment snapshot(Section seg, String what, long start, long count) {
            Setting chunkSetting = requireSetting(seg, "chunk_size", what);
            long chunk = integer(chunkSetting);
            String origin = lvReference(seg, "origin", what, "Origin");
            String cow = lvReference(seg, "cow_store", what, "Cow_store");
            Optional<Node> merging = seg.child("merging_store");
            if (merging.isPresent()) {
                throw error(merging.get(), "\"merging_store\" of snapshot " + what + " (a merging snapshot) is not "
                        + "modelled");
            }
            try {
                return new LvSegment(start, count, Sectors.ZERO, List.of(),
                        new SegmentType.Snapshot(origin, cow, Sectors.of(chunk)));
            } catch (IllegalArgumentException e) {
                throw wrap(chunkSetting.value(), e);
            }
        }

        // lib/cache_segtype/cache.c: _cache_pool_text_import (LVM 2.03: cache_mode, policy, policy_settings,
        // metadata_format)
        private LvSegment cachePool(Section seg, String what, long start, long count, Setting typeSetting,
                                    boolean metadataFormatFlag) {
            String data = lvReference(seg, "data", what, "Cache data");
            String metadata = lvReference(seg, "metadata", what, "Cache metadata");
            Setting chunkSetting = requireSetting(seg, "chunk_size", what);
            long chunk = integer(chunkSetting);
            Optional<SegmentType.CacheMode> mode = Optional.empty();
            Optional<Setting> modeSetting = setting(seg, "cache_mode");
            if (modeSetting.isPresent()) {
                String m = string(modeSetting.get());
                mode = java.util.Arrays.stream(SegmentType.CacheMode.values()).filter(c -> c.word().equals(m))
                        .findFirst();
                if (mode.isEmpty()) {
                    throw error(modeSetting.get().value(), "Unknown cache_mode \"" + m + "\" in " + what
                            + " (expected writethrough, writeback or passthrough)");
                }
            }
            Optional<String> policy = setting(seg, "policy").map(VgMetadataReader.this::string);
            Map<String, Long> settings = new LinkedHashMap<>();
            Optional<Node> settingsNode = seg.child("policy_settings");
            if (settingsNode.isPresent()) {
                if (!(settingsNode.get() instanceof Section ps)) {
                    throw error(settingsNode.get(), "expected \"policy_settings\" to be a section in " + what);
                }
                if (policy.isEmpty()) {
                    throw error(ps, "policy_settings without a policy in " + what);
                }
                for (Node n : ps.children()) {
                    if (!(n instanceof Setting st)) {
                        throw error(n, "expected a setting in policy_settings of " + what + ", found section \""
                                + n.key() + "\"");
                    }
                    settings.put(st.key(), nonNegative(st));
                }
            }
            Optional<Integer> format = Optional.empty();
            Optional<Setting> formatSetting = setting(seg, "metadata_format");
            if (formatSetting.isPresent()) {
                format = Optional.of((int) Math.min(Integer.MAX_VALUE, nonNegative(formatSetting.get())));
            }
            // lib/cache_segtype/cache.c: the METADATA_FORMAT flag is written exactly when metadata_format is
            if (format.isPresent() != metadataFormatFlag) {
                throw error(format.isPresent() ? formatSetting.get().value() : typeSetting.value(), format.isPresent()
                        ? "metadata_format of " + what + " needs the segment type cache-pool+METADATA_FORMAT"
                        : "segment type cache-pool+METADATA_FORMAT of " + what + " without metadata_format");
            }
            rejectChildren(seg, what, Set.of("start_extent", "extent_count", "type", "data", "metadata",
                    "chunk_size", "cache_mode", "policy", "policy_settings", "metadata_format"));
            try {
                return new LvSegment(start, count, Sectors.ZERO, List.of(), new SegmentType.CachePool(data, metadata,
                        Sectors.of(chunk), mode, policy, settings, format));
            } catch (IllegalArgumentException e) {
                throw wrap(chunkSetting.value(), e);
            }
        }

        // lib/cache_segtype/cache.c: _cache_text_import — a cache pool's cache; a cachevol's settings are not
        private LvSegment cache(Section seg, String what, long start, long count, boolean flag, Setting typeSetting) {
            if (flag) {
                throw error(typeSetting.value(), "segment type cache+METADATA_FORMAT of " + what
                        + " (a cache on a --cachevol) is not modelled");
            }
            String pool = lvReference(seg, "cache_pool", what, "Cache_pool");
            String origin = lvReference(seg, "origin", what, "Cache origin");
            rejectChildren(seg, what, Set.of("start_extent", "extent_count", "type", "cache_pool", "origin"));
            try {
                return new LvSegment(start, count, Sectors.ZERO, List.of(), new SegmentType.Cache(pool, origin));
            } catch (IllegalArgumentException e) {
                throw wrap(seg, e);
            }
        }

        // lib/writecache/writecache.c: _writecache_text_import
        private LvSegment writecache(Section seg, String what, long start, long count) {
            String cachevol = lvReference(seg, "writecache", what, "Writecache");
            String origin = lvReference(seg, "origin", what, "Writecache origin");
            Setting blockSetting = requireSetting(seg, "writecache_block_size", what);
            long block = integer(blockSetting);
            Map<String, Long> settings = new LinkedHashMap<>();
            Set<String> known = new java.util.HashSet<>(Set.of("start_extent", "extent_count", "type", "writecache",
                    "origin", "writecache_block_size"));
            for (String k : SegmentType.Writecache.SETTINGS) {
                Optional<Setting> st = setting(seg, k);
                if (st.isPresent()) {
                    settings.put(k, nonNegative(st.get()));
                }
                known.add(k);
            }
            rejectChildren(seg, what, known);
            try {
                return new LvSegment(start, count, Sectors.ZERO, List.of(),
                        new SegmentType.Writecache(origin, cachevol, block, settings));
            } catch (IllegalArgumentException e) {
                throw wrap(blockSetting.value(), e);
            }
        }

        // lib/raid/raid.c: _raid_text_import (with _raid_text_import_area_count and _raid_text_import_areas)
        private LvSegment raid(Section seg, String what, String lv, long start, long count, Setting countSetting) {
            String type = string(requireSetting(seg, "type", what));
            if (seg.child("stripe_count").isPresent()) {
                throw error(seg.child("stripe_count").get(), "stripe_count of " + type + " " + what + ": only raid0 "
                        + "has a stripe_count, a " + type + " segment has a device_count");
            }
            Setting deviceSetting = setting(seg, "device_count").orElseThrow(() -> error(seg, "Couldn't read "
                    + "'device_count' or 'stripe_count' for segment '" + seg.key() + "'."));
            long devices = integer(deviceSetting);
            if (devices <= 0 || devices > SegmentType.Raid.MAX_DEVICES) {
                throw error(deviceSetting.value(), "device_count " + devices + " of " + what + " is not from 1 to "
                        + SegmentType.Raid.MAX_DEVICES);
            }
            long region = 0;
            long stripe = 0;
            java.util.OptionalInt copies = java.util.OptionalInt.empty();
            Optional<Setting> regionSetting = setting(seg, "region_size");
            if (regionSetting.isPresent()) {
                region = uint32(regionSetting.get(), what, lv);
            }
            Optional<Setting> stripeSetting = setting(seg, "stripe_size");
            if (stripeSetting.isPresent()) {
                stripe = uint32(stripeSetting.get(), what, lv);
            }
            Optional<Setting> copiesSetting = setting(seg, "data_copies");
            if (copiesSetting.isPresent()) {
                copies = java.util.OptionalInt.of((int) uint32(copiesSetting.get(), what, lv));
            }
            rejectChildren(seg, what, Set.of("start_extent", "extent_count", "type", "device_count", "region_size",
                    "stripe_size", "data_copies", "raids"));
            Setting raids = setting(seg, "raids").orElseThrow(() -> error(seg, "Couldn't find RAID array for segment "
                    + seg.key() + " of logical volume " + lv + "."));
            if (!(raids.value() instanceof ArrayValue array)) {
                throw error(raids.value(), "Couldn't find RAID array for segment " + seg.key() + " of logical volume "
                        + lv + " (found " + raids.value().describe() + ")");
            }
            List<String> metas = new ArrayList<>();
            List<String> images = new ArrayList<>();
            List<Value> items = array.items();
            int i = 0;
            for (int s = 0; s < devices; s++) {
                if (i >= items.size()) {
                    throw error(raids.value(), "Incorrect number of areas in area array for segment '" + seg.key()
                            + "' (" + s + " of device_count " + devices + " devices).");
                }
                String name = raidArea(items.get(i++), what);
                // _raid_text_import_areas: a name with _rmeta_ is the metadata LV, the data image follows it
                if (name.contains("_rmeta_")) {
                    metas.add(name);
                    if (i >= items.size()) {
                        throw error(items.get(i - 1), "Missing data device in areas array for segment " + seg.key()
                                + ".");
                    }
                    name = raidArea(items.get(i++), what);
                }
                images.add(name);
            }
            if (i < items.size()) {
                throw error(items.get(i), "Incorrect number of areas in area array for segment '" + seg.key() + "' ("
                        + (items.size() - i) + " more than device_count " + devices + " needs).");
            }
            try {
                return new LvSegment(start, count, Sectors.ZERO, List.of(), new SegmentType.Raid(type,
                        Sectors.of(stripe), Sectors.of(region), metas, images, copies));
            } catch (IllegalArgumentException e) {
                // lib/metadata/merge.c: raid_seg_error ("LV %s invalid: %s for %s segment")
                throw error(seg, "LV " + lv + " invalid: " + e.getMessage());
            }
        }

        private String raidArea(Value v, String what) {
            if (!(v instanceof StringValue sv)) {
                throw error(v, "Bad volume name in areas array for " + what + ": found " + v.describe());
            }
            if (!sections.containsKey(sv.value())) {
                throw error(v, "Couldn't find volume '" + sv.value() + "' for " + what + ".");
            }
            return sv.value();
        }

        // dm_config_get_uint32: "Couldn't read '%s' for segment %s of logical volume %s."
        private long uint32(Setting st, String what, String lv) {
            if (!(st.value() instanceof IntValue iv) || iv.value() < 0 || iv.value() > 0xFFFF_FFFFL) {
                throw error(st.value(), "Couldn't read '" + st.key() + "' for " + what + " (found "
                        + st.value().describe() + ", expected a number from 0 to 4294967295).");
            }
            return iv.value();
        }

        // what a segment type's importer does not read is reported, not dropped
        private void rejectChildren(Section seg, String what, Set<String> known) {
            for (Node n : seg.children()) {
                if (!known.contains(n.key())) {
                    throw error(n, "\"" + n.key() + "\" of " + what + " is not modelled");
                }
            }
        }
    }
}
