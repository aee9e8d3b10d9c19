package dev.dmmodel.impl.format.lsblk;

import dev.dmmodel.io.LsblkImport;
import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.impl.format.json.JsonException;
import dev.dmmodel.impl.format.json.JsonReader;
import dev.dmmodel.impl.format.json.JsonValue;
import dev.dmmodel.impl.format.json.JsonValue.JsonArray;
import dev.dmmodel.impl.format.json.JsonValue.JsonBoolean;
import dev.dmmodel.impl.format.json.JsonValue.JsonNull;
import dev.dmmodel.impl.format.json.JsonValue.JsonNumber;
import dev.dmmodel.impl.format.json.JsonValue.JsonObject;
import dev.dmmodel.impl.format.json.JsonValue.JsonString;
import dev.dmmodel.impl.format.snapshot.Snapshot;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code lsblk --json --bytes --output-all} ({@code misc-utils/lsblk.c}): the {@code "blockdevices"} array,
 * as a tree ({@code "children"}) or a list ({@code --list}); a device listed under several parents (a dm device
 * on two PVs) is taken once, by {@code kname}.
 *
 * <p><b>Disks</b> ({@code type} {@code disk} or {@code loop}) become {@link LayoutStep.AddDisk} with a
 * {@link DiskSpec} carrying the queue limits lsblk shows, by their JSON keys: {@code log-sec}
 * (logical_block_size), {@code phy-sec} (physical_block_size), {@code min-io}, {@code opt-io},
 * {@code alignment} (alignment_offset; -1 is misaligned), {@code disc-aln}, {@code disc-gran},
 * {@code disc-max} (discard_max_bytes, taken for the hardware limit as well), {@code rota} and {@code ra}
 * (read_ahead_kb). lsblk does not show {@code max_sectors_kb}, {@code max_hw_sectors_kb}, {@code max_segments},
 * {@code max_segment_size}, {@code chunk_sectors}, {@code virt_boundary_mask}, {@code dma_alignment} or
 * {@code write_zeroes_max_bytes}: those keep {@link QueueLimits} defaults and max_sectors is left for the kernel
 * profile to derive, so a snapshot ({@code snapshot-format.md}) is the exact source. {@code wsame}
 * (write_same_max_bytes), {@code disc-zero}, {@code rq-size} (nr_requests) and {@code sched} have no place in
 * the model and are read for their type only.
 *
 * <p><b>Partitions</b> ({@code type part}, not a dm device) become {@link LayoutStep.AddPartition} with
 * {@code start} (512-byte sectors; printed since util-linux 2.38) and {@code size}; the number is
 * {@code partn} where printed, else the digits that end the kernel name. Without {@code start} the partition is a
 * problem that says so.
 *
 * <p><b>Device-mapper devices</b> ({@code kname dm-N}) cannot be rebuilt from lsblk, which shows no table: they
 * are returned as {@link LsblkImport.PendingDm} (dm name, kname, maj:min, size, type), for a caller to pair with
 * {@code dmsetup table} output. Other types (md RAID, rom, zram...) are problems.
 *
 * <p>Values may be JSON numbers and booleans (util-linux 2.33 and later print them so) or strings (older
 * versions quote everything: {@code "size":"4294967296"}, {@code "rota":"1"}); {@code null} is an empty value.
 * Sizes need {@code --bytes}: a human size ({@code "4G"}) is a problem.
 *
 * <p>Malformed JSON and a text without a {@code "blockdevices"} array of objects throw {@link JsonException};
 * everything about one device is a problem in {@link LsblkImport#problems()} and that device (with its
 * partitions, for a disk) is left out.
 */
public final class LsblkReader {

    private static final Pattern TRAILING_NUMBER = Pattern.compile("([0-9]+)$");
    private static final Pattern DECIMAL = Pattern.compile("-?[0-9]{1,18}");
    private static final Pattern HUMAN = Pattern.compile("[0-9.,]+[KMGTPEZY]i?B?");

    private final List<LayoutStep> steps = new ArrayList<>();
    private final List<LsblkImport.PendingDm> dms = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final Set<String> seen = new HashSet<>();
    private final Set<String> disks = new HashSet<>();

    private LsblkReader() {
    }

    /**
     * Reads lsblk's JSON.
     *
     * @param json the output of {@code lsblk --json --bytes --output-all}
     * @param source the file name for messages
     * @return the layout steps, the dm devices that need a table, and the problems
     * @throws JsonException if the text is not JSON or has no {@code "blockdevices"} array of objects
     */
    public static LsblkImport read(String json, String source) {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(source, "source");
        JsonValue root = JsonReader.parse(json, source);
        if (!(root instanceof JsonObject top)) {
            throw root.error("found " + root.describe() + "; expected {\"blockdevices\": [...]} as lsblk --json prints");
        }
        JsonValue devices = top.get("blockdevices").orElseThrow(() -> top.error("found no \"blockdevices\" member; "
                + "expected {\"blockdevices\": [...]} as lsblk --json prints"));
        LsblkReader r = new LsblkReader();
        r.walk(devices, Optional.empty());
        return new LsblkImport(r.steps, r.dms, r.problems);
    }

    /** A problem with one device: it is left out. */
    private static final class Skip extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient JsonValue at;

        Skip(JsonValue at, String message) {
            super(message, null, false, false);
            this.at = at;
        }
    }

    private void walk(JsonValue list, Optional<String> parentDisk) {
        if (!(list instanceof JsonArray a)) {
            throw list.error("found " + list.describe() + "; expected an array of devices");
        }
        for (JsonValue item : a.items()) {
            if (!(item instanceof JsonObject d)) {
                throw item.error("found " + item.describe() + "; expected a device object");
            }
            Optional<String> disk = parentDisk;
            try {
                disk = device(d, parentDisk);
            } catch (Skip s) {
                problems.add(new JsonException(s.at.source(), s.at.line(), s.at.column(), s.getMessage()).getMessage());
                disk = Optional.empty();
                Optional<JsonValue> children = d.get("children");
                if (children.isPresent()) {
                    // the children of a device left out are still devices: dm devices on a skipped partition
                    walkChildrenOfSkipped(children.get());
                }
                continue;
            }
            Optional<JsonValue> children = d.get("children");
            if (children.isPresent()) {
                walk(children.get(), disk);
            }
        }
    }

    private void walkChildrenOfSkipped(JsonValue children) {
        walk(children, Optional.of("\0skipped"));
    }

    /** One device; returns the disk its children's partitions belong to (itself for a disk). */
    private Optional<String> device(JsonObject d, Optional<String> parentDisk) throws Skip {
        String kname = string(d, "kname").orElse(string(d, "name").orElse(""));
        if (kname.isEmpty()) {
            throw new Skip(d, "a device without \"kname\" or \"name\"; expected lsblk --output-all");
        }
        if (!seen.add(kname)) {
            return Optional.empty(); // listed again under another parent
        }
        String name = string(d, "name").orElse(kname);
        String type = string(d, "type").orElse("");
        DevNumber dev = devNumber(d, kname);
        Sectors size = Sectors.of(bytes(d, "size", kname, true) / Sectors.SECTOR_SIZE);
        if (kname.startsWith("dm-")) {
            dms.add(new LsblkImport.PendingDm(name, kname, dev, size, type));
            return Optional.empty();
        }
        switch (type) {
            case "disk", "loop" -> {
                steps.add(new LayoutStep.AddDisk(kname, diskSpec(d, kname, size), Optional.of(dev)));
                disks.add(kname);
                return Optional.of(kname);
            }
            case "part" -> {
                partition(d, kname, dev, size, parentDisk);
                return Optional.empty();
            }
            default -> throw new Skip(at(d, "type"), "device " + kname + " of type \"" + type + "\" is not modelled "
                    + "(expected disk, loop, part or a dm device)");
        }
    }

    private void partition(JsonObject d, String kname, DevNumber dev, Sectors size, Optional<String> parentDisk)
            throws Skip {
        Optional<String> pk = string(d, "pkname").filter(s -> !s.isEmpty());
        String disk = pk.orElse(parentDisk.orElse(""));
        if (disk.isEmpty() || !disks.contains(disk)) {
            throw new Skip(d, "partition " + kname + " of " + (disk.isEmpty() || disk.startsWith("\0")
                    ? "no disk this import has" : "disk " + disk + ", which this import does not have")
                    + "; expected it under its disk (or with \"pkname\")");
        }
        if (d.get("start").isEmpty()) {
            throw new Skip(d, "partition " + kname + " has no \"start\" (util-linux before 2.38 does not print it); "
                    + "partitions need their start: use lsblk from util-linux 2.38 or later, or collect a "
                    + "snapshot (snapshot-format.md: block/<disk>/<part>/start)");
        }
        long start = number(d, "start", kname).orElseThrow(() -> new Skip(at(d, "start"), "partition " + kname
                + " has an empty \"start\"; expected its first sector"));
        if (start < 0) {
            throw new Skip(at(d, "start"), "partition " + kname + ": \"start\" " + start + " is negative");
        }
        long number;
        Optional<Long> partn = number(d, "partn", kname);
        if (partn.isPresent()) {
            number = partn.get();
        } else {
            Matcher m = TRAILING_NUMBER.matcher(kname);
            if (!m.find() || m.group(1).length() > 9) {
                throw new Skip(d, "partition " + kname + ": no \"partn\" and no number at the end of its name");
            }
            number = Long.parseLong(m.group(1));
        }
        if (number < 1 || number > Integer.MAX_VALUE) {
            throw new Skip(at(d, "partn"), "partition " + kname + ": number " + number + " is outside 1.."
                    + Integer.MAX_VALUE);
        }
        steps.add(new LayoutStep.AddPartition(disk, (int) number, Sectors.of(start), size, Optional.of(kname),
                Optional.of(dev)));
    }

    // the limits lsblk shows (misc-utils/lsblk.c: infos[]), on top of the builder's defaults
    private DiskSpec diskSpec(JsonObject d, String kname, Sectors size) throws Skip {
        DiskSpec.Builder b = DiskSpec.builder(Snapshot.driverOf(kname)).size(size)
                .description(kname + " as lsblk shows it");
        try {
            Optional<Long> v = number(d, "log-sec", kname);
            if (v.isPresent()) {
                b.logicalBlockSize(v.get());
            }
            v = number(d, "phy-sec", kname);
            if (v.isPresent()) {
                b.physicalBlockSize(v.get());
            }
            v = number(d, "min-io", kname);
            if (v.isPresent()) {
                b.ioMin(v.get());
            }
            v = number(d, "opt-io", kname);
            if (v.isPresent()) {
                b.ioOpt(v.get());
            }
            v = number(d, "alignment", kname);
            if (v.isPresent()) {
                // sysfs alignment_offset: -1 when the stacked limits cannot be aligned
                if (v.get() < -1) {
                    throw new Skip(at(d, "alignment"), kname + ": \"alignment\" " + v.get() + " is below -1");
                }
                b.alignmentOffset(Math.max(v.get(), 0));
            }
            v = number(d, "disc-aln", kname);
            if (v.isPresent()) {
                b.discardAlignment(v.get());
            }
            long gran = d.get("disc-gran").isPresent() ? bytes(d, "disc-gran", kname, false) : 0;
            long max = d.get("disc-max").isPresent() ? bytes(d, "disc-max", kname, true) / Sectors.SECTOR_SIZE : 0;
            b.discard(gran, max);
            Optional<Boolean> rota = bool(d, "rota", kname);
            if (rota.isPresent()) {
                b.rotational(rota.get());
            }
            v = number(d, "ra", kname);
            if (v.isPresent()) {
                b.readAheadKb(v.get());
            }
            // read for their type only: no place in the model
            if (d.get("wsame").isPresent()) {
                bytes(d, "wsame", kname, false);
            }
            bool(d, "disc-zero", kname);
            string(d, "sched");
            number(d, "rq-size", kname);
            DiskSpec spec = b.build();
            boolean misaligned = number(d, "alignment", kname).orElse(0L) == -1;
            if (misaligned) {
                spec = new DiskSpec(spec.driver(), spec.size(), spec.limits().toBuilder().misaligned(true).build(),
                        spec.maxSectors(), spec.readAheadKb(), spec.description());
            }
            return spec;
        } catch (IllegalArgumentException e) {
            throw new Skip(d, kname + ": limits that are not valid (" + e.getMessage() + ")");
        }
    }

    // ---- values -----------------------------------------------------------------------------------------

    private static JsonValue at(JsonObject d, String key) {
        return d.get(key).orElse(d);
    }

    private static Optional<String> string(JsonObject d, String key) throws Skip {
        Optional<JsonValue> v = d.get(key);
        if (v.isEmpty() || v.get() instanceof JsonNull) {
            return Optional.empty();
        }
        if (v.get() instanceof JsonString s) {
            return Optional.of(s.value());
        }
        throw new Skip(v.get(), "found " + v.get().describe() + " for \"" + key + "\"; expected a string");
    }

    /** A NUM column: a JSON number (2.33+) or a decimal string (older); empty for null or "". */
    private static Optional<Long> number(JsonObject d, String key, String kname) throws Skip {
        Optional<JsonValue> v = d.get(key);
        if (v.isEmpty() || v.get() instanceof JsonNull) {
            return Optional.empty();
        }
        if (v.get() instanceof JsonNumber n) {
            if (!n.isInteger() || n.text().length() > 20) {
                throw new Skip(n, kname + ": found " + n.describe() + " for \"" + key + "\"; expected a whole number");
            }
            try {
                return Optional.of(n.longValueExact());
            } catch (JsonException e) {
                throw new Skip(n, kname + ": \"" + key + "\": " + e.problem());
            }
        }
        if (v.get() instanceof JsonString s) {
            if (s.value().isEmpty()) {
                return Optional.empty();
            }
            if (!DECIMAL.matcher(s.value()).matches()) {
                throw new Skip(s, kname + ": found " + s.describe() + " for \"" + key + "\"; expected a whole number"
                        + (HUMAN.matcher(s.value()).matches() ? " (run lsblk with --bytes)" : ""));
            }
            return Optional.of(Long.parseLong(s.value()));
        }
        throw new Skip(v.get(), kname + ": found " + v.get().describe() + " for \"" + key + "\"; expected a number");
    }

    /** A SIZE column in bytes (--bytes), non-negative, a whole number of sectors where {@code sectors}. */
    private static long bytes(JsonObject d, String key, String kname, boolean sectors) throws Skip {
        long v = number(d, key, kname).orElseThrow(() -> new Skip(at(d, key), kname + ": no \"" + key
                + "\"; expected the value in bytes (lsblk --bytes --output-all)"));
        if (v < 0) {
            throw new Skip(at(d, key), kname + ": \"" + key + "\" " + v + " is negative");
        }
        if (sectors && v % Sectors.SECTOR_SIZE != 0) {
            throw new Skip(at(d, key), kname + ": \"" + key + "\" " + v + " bytes is not a whole number of 512-byte "
                    + "sectors");
        }
        return v;
    }

    /** A BOOL column: true/false (newer), 1/0 or "1"/"0" (older). */
    private static Optional<Boolean> bool(JsonObject d, String key, String kname) throws Skip {
        Optional<JsonValue> v = d.get(key);
        if (v.isEmpty() || v.get() instanceof JsonNull) {
            return Optional.empty();
        }
        if (v.get() instanceof JsonBoolean b) {
            return Optional.of(b.value());
        }
        String s = v.get() instanceof JsonNumber n ? n.text() : v.get() instanceof JsonString str ? str.value() : "?";
        return switch (s) {
            case "1" -> Optional.of(true);
            case "0" -> Optional.of(false);
            case "" -> Optional.empty();
            default -> throw new Skip(v.get(), kname + ": found " + v.get().describe() + " for \"" + key
                    + "\"; expected true, false, 1 or 0");
        };
    }

    private static DevNumber devNumber(JsonObject d, String kname) throws Skip {
        Optional<String> mm = string(d, "maj:min");
        if (mm.isEmpty()) {
            throw new Skip(d, kname + ": no \"maj:min\"; expected the device number (lsblk --output-all)");
        }
        try {
            return DevNumber.parse(mm.get());
        } catch (IllegalArgumentException e) {
            throw new Skip(at(d, "maj:min"), kname + ": found \"" + mm.get() + "\" for \"maj:min\"; expected "
                    + "major:minor (" + e.getMessage() + ")");
        }
    }
}
