package dev.dmmodel.impl.dm.table;

import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ThinPoolFeature;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.layout.Layout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Writes tables exactly as {@code dmsetup table} prints them: per target
 * {@code <start> <length> <type> <params>} and a newline ({@code dmsetup.c _status}: a blank after the type even
 * when the parameters are empty), the parameters as the target's status function writes them for
 * {@code STATUSTYPE_TABLE}, devices as {@code major:minor} ({@code format_dev_t}). A thin-pool writes
 * {@code <meta> <data> <block sectors> <low water mark> <#features> } and each feature followed by a blank
 * ({@code pool_status}, {@code emit_flags}: skip_block_zeroing, ignore_discard, no_discard_passdown,
 * read_only, error_if_no_space), hence its trailing blank. All devices: each line prefixed {@code <name>: },
 * devices in name order ({@code strcmp} on the bytes, the order of the kernel's name tree), or
 * {@code No devices found} when there is none.
 *
 * <p>{@link DmTableParser} reads everything written here back to equal tables.
 */
public final class DmTableFormatter {

    /** What {@code dmsetup table} prints when no dm device exists. */
    public static final String NO_DEVICES = "No devices found\n";

    private static final java.util.regex.Pattern MAJOR_MINOR = java.util.regex.Pattern.compile("\\d+:\\d+");

    private static final Comparator<String> STRCMP = (a, b) -> {
        byte[] x = a.getBytes(StandardCharsets.UTF_8);
        byte[] y = b.getBytes(StandardCharsets.UTF_8);
        return java.util.Arrays.compareUnsigned(x, y);
    };

    private DmTableFormatter() {
    }

    /**
     * A target's parameters as the kernel prints them ({@code STATUSTYPE_TABLE}).
     *
     * @param target the target
     * @param majorMinor the {@code major:minor} of each device the target references
     */
    public static String arguments(DmTarget target, Function<String, String> majorMinor) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(majorMinor, "majorMinor");
        if (target instanceof ThinPoolTarget p) {
            // pool_status: "%s %s %lu %llu " then emit_flags: "%u " and "<feature> " each
            StringBuilder sb = new StringBuilder()
                    .append(majorMinor.apply(p.metadataDevice())).append(' ')
                    .append(majorMinor.apply(p.dataDevice())).append(' ')
                    .append(p.blockSectors()).append(' ').append(p.lowWaterMark()).append(' ')
                    .append(p.features().size()).append(' ');
            for (ThinPoolFeature f : ThinPoolFeature.values()) { // declared in emit_flags' order
                if (p.features().contains(f)) {
                    sb.append(f.word()).append(' ');
                }
            }
            return sb.toString();
        }
        // linear_status "%s %llu", stripe_status "%d %llu" + " %s %llu" each, thin_status "%s %lu" [" %s"],
        // zero and error print nothing: the api's own argument text is the kernel's
        return target.arguments(majorMinor);
    }

    /** One target line as {@code dmsetup table NAME} prints it, with its newline. */
    public static String line(DmTarget target, Function<String, String> majorMinor) {
        return target.start().count() + " " + target.length().count() + " " + target.type() + " "
                + arguments(target, majorMinor) + "\n";
    }

    /** One device's table as {@code dmsetup table NAME} prints it. */
    public static String table(DmTable table, Function<String, String> majorMinor) {
        Objects.requireNonNull(table, "table");
        StringBuilder sb = new StringBuilder();
        for (DmTarget t : table.targets()) {
            sb.append(line(t, majorMinor));
        }
        return sb.toString();
    }

    /**
     * Every device's table as {@code dmsetup table} prints them.
     *
     * @param tables the tables by dm name (any order: they are written in name order)
     * @param majorMinor the {@code major:minor} of each device the tables reference
     */
    public static String tables(Map<String, DmTable> tables, Function<String, String> majorMinor) {
        Objects.requireNonNull(tables, "tables");
        Objects.requireNonNull(majorMinor, "majorMinor");
        if (tables.isEmpty()) {
            return NO_DEVICES;
        }
        List<String> names = new ArrayList<>(tables.keySet());
        names.sort(STRCMP);
        StringBuilder sb = new StringBuilder();
        for (String name : names) {
            for (DmTarget t : tables.get(name).targets()) {
                sb.append(name).append(": ").append(line(t, majorMinor));
            }
        }
        return sb.toString();
    }

    /** {@code dmsetup table} for every dm device of a layout. */
    public static String tables(Layout layout) {
        Objects.requireNonNull(layout, "layout");
        Map<String, DmTable> tables = new LinkedHashMap<>();
        for (DmDevice dm : layout.dmDevices()) {
            tables.put(dm.dmName(), dm.table());
        }
        return tables(tables, n -> layout.device(n).devNumber().toString());
    }

    /**
     * {@code dmsetup table} for parsed tables: a reference that is {@code major:minor} is written as it is, any
     * other is looked up in {@code numbers} (by name, or the name after {@code /dev/mapper/} or {@code /dev/}).
     *
     * @throws IllegalArgumentException if a reference has no number
     */
    public static String tables(DmTables tables, Map<String, DevNumber> numbers) {
        Objects.requireNonNull(tables, "tables");
        Objects.requireNonNull(numbers, "numbers");
        return tables(tables.tables(), ref -> majorMinor(ref, numbers));
    }

    static String majorMinor(String reference, Map<String, DevNumber> numbers) {
        if (MAJOR_MINOR.matcher(reference).matches()) {
            return reference;
        }
        String name = reference;
        if (!numbers.containsKey(name) && name.startsWith("/dev/mapper/")) {
            name = name.substring("/dev/mapper/".length());
        } else if (!numbers.containsKey(name) && name.startsWith("/dev/")) {
            name = name.substring("/dev/".length());
        }
        DevNumber n = numbers.get(name);
        if (n == null) {
            throw new IllegalArgumentException("no device number for device '" + reference + "' (known: "
                    + String.join(", ", numbers.keySet()) + ")");
        }
        return n.toString();
    }
}
