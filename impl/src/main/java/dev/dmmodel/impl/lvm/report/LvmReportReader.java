package dev.dmmodel.impl.lvm.report;

import dev.dmmodel.impl.format.json.JsonException;
import dev.dmmodel.impl.format.json.JsonReader;
import dev.dmmodel.impl.format.json.JsonValue;
import dev.dmmodel.impl.format.json.JsonValue.JsonArray;
import dev.dmmodel.impl.format.json.JsonValue.JsonNull;
import dev.dmmodel.impl.format.json.JsonValue.JsonNumber;
import dev.dmmodel.impl.format.json.JsonValue.JsonObject;
import dev.dmmodel.impl.format.json.JsonValue.JsonString;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Builds {@link VolumeGroup}s from LVM's JSON reports ({@code --reportformat json} or {@code json_std}), as
 * {@code tools/reporter.c} and {@code libdm/libdm-report.c} print them (see {@code lvm2-semantics.md} §5):
 * either one {@code lvm fullreport} text, or the texts of {@code pvs}, {@code lvs -a --segments} and,
 * optionally, {@code vgs}.
 *
 * <p><b>Input.</b> The top level is an object whose {@code "report"} array holds objects of sub-reports
 * ({@code "vg"}, {@code "pv"}, {@code "lv"}, {@code "pvseg"}, {@code "seg"}), each an array of rows; a
 * sub-report key may repeat, its rows are taken in order. Other top-level keys, such as the {@code "log"}
 * array LVM prints since 2.03.26, are ignored. In {@code json} every value is a string; in {@code json_std}
 * (2.03.17) numbers are bare, undefined numbers {@code null} and lists real arrays. Sizes must be exact:
 * {@code --units s} ({@code "2048S"}) or {@code --units b}; a human size ({@code "4.00m"}) is accepted only
 * where it names one exact value for the field (see {@link ReportSize}), never a rounded one such as
 * {@code "<10.00g"}. Hidden LVs are bracketed ({@code [pool_tdata]}), as {@code -a} prints them.
 *
 * <p><b>Columns.</b> PV rows need {@code pv_name}, {@code vg_name} (implied in a fullreport), {@code dev_size},
 * {@code pe_start} and {@code pv_pe_count}; the VG needs {@code vg_extent_size} (from the vgs rows, else from
 * any row that carries it) and {@code vg_allocation_policy} or {@code vg_attr}; segment rows need
 * {@code lv_name} (or, in a fullreport, {@code lv_uuid}), {@code segtype}, {@code seg_start_pe} (or
 * {@code seg_start}), {@code seg_size_pe} (or {@code seg_size}), {@code stripes}, {@code stripe_size}, the
 * areas as {@code devices}, {@code seg_pe_ranges} or {@code seg_le_ranges} (string or array form), and for
 * thin pools {@code data_lv}, {@code metadata_lv}, {@code transaction_id}, {@code chunk_size}, {@code discards},
 * {@code zero}, {@code lv_when_full}, for thin LVs {@code pool_lv}, {@code thin_id}, {@code transaction_id},
 * {@code origin}, for RAID LVs ({@code raid1}, {@code raid4}, {@code raid5*}, {@code raid6*}, {@code raid10})
 * {@code stripes} (the device count), {@code stripe_size}, {@code region_size}, {@code devices} (the images),
 * {@code metadata_devices}, {@code data_copies} (raid10) and {@code lv_initial_image_sync} or {@code lv_attr}
 * (empty, or {@code R}: created {@code --nosync}); {@code lv_skip_activation} or {@code lv_attr} for every LV. A missing column is an error
 * that names it and the option that adds it ({@code -o +seg_pe_ranges}, or {@code -o +all}).
 *
 * <p><b>Output.</b> As {@code impl.lvm.text.VgMetadataReader} builds them from the same VG's metadata, with
 * what reports do not show left as that reader leaves it: metadata-area sizes zero, LVs inactive (empty
 * {@code dmDevice}). The order differs where reports sort: PVs in the order of the pvs rows (sorted by
 * {@code pv_name}), LVs in the order of their first segment row (sorted by {@code vg_name,lv_name}), not in
 * metadata order. Segment types other than {@code linear}, {@code striped}, {@code thin-pool}, {@code thin},
 * {@code cache-pool}, {@code cache}, {@code writecache} and the RAID types are reported as an error naming the LV
 * and the type, never dropped. Orphan PVs ({@code vg_name ""}) are
 * skipped.
 *
 * <p>In a fullreport ({@code tools/reporter.c: _report_all_in_vg}) the report array holds one object per VG whose
 * rows do not repeat the VG: PV and segment rows take {@code vg_name} and the other VG columns from the object's
 * single {@code vg} row, and a segment row ({@code seg_all,lv_uuid}) takes its LV's columns ({@code lv_name},
 * {@code pool_lv}, {@code data_lv}...) from the {@code lv} row with the same {@code lv_uuid}. {@code pvs -o all}
 * prints no {@code vg_name}: with one VG in the reports its PV rows with extents are taken as that VG's (checked
 * against {@code pv_count}), with several the error asks for {@code -o +vg_name}.
 *
 * <p>Every problem, JSON syntax included, is an {@link LvmMetadataException} with {@code source:line:column}.
 */
public final class LvmReportReader {

    private static final java.util.regex.Pattern DECIMAL = java.util.regex.Pattern.compile("-?[0-9]{1,19}");
    private static final java.util.regex.Pattern EXTENT = java.util.regex.Pattern.compile("[0-9]{1,18}");

    /** One report text and the name to use for it in messages. */
    public record Text(String json, String source) {
        /** Checks the parts. */
        public Text {
            Objects.requireNonNull(json, "json");
            Objects.requireNonNull(source, "source");
        }
    }

    private LvmReportReader() {
    }

    /**
     * Reads {@code lvm fullreport --reportformat json --units s} output.
     *
     * @param text the whole output
     * @param source the file name for messages
     * @return the volume groups, in report order
     * @throws LvmMetadataException on any problem
     */
    public static List<VolumeGroup> readFullReport(String text, String source) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        Builder b = new Builder();
        JsonArray reports = reportArray(parse(text, source));
        for (JsonValue item : reports.items()) {
            JsonObject o = object(item, "a report object (with \"vg\", \"pv\", \"lv\", \"pvseg\", \"seg\" arrays)");
            List<JsonObject> vgRows = rows(o, "vg");
            // tools/reporter.c: _report_all_in_vg: one object per VG, so rows need not name it
            Optional<JsonObject> implied = vgRows.size() == 1 ? Optional.of(vgRows.get(0)) : Optional.empty();
            Map<String, JsonObject> lvByUuid = new HashMap<>();
            for (JsonObject lv : rows(o, "lv")) {
                stringField(new Row(lv, Optional.empty(), Optional.empty()), "lv_uuid")
                        .filter(u -> !u.isEmpty()).ifPresent(u -> lvByUuid.putIfAbsent(u, lv));
            }
            for (JsonObject vg : vgRows) {
                b.vgRows.add(new Row(vg, Optional.empty(), Optional.empty()));
            }
            for (JsonObject pv : rows(o, "pv")) {
                b.pvRows.add(new Row(pv, Optional.empty(), implied));
            }
            for (JsonObject seg : rows(o, "seg")) {
                Row plain = new Row(seg, Optional.empty(), Optional.empty());
                Optional<JsonObject> lv = Optional.empty();
                Optional<String> uuid = stringField(plain, "lv_uuid");
                if (uuid.isPresent() && !uuid.get().isEmpty()) {
                    lv = Optional.ofNullable(lvByUuid.get(uuid.get()));
                    if (lv.isEmpty() && plain.get("lv_name").isEmpty()) {
                        throw error(seg, "segment row of LV UUID " + uuid.get() + ", which no \"lv\" row of this "
                                + "report object has");
                    }
                }
                b.segRows.add(new Row(seg, lv, implied));
            }
            rows(o, "pvseg"); // checked for shape; PV segments repeat what the LV segments say
        }
        return b.build();
    }

    /**
     * Reads the reports of {@code pvs -o +all --units s}, {@code vgs -o +all --units s} (optional) and
     * {@code lvs -a --segments -o +all --units s}, each with {@code --reportformat json}.
     *
     * @param pvs the pvs output
     * @param vgs the vgs output, if any
     * @param lvsSegments the lvs output ({@code "seg"} rows, or {@code "lv"} rows that carry segment fields)
     * @return the volume groups, in vgs order (without vgs: in pvs order)
     * @throws LvmMetadataException on any problem
     */
    public static List<VolumeGroup> read(Text pvs, Optional<Text> vgs, Text lvsSegments) {
        Objects.requireNonNull(pvs, "pvs");
        Objects.requireNonNull(vgs, "vgs");
        Objects.requireNonNull(lvsSegments, "lvsSegments");
        Builder b = new Builder();
        if (vgs.isPresent()) {
            for (JsonObject o : reportObjects(vgs.get())) {
                rows(o, "vg").forEach(r -> b.vgRows.add(new Row(r, Optional.empty(), Optional.empty())));
            }
        }
        for (JsonObject o : reportObjects(pvs)) {
            rows(o, "pv").forEach(r -> b.pvRows.add(new Row(r, Optional.empty(), Optional.empty())));
        }
        for (JsonObject o : reportObjects(lvsSegments)) {
            rows(o, "seg").forEach(r -> b.segRows.add(new Row(r, Optional.empty(), Optional.empty())));
            rows(o, "lv").forEach(r -> b.segRows.add(new Row(r, Optional.empty(), Optional.empty())));
        }
        return b.build();
    }

    /**
     * As {@link #read(Text, Optional, Text)}, the texts named {@code source (pvs)}, {@code source (vgs)} and
     * {@code source (lvs)} in messages.
     *
     * @param pvsJson the pvs output
     * @param vgsJson the vgs output, or null
     * @param lvsSegmentsJson the lvs --segments output
     * @param source a name for messages
     * @throws LvmMetadataException on any problem
     */
    public static List<VolumeGroup> read(String pvsJson, String vgsJson, String lvsSegmentsJson, String source) {
        Objects.requireNonNull(pvsJson, "pvsJson");
        Objects.requireNonNull(lvsSegmentsJson, "lvsSegmentsJson");
        Objects.requireNonNull(source, "source");
        return read(new Text(pvsJson, source + " (pvs)"),
                Optional.ofNullable(vgsJson).map(v -> new Text(v, source + " (vgs)")),
                new Text(lvsSegmentsJson, source + " (lvs)"));
    }

    // ---- JSON shape -----------------------------------------------------------------------------------

    private static JsonValue parse(String text, String source) {
        try {
            return JsonReader.parse(text, source);
        } catch (JsonException e) {
            LvmMetadataException m = new LvmMetadataException(e.source(), e.line(), e.column(), e.problem());
            m.initCause(e);
            throw m;
        }
    }

    private static List<JsonObject> reportObjects(Text t) {
        List<JsonObject> out = new ArrayList<>();
        for (JsonValue item : reportArray(parse(t.json(), t.source())).items()) {
            out.add(object(item, "a report object (with a \"vg\", \"pv\", \"lv\" or \"seg\" array)"));
        }
        return out;
    }

    // libdm/libdm-report.c: dm_report_group_create (JSON): {"report": [ ... ] [, "log": [ ... ]]}
    private static JsonArray reportArray(JsonValue root) {
        JsonObject top = object(root, "an object with a \"report\" array (--reportformat json)");
        List<JsonValue> reports = top.getAll("report");
        if (reports.isEmpty()) {
            throw error(top, "found no \"report\" member; expected {\"report\": [...]} as --reportformat json "
                    + "prints");
        }
        if (reports.size() > 1) {
            throw error(reports.get(1), "found a second \"report\" member; expected one");
        }
        if (!(reports.get(0) instanceof JsonArray a)) {
            throw error(reports.get(0), "found " + reports.get(0).describe() + " for \"report\"; expected an array");
        }
        return a;
    }

    private static JsonObject object(JsonValue v, String expected) {
        if (v instanceof JsonObject o) {
            return o;
        }
        throw error(v, "found " + v.describe() + "; expected " + expected);
    }

    private static List<JsonObject> rows(JsonObject o, String key) {
        List<JsonObject> out = new ArrayList<>();
        for (JsonValue v : o.getAll(key)) {
            if (!(v instanceof JsonArray a)) {
                throw error(v, "found " + v.describe() + " for \"" + key + "\"; expected an array of rows");
            }
            for (JsonValue r : a.items()) {
                out.add(object(r, "a row object in \"" + key + "\""));
            }
        }
        return out;
    }

    static LvmMetadataException error(JsonValue at, String problem) {
        return new LvmMetadataException(at.source(), at.line(), at.column(), problem);
    }

    // ---- rows and fields --------------------------------------------------------------------------------

    /** A report row, with the rows it inherits fields from: its LV's row and the report object's VG row. */
    record Row(JsonObject own, Optional<JsonObject> lv, Optional<JsonObject> vg) {
        Optional<JsonValue> get(String field) {
            Optional<JsonValue> v = own.get(field);
            if (v.isEmpty() && lv.isPresent()) {
                v = lv.get().get(field);
            }
            if (v.isEmpty() && vg.isPresent()) {
                v = vg.get().get(field);
            }
            return v;
        }
    }

    /** A field as text: a string, a bare json_std number, empty for null; arrays are refused. */
    private static Optional<String> stringField(Row row, String field) {
        Optional<JsonValue> v = row.get(field);
        if (v.isEmpty()) {
            return Optional.empty();
        }
        JsonValue x = v.get();
        if (x instanceof JsonString s) {
            return Optional.of(s.value());
        }
        if (x instanceof JsonNumber n) {
            return Optional.of(n.text());
        }
        if (x instanceof JsonNull) {
            return Optional.of("");
        }
        throw error(x, "found " + x.describe() + " for \"" + field + "\"; expected a string");
    }

    private static LvmMetadataException missing(Row row, String field, String what, String command) {
        return error(row.own(), "the " + what + " row has no \"" + field + "\" column; re-run " + command
                + " with -o +" + field + " (or -o +all)");
    }

    private static String requireString(Row row, String field, String what, String command) {
        return stringField(row, field).orElseThrow(() -> missing(row, field, what, command));
    }

    private static JsonValue at(Row row, String field) {
        return row.get(field).orElse(row.own());
    }

    /** A NUM field: a decimal string or a json_std number; empty when undefined ("" or null). */
    private static Optional<Long> number(Row row, String field) {
        Optional<JsonValue> v = row.get(field);
        if (v.isEmpty() || v.get() instanceof JsonNull) {
            return Optional.empty();
        }
        if (v.get() instanceof JsonNumber n) {
            try {
                return Optional.of(n.longValueExact());
            } catch (JsonException e) {
                throw error(n, "\"" + field + "\": " + e.problem());
            }
        }
        String s = stringField(row, field).orElse("");
        if (s.isEmpty()) {
            return Optional.empty();
        }
        if (!DECIMAL.matcher(s).matches()) {
            throw error(v.get(), "found " + v.get().describe() + " for \"" + field + "\"; expected a whole number");
        }
        try {
            return Optional.of(Long.parseLong(s));
        } catch (NumberFormatException e) {
            throw error(v.get(), "found " + v.get().describe() + " for \"" + field + "\"; expected a number in "
                    + Long.MIN_VALUE + ".." + Long.MAX_VALUE);
        }
    }

    private static long requireCount(Row row, String field, String what, String command) {
        if (row.get(field).isEmpty()) {
            throw missing(row, field, what, command);
        }
        long v = number(row, field).orElseThrow(() -> error(at(row, field), "\"" + field + "\" of the " + what
                + " row is undefined; expected a whole number"));
        if (v < 0) {
            throw error(at(row, field), "found " + v + " for \"" + field + "\" of the " + what
                    + " row; expected a non-negative number");
        }
        return v;
    }

    /** A SIZ field in sectors; empty when undefined. */
    private static Optional<Long> size(Row row, String field, ReportSize.Context context) {
        Optional<JsonValue> v = row.get(field);
        if (v.isEmpty()) {
            return Optional.empty();
        }
        if (v.get() instanceof JsonNumber n) {
            throw error(n, "found the bare number " + n.text() + " for the size \"" + field + "\"; expected a size "
                    + "with its unit such as \"2048S\" (--units s)");
        }
        String s = stringField(row, field).orElse("");
        try {
            return ReportSize.sectors(s, context);
        } catch (ReportSize.BadSize e) {
            throw error(v.get(), "found " + v.get().describe() + " for \"" + field + "\": " + e.getMessage());
        }
    }

    private static long requireSize(Row row, String field, ReportSize.Context context, String what,
                                    String command) {
        if (row.get(field).isEmpty()) {
            throw missing(row, field, what, command);
        }
        return size(row, field, context).orElseThrow(() -> error(at(row, field), "\"" + field + "\" of the " + what
                + " row is empty; expected a size such as \"2048S\""));
    }

    /** A list field: a json_std array of strings, or the json string joined with {@code separator}. */
    private static Optional<List<String>> list(Row row, String field, String separator) {
        Optional<JsonValue> v = row.get(field);
        if (v.isEmpty() || v.get() instanceof JsonNull) {
            return v.isEmpty() ? Optional.empty() : Optional.of(List.of());
        }
        if (v.get() instanceof JsonArray a) {
            List<String> out = new ArrayList<>();
            for (JsonValue item : a.items()) {
                if (!(item instanceof JsonString s)) {
                    throw error(item, "found " + item.describe() + " in \"" + field + "\"; expected strings");
                }
                out.add(s.value());
            }
            return Optional.of(out);
        }
        String s = stringField(row, field).orElse("");
        if (s.isEmpty()) {
            return Optional.of(List.of());
        }
        return Optional.of(List.of(s.split(separator, -1)));
    }

    private static String unbracket(String name) {
        return name.length() >= 2 && name.startsWith("[") && name.endsWith("]")
                ? name.substring(1, name.length() - 1) : name;
    }

    private static String device(String pvName) {
        return pvName.startsWith("/dev/") ? pvName.substring("/dev/".length()) : pvName;
    }

    // ---- building -----------------------------------------------------------------------------------------

    private static final class Builder {
        final List<Row> vgRows = new ArrayList<>();
        final List<Row> pvRows = new ArrayList<>();
        final List<Row> segRows = new ArrayList<>();

        List<VolumeGroup> build() {
            Map<String, Row> vgs = new LinkedHashMap<>();
            for (Row r : vgRows) {
                String name = requireString(r, "vg_name", "vg", "vgs");
                if (name.isEmpty()) {
                    continue;
                }
                Row first = vgs.putIfAbsent(name, r);
                if (first != null) {
                    throw error(r.own(), "a second vg row for volume group " + name + " (the first at line "
                            + first.own().line() + ")");
                }
            }
            Map<String, List<Row>> pvsByVg = new LinkedHashMap<>();
            List<Row> unnamed = new ArrayList<>();
            for (Row r : pvRows) {
                Optional<String> vg = stringField(r, "vg_name");
                if (vg.isEmpty()) {
                    unnamed.add(r);
                } else if (!vg.get().isEmpty()) {
                    pvsByVg.computeIfAbsent(vg.get(), k -> new ArrayList<>()).add(r);
                }
            }
            Map<String, List<Row>> segsByVg = new LinkedHashMap<>();
            for (Row r : segRows) {
                String vg = requireString(r, "vg_name", "lv segment", "lvs");
                if (vg.isEmpty()) {
                    throw error(at(r, "vg_name"), "an LV segment row with an empty vg_name");
                }
                segsByVg.computeIfAbsent(vg, k -> new ArrayList<>()).add(r);
            }
            List<String> names = new ArrayList<>(vgs.keySet());
            for (String vg : pvsByVg.keySet()) {
                if (!names.contains(vg)) {
                    names.add(vg);
                }
            }
            for (String vg : segsByVg.keySet()) {
                if (!names.contains(vg)) {
                    names.add(vg);
                }
            }
            if (!unnamed.isEmpty()) {
                assignUnnamed(unnamed, names, vgs, pvsByVg, segsByVg);
            }
            for (Map.Entry<String, List<Row>> e : segsByVg.entrySet()) {
                if (!pvsByVg.containsKey(e.getKey())) {
                    throw error(e.getValue().get(0).own(), "LV segments of volume group " + e.getKey()
                            + ", which has no pv row; expected the pvs report of that VG");
                }
            }
            List<VolumeGroup> out = new ArrayList<>();
            for (String name : names) {
                List<Row> pvs = pvsByVg.getOrDefault(name, List.of());
                if (pvs.isEmpty()) {
                    JsonValue where = vgs.containsKey(name) ? vgs.get(name).own() : segsByVg.get(name).get(0).own();
                    throw error(where, "volume group " + name + " has no pv row; expected the pvs report of its PVs");
                }
                out.add(new VgBuilder(name, Optional.ofNullable(vgs.get(name)), pvs,
                        segsByVg.getOrDefault(name, List.of())).build());
            }
            return List.copyOf(out);
        }
    }

    /**
     * PV rows without {@code vg_name} ({@code pvs -o all} leaves it out): with one VG in the reports, the rows
     * with extents ({@code pv_pe_count > 0}; orphans have none) are its PVs, checked against its
     * {@code pv_count} where a row shows it; with several VGs the PVs cannot be told apart.
     */
    private static void assignUnnamed(List<Row> unnamed, List<String> names, Map<String, Row> vgs,
                                      Map<String, List<Row>> pvsByVg, Map<String, List<Row>> segsByVg) {
        List<Row> pvs = new ArrayList<>();
        for (Row r : unnamed) {
            if (requireCount(r, "pv_pe_count", "pv", "pvs") > 0) {
                pvs.add(r);
            }
        }
        if (pvs.isEmpty()) {
            return;
        }
        if (names.size() != 1) {
            throw error(pvs.get(0).own(), "the pv rows have no \"vg_name\" column and the reports show "
                    + (names.isEmpty() ? "no volume group" : names.size() + " volume groups " + names)
                    + "; re-run pvs with -o +vg_name (or -o +all)");
        }
        String vg = names.get(0);
        List<Row> all = pvsByVg.computeIfAbsent(vg, k -> new ArrayList<>());
        all.addAll(pvs);
        List<Row> withCount = new ArrayList<>();
        if (vgs.containsKey(vg)) {
            withCount.add(vgs.get(vg));
        }
        withCount.addAll(segsByVg.getOrDefault(vg, List.of()));
        for (Row r : withCount) {
            Optional<Long> count = number(r, "pv_count");
            if (count.isPresent()) {
                if (count.get() != all.size()) {
                    throw error(at(r, "pv_count"), "volume group " + vg + " has pv_count " + count.get() + " but "
                            + all.size() + " pv rows with extents and no vg_name; re-run pvs with -o +vg_name "
                            + "(or -o +all)");
                }
                return;
            }
        }
    }

    /** One VG from its rows. */
    private static final class VgBuilder {
        private final String name;
        private final Optional<Row> vgRow;
        private final List<Row> pvRows;
        private final List<Row> segRows;
        private final Map<String, PhysicalVolume> pvs = new LinkedHashMap<>();
        private long extent;

        VgBuilder(String name, Optional<Row> vgRow, List<Row> pvRows, List<Row> segRows) {
            this.name = name;
            this.vgRow = vgRow;
            this.pvRows = pvRows;
            this.segRows = segRows;
        }

        // the VG fields from the vg row, else from the first PV or segment row that carries them
        private Row vgFieldRow(String field) {
            if (vgRow.isPresent()) {
                return vgRow.get();
            }
            for (Row r : pvRows) {
                if (r.get(field).isPresent()) {
                    return r;
                }
            }
            for (Row r : segRows) {
                if (r.get(field).isPresent()) {
                    return r;
                }
            }
            return pvRows.get(0);
        }

        VolumeGroup build() {
            Row er = vgFieldRow("vg_extent_size");
            extent = requireSize(er, "vg_extent_size", ReportSize.Context.POWER_OF_TWO, "vg", "vgs");
            if (extent <= 0) {
                throw error(at(er, "vg_extent_size"), "vg_extent_size of volume group " + name
                        + " must be positive, found 0");
            }
            AllocationPolicy policy = policy();
            for (Row r : pvRows) {
                PhysicalVolume pv = pv(r);
                if (pvs.putIfAbsent(pv.device(), pv) != null) {
                    throw error(r.own(), "a second pv row for " + pv.device() + " in volume group " + name);
                }
            }
            List<LogicalVolume> lvs = new LvBuilder().build();
            try {
                return new VolumeGroup(name, Sectors.of(extent), List.copyOf(pvs.values()), lvs, policy);
            } catch (IllegalArgumentException e) {
                throw wrap(vgRow.map(Row::own).orElse(pvRows.get(0).own()), e);
            }
        }

        // lib/display/display.c: get_alloc_from_string, and the 5th vg_attr character (lib/report/report.c)
        private AllocationPolicy policy() {
            Row r = vgFieldRow("vg_allocation_policy");
            Optional<String> word = stringField(r, "vg_allocation_policy");
            if (word.isPresent()) {
                return switch (word.get()) {
                    case "contiguous" -> AllocationPolicy.CONTIGUOUS;
                    case "cling" -> AllocationPolicy.CLING;
                    case "normal" -> AllocationPolicy.NORMAL;
                    case "anywhere" -> AllocationPolicy.ANYWHERE;
                    default -> throw error(at(r, "vg_allocation_policy"), "allocation policy \"" + word.get()
                            + "\" of volume group " + name + " is not modelled (expected contiguous, cling, normal "
                            + "or anywhere)");
                };
            }
            Row ar = vgFieldRow("vg_attr");
            Optional<String> attr = stringField(ar, "vg_attr");
            if (attr.isEmpty()) {
                throw error(r.own(), "no \"vg_allocation_policy\" or \"vg_attr\" column for volume group " + name
                        + "; re-run vgs with -o +vg_allocation_policy (or -o +all)");
            }
            // vg_attr: 6 characters, a 7th (persistent reservation) since 2.03.37
            String a = attr.get();
            if (a.length() != 6 && a.length() != 7) {
                throw error(at(ar, "vg_attr"), "found vg_attr \"" + a + "\"; expected 6 or 7 characters");
            }
            return switch (a.charAt(4)) {
                case 'c' -> AllocationPolicy.CONTIGUOUS;
                case 'l' -> AllocationPolicy.CLING;
                case 'n' -> AllocationPolicy.NORMAL;
                case 'a' -> AllocationPolicy.ANYWHERE;
                default -> throw error(at(ar, "vg_attr"), "allocation character '" + a.charAt(4) + "' of vg_attr \""
                        + a + "\" of volume group " + name + " is not modelled (expected c, l, n or a)");
            };
        }

        private PhysicalVolume pv(Row r) {
            String pvName = requireString(r, "pv_name", "pv", "pvs");
            if (pvName.isEmpty()) {
                throw error(at(r, "pv_name"), "a pv row with an empty pv_name");
            }
            String what = "pv " + pvName;
            long devSize = requireSize(r, "dev_size", ReportSize.Context.ANY, what, "pvs");
            long peStart = requireSize(r, "pe_start", ReportSize.Context.ANY, what, "pvs");
            long peCount = requireCount(r, "pv_pe_count", what, "pvs");
            // model invariant (the data area lies on the device), as impl.lvm.text.VgMetadataReader checks it
            if (devSize > 0) {
                long end;
                try {
                    end = Math.addExact(peStart, Math.multiplyExact(peCount, extent));
                } catch (ArithmeticException e) {
                    throw error(at(r, "pv_pe_count"), "pv_pe_count " + peCount + " of " + what + " overflows");
                }
                if (end > devSize) {
                    throw error(at(r, "pv_pe_count"), "the " + peCount + " extents of " + what + " end at sector "
                            + end + ", beyond dev_size " + devSize);
                }
            }
            try {
                return new PhysicalVolume(device(pvName), Sectors.of(devSize), Sectors.of(peStart), Sectors.ZERO,
                        Sectors.ZERO, name, peCount, Sectors.of(extent));
            } catch (IllegalArgumentException e) {
                throw wrap(r.own(), e);
            }
        }

        private static LvmMetadataException wrap(JsonValue at, IllegalArgumentException e) {
            if (e instanceof LvmMetadataException m) {
                return m;
            }
            LvmMetadataException m = error(at, String.valueOf(e.getMessage()));
            m.initCause(e);
            return m;
        }

        /** The LVs: segment rows grouped by LV, then roles from references, as VgMetadataReader does. */
        private final class LvBuilder {
            private final Map<String, List<Row>> rowsByLv = new LinkedHashMap<>();
            private final Map<String, Boolean> hidden = new HashMap<>();

            List<LogicalVolume> build() {
                for (Row r : segRows) {
                    String shown = requireString(r, "lv_name", "lv segment", "lvs");
                    String lv = unbracket(shown);
                    if (lv.isEmpty()) {
                        throw error(at(r, "lv_name"), "an LV segment row with an empty lv_name");
                    }
                    boolean h = !lv.equals(shown);
                    Boolean before = hidden.putIfAbsent(lv, h);
                    if (before != null && before != h) {
                        throw error(at(r, "lv_name"), "LV " + name + "/" + lv + " is shown both with and without "
                                + "brackets");
                    }
                    rowsByLv.computeIfAbsent(lv, k -> new ArrayList<>()).add(r);
                }
                Map<String, List<LvSegment>> segments = new LinkedHashMap<>();
                Map<String, Row> poolOfData = new HashMap<>();
                Map<String, Row> poolOfMetadata = new HashMap<>();
                Map<String, LvRole> subRoles = new HashMap<>();
                for (Map.Entry<String, List<Row>> e : rowsByLv.entrySet()) {
                    List<Row> rows = new ArrayList<>(e.getValue());
                    List<long[]> bounds = new ArrayList<>();
                    for (Row r : rows) {
                        bounds.add(new long[] {start(r, e.getKey()), 0});
                    }
                    List<Integer> order = new ArrayList<>();
                    for (int i = 0; i < rows.size(); i++) {
                        order.add(i);
                    }
                    order.sort(Comparator.comparingLong(i -> bounds.get(i)[0]));
                    List<LvSegment> segs = new ArrayList<>();
                    long le = 0;
                    for (int i : order) {
                        Row r = rows.get(i);
                        long start = bounds.get(i)[0];
                        // lib/metadata/merge.c: check_lv_segments (segments follow each other without gaps)
                        if (start != le) {
                            throw error(at(r, "seg_start_pe"), "LV " + name + "/" + e.getKey() + " invalid: the "
                                    + "segment should begin at LE " + le + " (found " + start + ")");
                        }
                        LvSegment s = segment(r, e.getKey(), start);
                        segs.add(s);
                        le = s.endExtent();
                        if (s.thinPool().isPresent()) {
                            reference(poolOfData, s.thinPool().get().dataLv(), r, "data");
                            reference(poolOfMetadata, s.thinPool().get().metadataLv(), r, "metadata");
                        }
                        // lib/metadata/lv.c: lv_layout_and_role — the sub-LVs a cache, cache pool or writecache names
                        if (s.type() instanceof SegmentType.CachePool x) {
                            subRole(subRoles, x.dataLv(), LvRole.CACHE_POOL_DATA, r);
                            subRole(subRoles, x.metadataLv(), LvRole.CACHE_POOL_METADATA, r);
                        } else if (s.type() instanceof SegmentType.Cache x) {
                            subRole(subRoles, x.cachePool(), LvRole.CACHE_POOL_IN_USE, r);
                            subRole(subRoles, x.origin(), LvRole.CACHE_ORIGIN, r);
                        } else if (s.type() instanceof SegmentType.Writecache x) {
                            subRole(subRoles, x.writecache(), LvRole.CACHE_VOLUME, r);
                            subRole(subRoles, x.origin(), LvRole.WRITECACHE_ORIGIN, r);
                        } else if (s.type() instanceof SegmentType.Raid x) {
                            for (int d = 0; d < x.deviceCount(); d++) {
                                subRole(subRoles, x.metadataLvs().get(d), LvRole.RAID_METADATA, r);
                                subRole(subRoles, x.imageLvs().get(d), LvRole.RAID_IMAGE, r);
                            }
                        }
                    }
                    segments.put(e.getKey(), segs);
                }
                List<LogicalVolume> out = new ArrayList<>();
                boolean spare = false;
                for (Map.Entry<String, List<LvSegment>> e : segments.entrySet()) {
                    String lv = e.getKey();
                    String full = name + "/" + lv;
                    Row first = rowsByLv.get(lv).get(0);
                    List<LvSegment> segs = e.getValue();
                    boolean visible = !hidden.get(lv);
                    LvRole role;
                    // lib/metadata/lv.c: lv_layout_and_role (roles from segment types, references, _pmspare)
                    if (subRoles.containsKey(lv)) {
                        role = subRoles.get(lv);
                    } else if (segs.get(0).type() instanceof SegmentType.CachePool) {
                        role = LvRole.CACHE_POOL;
                    } else if (segs.get(0).type() instanceof SegmentType.Cache) {
                        role = LvRole.CACHED;
                    } else if (segs.get(0).type() instanceof SegmentType.Writecache) {
                        role = LvRole.WRITECACHED;
                    } else if (segs.get(0).type() instanceof SegmentType.Raid) {
                        role = LvRole.RAID;
                    } else if (poolOfData.containsKey(lv) && poolOfMetadata.containsKey(lv)) {
                        throw error(first.own(), "LV " + full + " is both a thin pool's data and metadata LV");
                    } else if (poolOfData.containsKey(lv)) {
                        role = LvRole.THIN_POOL_DATA;
                    } else if (poolOfMetadata.containsKey(lv)) {
                        role = LvRole.THIN_POOL_METADATA;
                    } else if (segs.get(0).thinPool().isPresent()) {
                        role = LvRole.THIN_POOL;
                    } else if (segs.get(0).thin().isPresent()) {
                        role = LvRole.THIN_VOLUME;
                    } else if (!visible && lv.endsWith("_pmspare")) {
                        role = LvRole.POOL_METADATA_SPARE;
                        // lib/metadata/merge.c: check_lv_segments_complete_vg (at most one pool metadata spare)
                        if (spare) {
                            throw error(first.own(), "LV " + full + " is a second pool metadata spare");
                        }
                        spare = true;
                    } else if (visible) {
                        role = LvRole.PUBLIC;
                    } else {
                        throw error(first.own(), "hidden LV " + full + " has no role this model knows (not a thin "
                                + "pool's data or metadata LV, not a *_pmspare)");
                    }
                    if (role.visible() != visible) {
                        throw error(at(first, "lv_name"), "LV " + full + " of role " + role + " must "
                                + (role.visible() ? "not " : "") + "be shown in brackets");
                    }
                    if (segs.get(0).thinPool().isPresent()) {
                        SegmentType.ThinPool p = segs.get(0).thinPool().get();
                        for (String sub : List.of(p.dataLv(), p.metadataLv())) {
                            if (!segments.containsKey(sub)) {
                                throw error(first.own(), "thin pool " + full + " uses LV " + sub + ", which has no "
                                        + "segment row; re-run lvs with -a");
                            }
                        }
                        List<LvSegment> data = segments.get(p.dataLv());
                        long dataLen = data.get(data.size() - 1).endExtent();
                        // lib/metadata/merge.c: check_lv_segments (a pool's data LV is as long as the pool)
                        if (dataLen != segs.get(0).extentCount()) {
                            throw error(first.own(), "LV " + full + ": segment 1 with len="
                                    + segs.get(0).extentCount() + " has inconsistent area_len " + dataLen
                                    + " (data LV " + p.dataLv() + ")");
                        }
                    }
                    if (segs.get(0).type() instanceof SegmentType.Raid x) {
                        long areaLen = x.imageExtents(segs.get(0).extentCount());
                        for (String sub : java.util.stream.Stream.concat(x.metadataLvs().stream(),
                                x.imageLvs().stream()).toList()) {
                            if (!segments.containsKey(sub)) {
                                throw error(first.own(), "RAID LV " + full + " uses LV " + sub + ", which has no "
                                        + "segment row; re-run lvs with -a");
                            }
                        }
                        for (String image : x.imageLvs()) {
                            List<LvSegment> imageSegs = segments.get(image);
                            long len = imageSegs.get(imageSegs.size() - 1).endExtent();
                            // lib/metadata/merge.c: check_lv_segments (each image as long as the area_len)
                            if (len != areaLen) {
                                throw error(first.own(), "LV " + full + ": segment 1 with len="
                                        + segs.get(0).extentCount() + " has inconsistent area_len " + areaLen + " ("
                                        + x.raidType() + " image " + image + " has " + len + " extents)");
                            }
                        }
                    }
                    if (segs.get(0).thin().isPresent()) {
                        String pool = segs.get(0).thin().get().pool();
                        List<LvSegment> poolSegs = segments.get(pool);
                        if (poolSegs == null || poolSegs.get(0).thinPool().isEmpty()) {
                            throw error(at(first, "pool_lv"), "LV " + full + ": pool_lv \"" + pool
                                    + "\" is not a thin pool of this report");
                        }
                        Optional<String> origin = segs.get(0).thin().get().origin();
                        if (origin.isPresent() && !segments.containsKey(origin.get())) {
                            throw error(at(first, "origin"), "LV " + full + ": origin \"" + origin.get()
                                    + "\" is not an LV of this report");
                        }
                    }
                    try {
                        out.add(new LogicalVolume(name, lv, segs, "", role, flags(first, full, role)));
                    } catch (IllegalArgumentException ex) {
                        throw wrap(first.own(), ex);
                    }
                }
                return out;
            }

            // lib/metadata/lv_manip.c: an LV is the sub-LV of one LV only
            private void subRole(Map<String, LvRole> roles, String lv, LvRole role, Row r) {
                LvRole first = roles.putIfAbsent(lv, role);
                if (first != null) {
                    throw error(r.own(), "LV " + name + "/" + lv + " is named as " + role + " and already as " + first);
                }
            }

            private void reference(Map<String, Row> uses, String lv, Row pool, String kind) {
                Row before = uses.putIfAbsent(lv, pool);
                if (before != null) {
                    throw error(pool.own(), "LV " + name + "/" + lv + " is the " + kind + " LV of two thin pools (the "
                            + "other at line " + before.own().line() + ")");
                }
            }

            // lib/report/report.c: _lvskipactivation_disp / lv_attr char 10 'k'; _lvwhenfull_disp
            private Set<LvFlag> flags(Row r, String full, LvRole role) {
                Set<LvFlag> flags = EnumSet.noneOf(LvFlag.class);
                Optional<String> skip = stringField(r, "lv_skip_activation");
                if (skip.isPresent()) {
                    if (!skip.get().isEmpty() && !skip.get().equals("0")) {
                        flags.add(LvFlag.ACTIVATION_SKIP);
                    }
                } else {
                    String attr = stringField(r, "lv_attr").orElseThrow(() -> error(r.own(), "no "
                            + "\"lv_skip_activation\" or \"lv_attr\" column for LV " + full + "; re-run lvs with -o "
                            + "+lv_skip_activation (or -o +all)"));
                    if (attr.length() < 10) {
                        throw error(at(r, "lv_attr"), "found lv_attr \"" + attr + "\" for LV " + full
                                + "; expected 10 characters");
                    }
                    if (attr.charAt(9) == 'k') {
                        flags.add(LvFlag.ACTIVATION_SKIP);
                    }
                }
                if (role == LvRole.RAID) {
                    // lib/report/report.c: _lvinitialimagesync_disp ("" when LV_NOTSYNCED), else lv_attr's 'R'
                    Optional<String> sync = stringField(r, "lv_initial_image_sync");
                    if (sync.isPresent()) {
                        if (sync.get().isEmpty() || sync.get().equals("0")) {
                            flags.add(LvFlag.NOTSYNCED);
                        }
                    } else {
                        String attr = stringField(r, "lv_attr").orElseThrow(() -> error(r.own(), "no "
                                + "\"lv_initial_image_sync\" or \"lv_attr\" column for RAID LV " + full + "; re-run lvs "
                                + "with -o +lv_initial_image_sync (or -o +all)"));
                        if (!attr.isEmpty() && attr.charAt(0) == 'R') {
                            flags.add(LvFlag.NOTSYNCED);
                        }
                    }
                }
                if (role == LvRole.THIN_POOL) {
                    String whenFull = requireString(r, "lv_when_full", "thin pool " + full, "lvs");
                    switch (whenFull) {
                        case "error" -> flags.add(LvFlag.ERROR_WHEN_FULL);
                        case "queue" -> { }
                        default -> throw error(at(r, "lv_when_full"), "found lv_when_full \"" + whenFull
                                + "\" for thin pool " + full + "; expected error or queue");
                    }
                }
                return flags;
            }

            private long start(Row r, String lv) {
                if (r.get("seg_start_pe").isPresent()) {
                    return requireCount(r, "seg_start_pe", "segment of LV " + name + "/" + lv, "lvs");
                }
                if (r.get("seg_start").isPresent()) {
                    return extents(r, "seg_start", requireSize(r, "seg_start", ReportSize.Context.ANY,
                            "segment of LV " + name + "/" + lv, "lvs"));
                }
                throw missing(r, "seg_start_pe", "segment of LV " + name + "/" + lv, "lvs --segments");
            }

            private long extents(Row r, String field, long sectors) {
                if (sectors % extent != 0) {
                    throw error(at(r, field), field + " " + sectors + "S is not a whole number of " + extent
                            + "-sector extents");
                }
                return sectors / extent;
            }

            private long count(Row r, String what) {
                if (r.get("seg_size_pe").isPresent()) {
                    return requireCount(r, "seg_size_pe", what, "lvs");
                }
                if (r.get("seg_size").isPresent()) {
                    return extents(r, "seg_size", requireSize(r, "seg_size", ReportSize.Context.ANY, what, "lvs"));
                }
                throw missing(r, "seg_size_pe", what, "lvs --segments");
            }

            private LvSegment segment(Row r, String lv, long start) {
                String full = name + "/" + lv;
                String what = "segment at LE " + start + " of LV " + full;
                long count = count(r, what);
                if (count <= 0) {
                    throw error(at(r, "seg_size_pe"), "the " + what + " has " + count + " extents; expected a "
                            + "positive count");
                }
                if (count > Long.MAX_VALUE - start) {
                    throw error(at(r, "seg_size_pe"), "seg_size_pe " + count + " of the " + what + " overflows");
                }
                String type = requireString(r, "segtype", what, "lvs");
                try {
                    if (SegmentType.Raid.TYPES.contains(type)) {
                        return raid(r, what, type, start, count);
                    }
                    return switch (type) {
                        case "linear", "striped" -> striped(r, what, start, count);
                        case "thin-pool" -> thinPool(r, what, start, count);
                        case "thin" -> thin(r, what, start, count);
                        case "cache-pool" -> cachePool(r, what, start, count);
                        case "cache" -> new LvSegment(start, count, Sectors.ZERO, List.of(), new SegmentType.Cache(
                                lvName(r, "pool_lv", what), lvName(r, "origin", what)));
                        case "writecache" -> writecache(r, what, start, count);
                        // lib/format_text/import_vsn1.c: _read_segment: other types are not modelled
                        default -> throw error(at(r, "segtype"), "segment type \"" + type + "\" of LV " + full
                                + " is not modelled");
                    };
                } catch (LvmMetadataException e) {
                    throw e;
                } catch (IllegalArgumentException e) {
                    throw wrap(r.own(), e);
                }
            }

            // lib/report/report.c: _devices_disp / _segpe_ranges_disp / _segle_ranges_disp
            private LvSegment striped(Row r, String what, long start, long count) {
                long stripes = requireCount(r, "stripes", what, "lvs");
                if (stripes <= 0) {
                    throw error(at(r, "stripes"), "Zero areas not allowed for the " + what + " (stripes "
                            + stripes + ")");
                }
                if (count % stripes != 0) {
                    throw error(at(r, "stripes"), "the " + count + " extents of the " + what
                            + " are not divisible by " + stripes + " stripes");
                }
                long areaLen = count / stripes;
                long stripeSize = requireSize(r, "stripe_size", ReportSize.Context.POWER_OF_TWO, what, "lvs");
                List<StripeArea> areas = areas(r, what, areaLen);
                if (areas.size() != stripes) {
                    throw error(at(r, "stripes"), "the " + what + " has " + stripes + " stripes but " + areas.size()
                            + " areas");
                }
                if (stripes == 1 && stripeSize != 0) {
                    throw error(at(r, "stripe_size"), "the linear " + what + " has stripe_size " + stripeSize
                            + "S; expected 0S");
                }
                return new LvSegment(start, count, Sectors.of(stripeSize), areas, SegmentType.STRIPED);
            }

            private List<StripeArea> areas(Row r, String what, long areaLen) {
                List<StripeArea> out = new ArrayList<>();
                Optional<List<String>> devices = list(r, "devices", ",");
                if (devices.isPresent()) {
                    for (String d : devices.get()) {
                        // "/dev/sdb(1280)": the PV and its first extent
                        int open = d.lastIndexOf('(');
                        if (open <= 0 || !d.endsWith(")")) {
                            throw error(at(r, "devices"), "found \"" + d + "\" in devices of the " + what
                                    + "; expected /dev/NAME(FIRST_EXTENT)");
                        }
                        out.add(area(r, "devices", what, d.substring(0, open), d.substring(open + 1, d.length() - 1),
                                areaLen, null));
                    }
                    return out;
                }
                Optional<List<String>> ranges = list(r, "seg_pe_ranges", " ");
                String field = "seg_pe_ranges";
                if (ranges.isEmpty()) {
                    ranges = list(r, "seg_le_ranges", ",");
                    field = "seg_le_ranges";
                }
                if (ranges.isEmpty()) {
                    throw error(r.own(), "the " + what + " has no \"devices\", \"seg_pe_ranges\" or "
                            + "\"seg_le_ranges\" column; re-run lvs with -o +devices (or -o +seg_pe_ranges, or "
                            + "-o +all)");
                }
                for (String d : ranges.get()) {
                    // "/dev/sdb:0-1279": the PV and its first and last extent
                    int colon = d.lastIndexOf(':');
                    int dash = d.lastIndexOf('-');
                    if (colon <= 0 || dash < colon) {
                        throw error(at(r, field), "found \"" + d + "\" in " + field + " of the " + what
                                + "; expected /dev/NAME:FIRST-LAST");
                    }
                    out.add(area(r, field, what, d.substring(0, colon), d.substring(colon + 1, dash), areaLen,
                            d.substring(dash + 1)));
                }
                return out;
            }

            private StripeArea area(Row r, String field, String what, String pvName, String first, long areaLen,
                                    String last) {
                JsonValue loc = at(r, field);
                if (!EXTENT.matcher(first).matches() || (last != null && !EXTENT.matcher(last).matches())) {
                    throw error(loc, "found extent \"" + first + (last == null ? "" : "-" + last) + "\" in " + field
                            + " of the " + what + "; expected whole numbers");
                }
                long pe = Long.parseLong(first);
                if (last != null && Long.parseLong(last) - pe + 1 != areaLen) {
                    throw error(loc, "the range " + first + "-" + last + " in " + field + " of the " + what
                            + " is not " + areaLen + " extents long");
                }
                String dev = device(pvName);
                PhysicalVolume pv = pvs.get(dev);
                if (pv == null) {
                    String lv = unbracket(pvName);
                    if (rowsByLv.containsKey(lv)) {
                        throw error(loc, "area on LV \"" + lv + "\" (a stacked LV) in the " + what
                                + " is not modelled");
                    }
                    throw error(loc, "Couldn't find PV \"" + pvName + "\" for the " + what + " among the pv rows of "
                            + "volume group " + name);
                }
                // lib/metadata/pv_manip.c: check_pv_segments (areas lie within the PV's pe_count)
                if (pe > pv.peCount() - areaLen) {
                    throw error(loc, "extents " + pe + ".." + (pe + areaLen - 1) + " of the " + what
                            + " lie beyond the " + pv.peCount() + " extents of " + pvName);
                }
                return new StripeArea(pv.device(), pe);
            }

            private String lvName(Row r, String field, String what) {
                String v = unbracket(requireString(r, field, what, "lvs"));
                if (v.isEmpty()) {
                    throw error(at(r, field), "\"" + field + "\" of the " + what + " is empty; expected an LV name");
                }
                return v;
            }

            // lib/raid/raid.c: _raid_text_import from the report's view (lib/report/report.c: stripes = area_count,
            // stripe_size, region_size, data_copies, devices = the images, metadata_devices = the rmeta LVs)
            private LvSegment raid(Row r, String what, String type, long start, long count) {
                long devices = requireCount(r, "stripes", what, "lvs");
                long stripeSize = requireSize(r, "stripe_size", ReportSize.Context.POWER_OF_TWO, what, "lvs");
                long regionSize = requireSize(r, "region_size", ReportSize.Context.POWER_OF_TWO, what, "lvs");
                List<String> images = subLvs(r, "devices", what);
                List<String> metas = subLvs(r, "metadata_devices", what);
                if (images.size() != devices) {
                    throw error(at(r, "devices"), "the " + what + " has " + devices + " stripes but " + images.size()
                            + " devices");
                }
                java.util.OptionalInt copies = java.util.OptionalInt.empty();
                if (type.startsWith("raid10")) {
                    copies = java.util.OptionalInt.of((int) Math.min(Integer.MAX_VALUE,
                            requireCount(r, "data_copies", what, "lvs")));
                }
                return new LvSegment(start, count, Sectors.ZERO, List.of(), new SegmentType.Raid(type,
                        Sectors.of(stripeSize), Sectors.of(regionSize), metas, images, copies));
            }

            // "r1_rimage_0(0),r1_rimage_1(0)": LV names, each from its first extent
            private List<String> subLvs(Row r, String field, String what) {
                List<String> out = new ArrayList<>();
                for (String d : list(r, field, ",").orElseThrow(() -> missing(r, field, what, "lvs"))) {
                    if (!d.endsWith("(0)") || d.length() <= 3) {
                        throw error(at(r, field), "found \"" + d + "\" in " + field + " of the " + what
                                + "; expected LV(0): a RAID sub-LV from its first extent");
                    }
                    out.add(unbracket(d.substring(0, d.length() - 3)));
                }
                return out;
            }

            // lib/cache_segtype/cache.c: _cache_pool_text_import, from the report's view (lib/report/report.c:
            // data_lv, metadata_lv, chunk_size, cache_mode, cache_policy, cache_metadata_format)
            private LvSegment cachePool(Row r, String what, long start, long count) {
                String data = lvName(r, "data_lv", what);
                String metadata = lvName(r, "metadata_lv", what);
                long chunk = requireSize(r, "chunk_size", ReportSize.Context.CHUNK, what, "lvs");
                String mode = stringField(r, "cache_mode").orElse("");
                Optional<SegmentType.CacheMode> cacheMode = java.util.Arrays.stream(SegmentType.CacheMode.values())
                        .filter(m -> m.word().equals(mode)).findFirst();
                if (!mode.isEmpty() && cacheMode.isEmpty()) {
                    throw error(at(r, "cache_mode"), "Unknown cache_mode \"" + mode + "\" of the " + what
                            + " (expected writethrough, writeback or passthrough)");
                }
                String policy = stringField(r, "cache_policy").orElse("");
                String format = stringField(r, "cache_metadata_format").orElse("");
                Optional<Integer> metadataFormat;
                // lib/report/report.c: _cache_metadata_format_disp prints "" when unselected
                if (format.isEmpty() || format.equals("0")) {
                    metadataFormat = Optional.empty();
                } else if (format.equals("1") || format.equals("2")) {
                    metadataFormat = Optional.of(Integer.parseInt(format));
                } else {
                    throw error(at(r, "cache_metadata_format"), "found \"" + format + "\" for cache_metadata_format"
                            + " of the " + what + "; expected 1 or 2");
                }
                return new LvSegment(start, count, Sectors.ZERO, List.of(), new SegmentType.CachePool(data, metadata,
                        Sectors.of(chunk), cacheMode, policy.isEmpty() ? Optional.empty() : Optional.of(policy),
                        Map.of(), metadataFormat));
            }

            // lib/writecache/writecache.c: _writecache_text_import, from the report's view (origin, pool_lv,
            // writecache_block_size); the settings are not in the segment report
            private LvSegment writecache(Row r, String what, long start, long count) {
                long block = requireCount(r, "writecache_block_size", what, "lvs");
                return new LvSegment(start, count, Sectors.ZERO, List.of(), new SegmentType.Writecache(
                        lvName(r, "origin", what), lvName(r, "pool_lv", what), block, Map.of()));
            }

            // lib/thin/thin.c: _thin_pool_text_import, from the report's view of the same fields
            private LvSegment thinPool(Row r, String what, long start, long count) {
                String data = lvName(r, "data_lv", what);
                String metadata = lvName(r, "metadata_lv", what);
                long transaction = requireCount(r, "transaction_id", what, "lvs");
                long chunk = requireSize(r, "chunk_size", ReportSize.Context.CHUNK, what, "lvs");
                if (chunk < SegmentType.ThinPool.MIN_CHUNK_SECTORS || chunk > SegmentType.ThinPool.MAX_CHUNK_SECTORS) {
                    throw error(at(r, "chunk_size"), "Unsupported value " + chunk + " for chunk_size");
                }
                String discardWord = requireString(r, "discards", what, "lvs");
                ThinDiscards discards;
                try {
                    discards = ThinDiscards.ofWord(discardWord);
                } catch (IllegalArgumentException e) {
                    throw error(at(r, "discards"), e.getMessage());
                }
                return new LvSegment(start, count, Sectors.ZERO, List.of(),
                        new SegmentType.ThinPool(metadata, data, transaction, Sectors.of(chunk), discards,
                                zero(r, what)));
            }

            // lib/report/report.c: _thinzero_disp: a BIN field: "zero"/"" (json), 1/0 (--binary, json_std)
            private boolean zero(Row r, String what) {
                if (r.get("zero").isEmpty()) {
                    throw missing(r, "zero", what, "lvs");
                }
                JsonValue v = r.get("zero").get();
                String s = v instanceof JsonNumber n ? n.text() : stringField(r, "zero").orElse("");
                return switch (s) {
                    case "zero", "1" -> true;
                    case "", "0" -> false;
                    default -> throw error(v, "found " + v.describe() + " for \"zero\" of the " + what
                            + "; expected \"zero\" or \"\" (1 or 0)");
                };
            }

            // lib/thin/thin.c: _thin_text_import
            private LvSegment thin(Row r, String what, long start, long count) {
                String pool = lvName(r, "pool_lv", what);
                long transaction = requireCount(r, "transaction_id", what, "lvs");
                long id = requireCount(r, "thin_id", what, "lvs");
                if (id > SegmentType.Thin.MAX_DEVICE_ID) {
                    throw error(at(r, "thin_id"), "Unsupported value " + id + " for device_id");
                }
                String originName = unbracket(requireString(r, "origin", what, "lvs"));
                Optional<String> origin = originName.isEmpty() ? Optional.empty() : Optional.of(originName);
                return new LvSegment(start, count, Sectors.ZERO, List.of(),
                        new SegmentType.Thin(pool, transaction, id, origin));
            }
        }
    }

}
