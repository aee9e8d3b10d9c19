package dev.dmmodel.impl.format.layoutfile;

import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.impl.lvm.text.VgMetadataWriter;
import dev.dmmodel.internal.json.JsonWriter;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.ExtentRange;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvExtendRequest;
import dev.dmmodel.lvm.LvmVersion;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.ThinPoolConvertRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.units.Sizes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Writes a {@link LayoutSpec} as a layout file (docs/layout-format.md) that {@link LayoutFileReader} reads back
 * into the same steps (a disk's spec up to the limits the kernel derives anyway: {@code max_sectors} and
 * {@code read_ahead_kb} of its queue limits, which {@link DiskSpec} ignores). Keys come in a fixed order; a
 * value equal to the default is left out; a disk is written as the preset closest to it plus the limits that
 * differ; an imported volume group as its {@code vgcfgbackup} text ({@link VgMetadataWriter}).
 */
public final class LayoutFileWriter {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./][A-Za-z0-9_./+-]*");

    private final StringBuilder out = new StringBuilder();

    private LayoutFileWriter() {
    }

    /**
     * The layout file text of a spec.
     *
     * @throws IllegalArgumentException if the spec's kernel profile is neither a preset nor one composed for a
     *     release ({@link KernelProfile#forRelease(String)}): the format names a kernel by its version, which must
     *     read back as the same rules
     */
    public static String write(LayoutSpec spec) {
        Objects.requireNonNull(spec, "spec");
        KernelProfile p = spec.profile();
        if (!readsBack(p)) {
            throw new IllegalArgumentException("kernel profile " + p.name() + " is neither a preset nor the"
                    + " profile of a release; a layout file names a kernel by preset (7.2, 6.12, 6.1, 5.10, 3.10,"
                    + " 2.6.32, 2.6.0) or by release (6.8), and a derived profile reads back as neither");
        }
        LayoutFileWriter w = new LayoutFileWriter();
        w.out.append("# dmmodel layout file (docs/layout-format.md)\n");
        w.out.append("version: ").append(LayoutFileReader.VERSION).append('\n');
        w.out.append("kernel: \"").append(p.name().substring("linux-".length())).append("\"\n");
        if (spec.steps().isEmpty()) {
            w.out.append("steps: []\n");
            return w.out.toString();
        }
        w.out.append("steps:\n");
        for (LayoutStep s : spec.steps()) {
            w.step(s);
        }
        return w.out.toString();
    }

    // kernel: "<version>" reads back through KernelProfile.of as a profile equal to this one
    private static boolean readsBack(KernelProfile p) {
        if (!p.name().startsWith("linux-")) {
            return false;
        }
        try {
            return KernelProfile.of(p.name().substring("linux-".length())).equals(p);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    // ------------------------------------------------------------------ steps

    /** Starts a step: {@code - key: value}. */
    private void command(String key, String value) {
        out.append("  - ").append(key).append(": ").append(scalar(value)).append('\n');
    }

    private void key(String key, String value) {
        out.append("    ").append(key).append(':').append(value.isEmpty() ? "" : " " + value).append('\n');
    }

    private void text(String key, String value) {
        key(key, scalar(value));
    }

    private void list(String key, List<String> values) {
        List<String> q = new ArrayList<>();
        values.forEach(v -> q.add(scalar(v)));
        key(key, "[" + String.join(", ", q) + "]");
    }

    private void step(LayoutStep s) {
        if (s instanceof LayoutStep.AddDisk d) {
            disk(d);
        } else if (s instanceof LayoutStep.CreatePartitionTable t) {
            command("partition_table", t.disk());
            key("type", DiskFormat.lower(t.type()));
            if (t.partitions().isEmpty()) {
                key("partitions", "[]");
            } else {
                key("partitions", "");
                for (PartitionSpec p : t.partitions()) {
                    List<String> parts = new ArrayList<>();
                    if (p.placement() == PartitionSpec.Placement.EXPLICIT) {
                        parts.add("start: " + p.start().orElseThrow().count() + "s");
                    } else {
                        parts.add("align: " + DiskFormat.lower(p.placement()));
                    }
                    p.size().ifPresent(sz -> parts.add("size: " + sectors(sz)));
                    out.append("      - {").append(String.join(", ", parts)).append("}\n");
                }
            }
        } else if (s instanceof LayoutStep.AddPartition p) {
            command("partition", p.disk());
            key("number", Integer.toString(p.number()));
            key("start", p.start().count() + "s");
            key("size", p.size().count() + "s");
            p.kernelName().ifPresent(k -> text("kernel_name", k));
            p.devNumber().ifPresent(n -> text("dev", n.toString()));
        } else if (s instanceof LayoutStep.AddMdArray a) {
            dev.dmmodel.device.MdArraySpec spec = a.spec();
            command("md_array", a.name());
            key("level", spec.level().sysfsName());
            key("raid_disks", Integer.toString(spec.raidDisks()));
            if (spec.level().hasChunk()) {
                key("chunk", spec.chunk().count() + "s");
            }
            key("layout", Integer.toString(spec.layout()));
            text("metadata", spec.metadataVersion());
            key("members", "");
            for (dev.dmmodel.device.MdMember m : spec.members()) {
                out.append("      - {device: ").append(scalar(m.device())).append(", slot: ").append(m.slot())
                        .append(", data_offset: ").append(m.dataOffset().count()).append("s, data_size: ")
                        .append(m.dataSize().count()).append("s}\n");
            }
            a.devNumber().ifPresent(n -> text("dev", n.toString()));
        } else if (s instanceof LayoutStep.SetMaxSectorsKb m) {
            command("queue", m.device());
            key("max_sectors_kb", Long.toString(m.kb()));
        } else if (s instanceof LayoutStep.PvCreate p) {
            pvcreate(p);
        } else if (s instanceof LayoutStep.VgCreate v) {
            command("vgcreate", v.name());
            VgCreateOptions o = v.options();
            if (!o.extentSize().equals(VgCreateOptions.DEFAULTS.extentSize())) {
                key("extent_size", sectors(o.extentSize()));
            }
            if (o.allocationPolicy() != VgCreateOptions.DEFAULTS.allocationPolicy()) {
                key("alloc", DiskFormat.lower(o.allocationPolicy()));
            }
            list("pvs", v.pvs());
        } else if (s instanceof LayoutStep.VgExtend v) {
            command("vgextend", v.vg());
            list("pvs", v.pvs());
        } else if (s instanceof LayoutStep.ImportVolumeGroup i) {
            command("import_vg", i.volumeGroup().name());
            List<String> areas = new ArrayList<>();
            for (PhysicalVolume pv : i.volumeGroup().physicalVolumes()) {
                List<String> sizes = new ArrayList<>();
                if (pv.mdaSize().count() != 0) {
                    sizes.add("mda_size: " + pv.mdaSize().count() + "s");
                }
                if (pv.mda1Size().count() != 0) {
                    sizes.add("mda1_size: " + pv.mda1Size().count() + "s");
                }
                if (!sizes.isEmpty()) {
                    areas.add("      " + scalar(pv.device()) + ": {" + String.join(", ", sizes) + "}");
                }
            }
            if (!areas.isEmpty()) {
                key("metadata_areas", "");
                areas.forEach(a -> out.append(a).append('\n'));
            }
            block("metadata", VgMetadataWriter.write(i.volumeGroup()));
        } else if (s instanceof LayoutStep.LvCreate l) {
            lvcreate(l);
        } else if (s instanceof LayoutStep.LvExtend l) {
            LvExtendRequest r = l.request();
            command("lvextend", r.name());
            text("vg", l.vg());
            key("extents", Long.toString(r.extents()));
            if (r.stripes() != 0) {
                key("stripes", Integer.toString(r.stripes()));
            }
            if (r.stripeSize() != null) {
                key("stripe_size", bytes(r.stripeSize()));
            }
            if (r.policy() != AllocationPolicy.INHERIT) {
                key("alloc", DiskFormat.lower(r.policy()));
            }
            pvsAndRanges(r.pvs(), r.pvRanges());
        } else if (s instanceof LayoutStep.ThinPoolConvert c) {
            ThinPoolConvertRequest r = c.request();
            command("thin_pool_convert", r.dataLv());
            text("vg", c.vg());
            text("pool_metadata", r.metadataLv());
            if (r.chunkSize() != null) {
                key("chunk_size", bytes(r.chunkSize()));
            }
            if (r.zero() != null) {
                key("zero", r.zero().toString());
            }
            if (r.discards() != null) {
                key("discards", r.discards().word());
            }
            if (r.errorWhenFull()) {
                key("error_when_full", "true");
            }
            if (r.chunkPolicy() != ThinPoolRequest.ChunkPolicy.GENERIC) {
                key("chunk_size_policy", DiskFormat.lower(r.chunkPolicy()));
            }
            if (!r.poolMetadataSpare()) {
                key("pool_metadata_spare", "false");
            }
            pvsAndRanges(r.pvs(), r.pvRanges());
        } else if (s instanceof LayoutStep.ThinPoolCreate t) {
            thinPool(t);
        } else if (s instanceof LayoutStep.ThinLvCreate t) {
            command("thin", t.request().name());
            text("vg", t.vg());
            text("pool", t.request().pool());
            key("virtual_size", bytes(t.request().virtualSize()));
        } else if (s instanceof LayoutStep.ThinSnapshotCreate t) {
            command("snapshot", t.request().name());
            text("vg", t.vg());
            text("origin", t.request().origin());
        } else if (s instanceof LayoutStep.CowSnapshotCreate c) {
            command("snapshot", c.request().name());
            text("vg", c.vg());
            text("origin", c.request().origin());
            key("size", bytes(c.request().size()));
            if (!c.request().chunkSize().equals(dev.dmmodel.lvm.CowSnapshotRequest.DEFAULT_CHUNK)) {
                key("chunk_size", bytes(dev.dmmodel.units.Bytes.of(c.request().chunkSize().count() * 512)));
            }
            pvsAndRanges(c.request().pvs(), c.request().pvRanges());
        } else if (s instanceof LayoutStep.RaidLvCreate c) {
            dev.dmmodel.lvm.RaidLvRequest r = c.request();
            command("raid", r.name());
            text("vg", c.vg());
            key("type", r.raidType());
            if (r.size() != null) {
                key("size", bytes(r.size()));
            } else {
                key("extents", Long.toString(r.extents()));
            }
            if (r.mirrors() != 0) {
                key("mirrors", Integer.toString(r.mirrors()));
            }
            if (r.stripes() != 0) {
                key("stripes", Integer.toString(r.stripes()));
            }
            if (r.stripeSize() != null) {
                key("stripe_size", bytes(r.stripeSize()));
            }
            if (r.regionSize() != null) {
                key("region_size", bytes(r.regionSize()));
            }
            if (r.nosync()) {
                key("nosync", "true");
            }
            if (r.policy() != dev.dmmodel.lvm.AllocationPolicy.INHERIT) {
                key("alloc", DiskFormat.lower(r.policy()));
            }
            pvsAndRanges(r.pvs(), List.of());
        } else if (s instanceof LayoutStep.DmCreate d) {
            command("dmsetup_create", d.name());
            if (!d.uuid().isEmpty()) {
                text("uuid", d.uuid());
            }
            d.kernelName().ifPresent(k -> text("kernel_name", k));
            d.devNumber().ifPresent(n -> text("dev", n.toString()));
            block("table", d.table().format(Function.identity()));
        } else {
            throw new IllegalArgumentException("a step the layout format has no key for: " + s);
        }
    }

    private void disk(LayoutStep.AddDisk d) {
        DiskSpec spec = d.spec();
        // the base the fewest keys away: a preset of the same driver, else the driver's defaults
        String baseKey = "driver";
        String baseWord = DiskFormat.driverWord(spec.driver());
        DiskSpec base = DiskSpec.builder(spec.driver()).size(spec.size()).build();
        List<String> best = differences(spec, base);
        for (DiskFormat.Preset p : DiskFormat.PLAIN_PRESETS) {
            DiskSpec candidate = p.make().get().withSize(spec.size());
            if (candidate.driver() != spec.driver()) {
                continue;
            }
            List<String> diff = differences(spec, candidate);
            if (diff.size() < best.size()) {
                best = diff;
                base = candidate;
                baseKey = "preset";
                baseWord = p.word();
            }
        }
        command("disk", d.name());
        key(baseKey, baseWord);
        key("size", sectors(spec.size()));
        d.devNumber().ifPresent(n -> text("dev", n.toString()));
        for (String line : best) {
            out.append("    ").append(line).append('\n');
        }
    }

    /** The {@code key: value} lines that turn {@code base} into {@code spec}, in the reader's order. */
    private static List<String> differences(DiskSpec spec, DiskSpec base) {
        List<String> out = new ArrayList<>();
        QueueLimits l = spec.limits();
        QueueLimits b = base.limits();
        if (l.logicalBlockSize() != b.logicalBlockSize() || l.physicalBlockSize() != b.physicalBlockSize()
                || l.ioMin() != b.ioMin()) {
            // all three: the reader sets them as DiskSpec.Builder does, each raising the ones after it
            out.add("logical_block_size: " + l.logicalBlockSize());
            out.add("physical_block_size: " + l.physicalBlockSize());
            out.add("minimum_io_size: " + l.ioMin());
        }
        for (DiskFormat.LimitKey k : DiskFormat.LIMIT_KEYS) {
            Object v = k.get().apply(l);
            if (!v.equals(k.get().apply(b))) {
                out.add(k.key() + ": " + (k.kind() == DiskFormat.Kind.MASK && (Long) v > 65535
                        ? "0x" + Long.toHexString((Long) v) : v.toString()));
            }
        }
        if (spec.maxSectors() != base.maxSectors()) {
            out.add("max_sectors: " + spec.maxSectors());
        }
        if (spec.readAheadKb() != base.readAheadKb()) {
            out.add("read_ahead_kb: " + spec.readAheadKb());
        }
        if (!spec.description().equals(base.description())) {
            out.add("description: " + scalar(spec.description()));
        }
        return out;
    }

    private void pvcreate(LayoutStep.PvCreate p) {
        command("pvcreate", p.device());
        PvCreateOptions o = p.options();
        PvCreateOptions d = PvCreateOptions.DEFAULTS;
        if (o.version() != d.version()) {
            key("lvm_version", o.version() == LvmVersion.LVM2_2_00 ? "\"2.00\"" : "\"2.03\"");
        }
        if (o.dataAlignment().count() != 0) {
            key("data_alignment", sectors(o.dataAlignment()));
        }
        if (o.dataAlignmentOffset().count() != 0) {
            key("data_alignment_offset", sectors(o.dataAlignmentOffset()));
        }
        if (o.metadataSize().count() != 0) {
            key("metadata_size", sectors(o.metadataSize()));
        }
        if (o.metadataCopies() != d.metadataCopies()) {
            key("metadata_copies", Integer.toString(o.metadataCopies()));
        }
        if (o.defaultDataAlignmentMib() != d.defaultDataAlignmentMib()) {
            key("default_data_alignment", Long.toString(o.defaultDataAlignmentMib()));
        }
        if (o.dataAlignmentDetection() != d.dataAlignmentDetection()) {
            key("data_alignment_detection", Boolean.toString(o.dataAlignmentDetection()));
        }
        if (o.dataAlignmentOffsetDetection() != d.dataAlignmentOffsetDetection()) {
            key("data_alignment_offset_detection", Boolean.toString(o.dataAlignmentOffsetDetection()));
        }
    }

    private void lvcreate(LayoutStep.LvCreate l) {
        LvCreateRequest r = l.request();
        command("lvcreate", r.name());
        text("vg", l.vg());
        if (r.size() != null) {
            key("size", bytes(r.size()));
        } else {
            key("extents", Long.toString(r.extents()));
        }
        if (r.stripes() != 1) {
            key("stripes", Integer.toString(r.stripes()));
        }
        if (r.stripeSize() != null) {
            key("stripe_size", bytes(r.stripeSize()));
        }
        if (r.policy() != AllocationPolicy.INHERIT) {
            key("alloc", DiskFormat.lower(r.policy()));
        }
        pvsAndRanges(r.pvs(), r.pvRanges());
    }

    private void pvsAndRanges(List<String> pvs, List<ExtentRange> pvRanges) {
        if (!pvs.isEmpty()) {
            list("pvs", pvs);
        }
        if (!pvRanges.isEmpty()) {
            List<String> ranges = new ArrayList<>();
            for (ExtentRange e : pvRanges) {
                ranges.add(e.pv() + ":" + e.start() + "-" + (e.end() - 1));
            }
            list("pv_ranges", ranges);
        }
    }

    private void thinPool(LayoutStep.ThinPoolCreate t) {
        ThinPoolRequest r = t.request();
        command("thin_pool", r.name());
        text("vg", t.vg());
        if (r.size() != null) {
            key("size", bytes(r.size()));
        } else {
            key("extents", Long.toString(r.extents()));
        }
        if (r.chunkSize() != null) {
            key("chunk_size", bytes(r.chunkSize()));
        }
        if (r.poolMetadataSize() != null) {
            key("pool_metadata_size", bytes(r.poolMetadataSize()));
        }
        if (r.zero() != null) {
            key("zero", r.zero().toString());
        }
        if (r.discards() != null) {
            key("discards", r.discards().word());
        }
        if (r.errorWhenFull()) {
            key("error_when_full", "true");
        }
        if (r.stripes() != 1) {
            key("stripes", Integer.toString(r.stripes()));
        }
        if (r.stripeSize() != null) {
            key("stripe_size", bytes(r.stripeSize()));
        }
        if (r.chunkPolicy() != ThinPoolRequest.ChunkPolicy.GENERIC) {
            key("chunk_size_policy", DiskFormat.lower(r.chunkPolicy()));
        }
        if (!r.poolMetadataSpare()) {
            key("pool_metadata_spare", "false");
        }
        if (r.policy() != AllocationPolicy.INHERIT) {
            key("alloc", DiskFormat.lower(r.policy()));
        }
        if (!r.pvs().isEmpty()) {
            list("pvs", r.pvs());
        }
    }

    // ------------------------------------------------------------------ values

    /** A size in the largest binary unit that holds it exactly, sectors when that is shorter. */
    static String sectors(Sectors s) {
        String sec = s.count() + "s";
        if (s.count() > Long.MAX_VALUE / 512) {
            return sec;
        }
        String b = Sizes.format(s.count() * 512);
        return b.length() <= sec.length() ? b : sec;
    }

    static String bytes(Bytes b) {
        return Sizes.format(b.count());
    }

    /**
     * A string as a YAML scalar: plain when that is unambiguous, else double-quoted, escaped by the project's JSON
     * string writer (a JSON string is a YAML double-quoted scalar; it escapes what YAML cannot hold unescaped).
     */
    static String scalar(String v) {
        if (PLAIN.matcher(v).matches() && !v.equalsIgnoreCase("null")) {
            return v;
        }
        return JsonWriter.string(v);
    }

    /** A multi-line text as a literal block ({@code |}) when YAML keeps it exactly, else double-quoted. */
    private void block(String key, String text) {
        if (!literalKeepsExactly(text)) {
            text(key, text);
            return;
        }
        int trailing = 0;
        while (trailing < text.length() && text.charAt(text.length() - 1 - trailing) == '\n') {
            trailing++;
        }
        String chomp = trailing == 0 ? "-" : trailing == 1 ? "" : "+";
        out.append("    ").append(key).append(": |").append(chomp).append('\n');
        String body = text.substring(0, text.length() - trailing);
        for (String line : body.split("\n", -1)) {
            out.append(line.isEmpty() ? "" : "      " + line).append('\n');
        }
        for (int i = 1; i < trailing; i++) {
            out.append('\n');
        }
    }

    private static boolean literalKeepsExactly(String text) {
        if (text.isEmpty() || text.startsWith(" ") || text.startsWith("\n")) {
            return false;
        }
        for (String line : text.split("\n", -1)) {
            if (!line.isEmpty() && line.isBlank()) {
                return false; // a line of only blanks would be read as an empty line
            }
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if ((c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c <= 0x9f) || c == 0xfeff || c >= 0xfffe
                    || Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
