package dev.dmmodel.impl.dm.table;

import dev.dmmodel.device.DevNumber;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.MultipathTarget;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Reads device-mapper tables as {@code dmsetup table} prints them, or as a user writes them for
 * {@code dmsetup create}:
 *
 * <ul>
 *   <li>{@link #parse(String, String)}: the output of {@code dmsetup table}, every line
 *       {@code <name>: <start> <length> <target> <args...>}, several devices; {@code No devices found} (or
 *       nothing) is no device;</li>
 *   <li>{@link #parseDevice(String, String, String)}: one device's table without names, the output of
 *       {@code dmsetup table NAME} or a table file for {@code dmsetup create NAME}.</li>
 * </ul>
 *
 * Blank lines and {@code #} comments are skipped ({@code dmsetup}'s {@code _parse_file}). Devices may be
 * written as {@code major:minor} (as the kernel prints them) or as paths or names ({@code /dev/sdb},
 * {@code /dev/mapper/vg-lv}). Each target's arguments are checked as its kernel constructor checks them
 * ({@link DmTargets}); each table as {@code dm_table_add_target} checks it: targets back to back from sector 0,
 * none of length 0, a thin-pool alone in its table. A thin target whose pool is a device of the text must name
 * a thin-pool ({@code thin_ctr}: "Couldn't find pool object"); devices that use each other in a cycle cannot
 * be created. Anything else is a {@link DmTableException} naming the source, line and column.
 *
 * <p>References in the tables: a reference to a device of the text ({@code /dev/mapper/NAME}, {@code NAME},
 * or its {@code major:minor} when {@code numbers} gives it) becomes its dm name; {@code major:minor} of another
 * device in {@code numbers} becomes that device's name, as does {@code /dev/NAME}; anything else is kept as
 * written ({@code major:minor} in canonical form, {@code 08:016} as {@code 8:16}).
 */
public final class DmTableParser {

    private DmTableParser() {
    }

    /** {@link #parse(String, String, Map)} without device numbers. */
    public static DmTables parse(String text, String source) {
        return parse(text, source, Map.of());
    }

    /**
     * Reads the output of {@code dmsetup table} (every device, each line starting {@code <name>: }).
     *
     * @param text the text
     * @param source its name for messages (a file name)
     * @param numbers device numbers by device name: the dm devices of the text (by dm name) and any other device
     *     (disks, partitions, by kernel name), so that {@code major:minor} references resolve to names; may be empty
     * @return the devices in creation order; none for {@code No devices found}
     * @throws DmTableException if the text is not such output or holds a table the kernel would refuse
     */
    public static DmTables parse(String text, String source, Map<String, DevNumber> numbers) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(numbers, "numbers");
        Map<String, List<DmTableLine>> byDevice = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (DmTableLine.isSkipped(lines[i])) {
                continue;
            }
            DmTableLine l = DmTableLine.parse(source, i + 1, lines[i], true);
            byDevice.computeIfAbsent(l.dmName().orElseThrow(), k -> new ArrayList<>()).add(l);
        }
        return tables(source, byDevice, numbers);
    }

    /** {@link #parseDevice(String, String, String, Map)} without device numbers. */
    public static DmTables parseDevice(String name, String text, String source) {
        return parseDevice(name, text, source, Map.of());
    }

    /**
     * Reads one device's table without names: the output of {@code dmsetup table NAME}, or a table file for
     * {@code dmsetup create NAME}.
     *
     * @param name the device's dm name
     * @param text the table
     * @param source its name for messages
     * @param numbers device numbers by name, as for {@link #parse(String, String, Map)}
     * @return the one device
     * @throws DmTableException if the name is not a dm name, the text has no target or a line the kernel refuses
     */
    public static DmTables parseDevice(String name, String text, String source, Map<String, DevNumber> numbers) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(numbers, "numbers");
        DmTableLine.checkName(source, 0, 0, name, name);
        List<DmTableLine> own = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (!DmTableLine.isSkipped(lines[i])) {
                own.add(DmTableLine.parse(source, i + 1, lines[i], false));
            }
        }
        if (own.isEmpty()) {
            // dm-ioctl.c populate_table: "no targets specified"
            throw new DmTableException(source, 0, 0, "no target line for " + DmTableException.quote(name),
                    "at least one line " + DmTableLine.PLAIN_FORMAT);
        }
        Map<String, List<DmTableLine>> byDevice = new LinkedHashMap<>();
        byDevice.put(name, own);
        return tables(source, byDevice, numbers);
    }

    /**
     * One device's table from its target lines and their targets, with {@code dm_table_add_target}'s rules: a
     * thin-pool or multipath (singleton targets) alone, then every target starting where the one before ends, the first at 0.
     *
     * @param source the text's name for messages
     * @param name the device's dm name
     * @param lines its lines, in order
     * @param targets the target of each line ({@link DmTargets#target})
     * @throws DmTableException at the first line if the targets do not form a table
     */
    public static DmTable table(String source, String name, List<DmTableLine> lines, List<DmTarget> targets) {
        if (targets.size() > 1) {
            for (int i = 0; i < targets.size(); i++) {
                // DM_TARGET_SINGLETON: thin-pool and multipath
                if (targets.get(i) instanceof ThinPoolTarget || targets.get(i) instanceof MultipathTarget) {
                    DmTableLine l = lines.get(i);
                    String type = targets.get(i).type();
                    throw new DmTableException(source, l.number(), l.columns().get(2), "a " + type + " target beside "
                            + (targets.size() - 1) + " other target(s) in the table of " + name + " in '" + l.text()
                            + "'", "a " + type + " target alone in its table (dm_table_add_target: singleton target "
                            + "type must appear alone in table)");
                }
            }
        }
        try {
            return new DmTable(targets);
        } catch (IllegalArgumentException e) {
            throw new DmTableException(source, lines.get(0).number(), 0, "a table for " + name + " that is not valid ("
                    + e.getMessage() + ")", "the lines of one device back to back from sector 0");
        }
    }

    private static DmTables tables(String source, Map<String, List<DmTableLine>> byDevice,
                                   Map<String, DevNumber> numbers) {
        Map<DevNumber, String> byNumber = new HashMap<>();
        numbers.forEach((name, number) -> {
            if (!byDevice.containsKey(name)) {
                byNumber.putIfAbsent(number, name);
            }
        });
        numbers.forEach((name, number) -> {
            if (byDevice.containsKey(name)) {
                byNumber.put(number, name); // a device of the text wins
            }
        });
        DmTargets.DeviceResolver resolver = reference -> Optional.of(resolve(reference, byDevice, numbers, byNumber));
        Map<String, DmTable> tables = new LinkedHashMap<>();
        Map<String, Set<String>> uses = new LinkedHashMap<>();
        for (Map.Entry<String, List<DmTableLine>> e : byDevice.entrySet()) {
            String name = e.getKey();
            List<DmTarget> targets = new ArrayList<>();
            for (DmTableLine l : e.getValue()) {
                targets.add(DmTargets.target(source, l, Optional.of(name), DmTargets.DeviceSyntax.ANY, resolver));
            }
            DmTable table = table(source, name, e.getValue(), targets);
            tables.put(name, table);
            Set<String> deps = new LinkedHashSet<>();
            for (String d : table.devices()) {
                if (byDevice.containsKey(d)) {
                    deps.add(d);
                }
            }
            uses.put(name, deps);
        }
        checkThinPools(source, byDevice, tables);
        List<DmTables.Device> devices = new ArrayList<>();
        for (String name : creationOrder(source, byDevice, uses)) {
            devices.add(new DmTables.Device(name, tables.get(name), byDevice.get(name).get(0).number(),
                    List.copyOf(uses.get(name))));
        }
        return new DmTables(devices);
    }

    private static String resolve(String reference, Map<String, List<DmTableLine>> byDevice,
                                  Map<String, DevNumber> numbers, Map<DevNumber, String> byNumber) {
        int colon = reference.indexOf(':');
        if (colon > 0 && reference.chars().allMatch(c -> c == ':' || (c >= '0' && c <= '9'))) {
            DevNumber n = new DevNumber(Integer.parseInt(reference.substring(0, colon)),
                    Integer.parseInt(reference.substring(colon + 1)));
            return byNumber.getOrDefault(n, reference);
        }
        if (reference.startsWith("/dev/mapper/")) {
            String n = reference.substring("/dev/mapper/".length());
            return byDevice.containsKey(n) || numbers.containsKey(n) ? n : reference;
        }
        if (reference.startsWith("/dev/")) {
            String n = reference.substring("/dev/".length());
            return numbers.containsKey(n) && !byDevice.containsKey(n) ? n : reference;
        }
        return reference;
    }

    // thin_ctr: the pool must be a mapped device ("Couldn't get pool mapped device") whose table is a thin-pool
    // ("Couldn't find pool object"); only pools of the same text can be checked here
    private static void checkThinPools(String source, Map<String, List<DmTableLine>> byDevice,
                                       Map<String, DmTable> tables) {
        for (Map.Entry<String, DmTable> e : tables.entrySet()) {
            List<DmTarget> targets = e.getValue().targets();
            for (int i = 0; i < targets.size(); i++) {
                if (targets.get(i) instanceof ThinTarget t && tables.containsKey(t.poolDevice())) {
                    DmTable pool = tables.get(t.poolDevice());
                    if (!(pool.targets().get(0) instanceof ThinPoolTarget)) {
                        DmTableLine l = byDevice.get(e.getKey()).get(i);
                        throw new DmTableException(source, l.number(), l.argColumn(0), "pool device "
                                + DmTableException.quote(t.poolDevice()) + ", whose table is "
                                + pool.targets().get(0).type() + ", in '" + l.text() + "'",
                                "a thin-pool device (thin_ctr: Couldn't find pool object)");
                    }
                }
            }
        }
    }

    /** Kahn's algorithm; of the devices ready to be created, the one whose first line comes first. */
    private static List<String> creationOrder(String source, Map<String, List<DmTableLine>> byDevice,
                                              Map<String, Set<String>> uses) {
        List<String> order = CreationOrder.of(uses,
                (x, y) -> Integer.compare(byDevice.get(x).get(0).number(), byDevice.get(y).get(0).number()));
        if (order.size() != uses.size()) {
            List<String> cycle = uses.keySet().stream().filter(k -> !order.contains(k)).toList();
            throw new DmTableException(source, byDevice.get(cycle.get(0)).get(0).number(), 0,
                    "dm devices that use each other in a cycle: " + String.join(", ", cycle),
                    "tables in which every dm device uses only devices that can be created before it");
        }
        return order;
    }
}
