package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code raid}: dm-raid ({@code drivers/md/dm-raid.c}), an MD RAID array inside device-mapper, in the words of its
 * table line {@code <raid_type> <#raid_params> <chunk_size> [<param> [<value>]]... <#raid_devs> <meta_dev>
 * <data_dev> ...}.
 *
 * <p>The parameters are kept in the order the kernel prints them ({@code raid_status}, {@code STATUSTYPE_TABLE}):
 * {@code sync}, {@code nosync}, {@code rebuild N} (by index), {@code daemon_sleep}, {@code min_recovery_rate},
 * {@code max_recovery_rate}, {@code write_mostly N} (by index), {@code max_write_behind}, {@code stripe_cache},
 * {@code region_size}, {@code raid10_copies}, {@code raid10_format}, {@code delta_disks}, {@code data_offset}, then
 * {@code raid10_use_near_sets} (which the kernel counts but does not print; written here so that the line reads
 * back). The raid4/5/6 journal device ({@code journal_dev}, {@code journal_mode}) is not modelled.
 *
 * <p>The checks are {@code raid_ctr}'s, {@code parse_raid_params}' and {@code parse_dev_params}' on the line alone,
 * with the kernel's {@code ti->error} texts; the component devices' sizes are checked when the table is loaded.
 *
 * @param start first sector in the dm device
 * @param length sectors mapped
 * @param raidType the kernel's raid type, one of {@link #RAID_TYPES} ({@code raid1}, {@code raid5_ls}, ...)
 * @param chunkSectors the chunk ({@code chunk_size}) in sectors: 0 for raid1 (which ignores it), else a power of
 *     two of at least 8
 * @param params the optional parameters, in the kernel's print order
 * @param raidDevices one metadata/data pair per raid device, in array order
 */
public record RaidTarget(Sectors start, Sectors length, String raidType, long chunkSectors, List<Param> params,
                         List<Device> raidDevices) implements DmTarget {

    /** {@code MAX_RAID_DEVICES}: MD's limit. */
    public static final int MAX_RAID_DEVICES = 253;

    /** The kernel's raid types ({@code raid_types[]}), with their parity devices. */
    public static final List<String> RAID_TYPES = List.of("raid0", "raid1", "raid10_far", "raid10_offset",
            "raid10_near", "raid10", "raid4", "raid5_n", "raid5_ls", "raid5_rs", "raid5_la", "raid5_ra", "raid6_zr",
            "raid6_nr", "raid6_nc", "raid6_n_6", "raid6_ls_6", "raid6_rs_6", "raid6_la_6", "raid6_ra_6");

    /** The parameters without a value, and those with one, in the kernel's print order. */
    public static final List<String> PARAM_ORDER = List.of("sync", "nosync", "rebuild", "daemon_sleep",
            "min_recovery_rate", "max_recovery_rate", "write_mostly", "max_write_behind", "stripe_cache",
            "region_size", "raid10_copies", "raid10_format", "delta_disks", "data_offset", "raid10_use_near_sets");

    private static final Set<String> NO_VALUE = Set.of("sync", "nosync", "raid10_use_near_sets");

    /**
     * One optional parameter.
     *
     * @param name its key ({@code nosync}, {@code region_size}, ...)
     * @param value its value as written, empty for {@code sync}, {@code nosync} and {@code raid10_use_near_sets}
     */
    public record Param(String name, String value) {
        /** Rejects nulls, unknown keys, and a value where none belongs or none where one does. */
        public Param {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
            if (!PARAM_ORDER.contains(name)) {
                throw new IllegalArgumentException("raid target: unknown parameter '" + name + "' (Unable to parse "
                        + "RAID parameter)");
            }
            if (NO_VALUE.contains(name) != value.isEmpty()) {
                throw new IllegalArgumentException("raid target: parameter '" + name + "' "
                        + (value.isEmpty() ? "needs a value" : "takes no value") + " (Wrong number of raid parameters "
                        + "given)");
            }
            if (value.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException("raid target: value '" + value + "' of " + name + " has blanks");
            }
        }

        /** A parameter without a value ({@code nosync}). */
        public static Param flag(String name) {
            return new Param(name, "");
        }

        /** A parameter with a number ({@code region_size 4096}). */
        public static Param of(String name, long value) {
            return new Param(name, Long.toString(value));
        }
    }

    /**
     * A raid device: its metadata device (superblock and bitmap) and its data device, each by kernel name or empty
     * ({@code -}: a device missing, or an array without metadata devices).
     *
     * @param metadata the metadata device, if any
     * @param data the data device, if any
     */
    public record Device(Optional<String> metadata, Optional<String> data) {
        /** Rejects nulls and a metadata device without its data device. */
        public Device {
            Objects.requireNonNull(metadata, "metadata");
            Objects.requireNonNull(data, "data");
            // drivers/md/dm-raid.c: parse_dev_params
            if (metadata.isPresent() && data.isEmpty()) {
                throw new IllegalArgumentException("raid target: metadata device " + metadata.get() + " without its "
                        + "data device (No data device supplied with metadata device)");
            }
        }

        /** A metadata and a data device. */
        public static Device of(String metadata, String data) {
            return new Device(Optional.of(metadata), Optional.of(data));
        }
    }

    /** Checks what {@code raid_ctr} checks on the line alone, with its texts; sorts the parameters. */
    public RaidTarget {
        Objects.requireNonNull(start, "start");
        Targets.requirePositive("raid", length);
        Objects.requireNonNull(raidType, "raidType");
        List<Param> sorted = new ArrayList<>(Objects.requireNonNull(params, "params"));
        sorted.forEach(p -> Objects.requireNonNull(p, "param"));
        sorted.sort(Comparator.comparingInt((Param p) -> PARAM_ORDER.indexOf(p.name()))
                .thenComparingLong(p -> p.name().equals("rebuild") || p.name().equals("write_mostly")
                        ? Long.parseLong(p.value()) : 0));
        params = List.copyOf(sorted);
        raidDevices = List.copyOf(Objects.requireNonNull(raidDevices, "raidDevices"));
        List<Device> devices = raidDevices;
        // drivers/md/dm-raid.c: get_raid_type
        if (!RAID_TYPES.contains(raidType)) {
            throw new IllegalArgumentException("raid target: raid type '" + raidType + "' (Unrecognised raid_type)");
        }
        int n = devices.size();
        // raid_ctr: the number of raid devices
        if (n < 1 || n > MAX_RAID_DEVICES) {
            throw new IllegalArgumentException("raid target: " + n + " raid devices, not from 1 to "
                    + MAX_RAID_DEVICES + " (Invalid number of supplied raid devices)");
        }
        // raid_set_alloc
        if (n <= parityDevices(raidType)) {
            throw new IllegalArgumentException("raid target: " + n + " devices for " + raidType + " with "
                    + parityDevices(raidType) + " parity devices (Insufficient number of devices)");
        }
        // parse_raid_params: chunk_size (raid1 ignores it: "Ignoring chunk size parameter for RAID 1")
        if (level(raidType) == 1) {
            if (chunkSectors != 0) {
                throw new IllegalArgumentException("raid target: raid1 keeps no chunk size (the kernel ignores "
                        + chunkSectors + " and prints 0)");
            }
        } else if (chunkSectors <= 0 || Long.bitCount(chunkSectors) != 1 || chunkSectors > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("raid target: chunk size " + chunkSectors + " (Chunk size must be a "
                    + "power of 2)");
        } else if (chunkSectors < 8) {
            throw new IllegalArgumentException("raid target: chunk size " + chunkSectors + " (Chunk size value is "
                    + "too small)");
        }
        checkParams(raidType, chunkSectors, length.count(), params, devices);
    }

    // drivers/md/dm-raid.c: parse_raid_params (each parameter's value, duplicates, the cross checks,
    // validate_region_size, the raid10 layout, rs_check_for_valid_flags) and parse_dev_params
    private static void checkParams(String type, long chunk, long len, List<Param> params, List<Device> devices) {
        int n = devices.size();
        int level = level(type);
        Set<String> seen = new HashSet<>();
        Set<Long> rebuild = new HashSet<>();
        Set<Long> writeMostly = new HashSet<>();
        long region = 0;
        long minRate = 0;
        long maxRate = 0;
        long copies = 2;
        String format = "near";
        for (Param p : params) {
            String k = p.name();
            boolean repeatable = k.equals("rebuild") || k.equals("write_mostly");
            if (!repeatable && !seen.add(k)) {
                throw new IllegalArgumentException("raid target: a second " + k + " (Only one " + k + " argument "
                        + (NO_VALUE.contains(k) ? "" : "pair ") + "allowed)");
            }
            seen.add(k);
            if (NO_VALUE.contains(k)) {
                continue;
            }
            if (k.equals("raid10_format")) {
                if (level != 10) {
                    throw new IllegalArgumentException("raid target: raid10_format for " + type + " ('raid10_format' "
                            + "is an invalid parameter for this RAID type)");
                }
                if (!List.of("near", "far", "offset").contains(p.value())) {
                    throw new IllegalArgumentException("raid target: raid10_format '" + p.value() + "', not near, far "
                            + "or offset (Invalid 'raid10_format' value given)");
                }
                format = p.value();
                continue;
            }
            long v = intValue(p);
            switch (k) {
                case "rebuild" -> {
                    if (v < 0 || v >= n) {
                        throw new IllegalArgumentException("raid target: rebuild " + v + " of " + n + " devices "
                                + "(Invalid rebuild index given)");
                    }
                    if (!rebuild.add(v)) {
                        throw new IllegalArgumentException("raid target: rebuild " + v + " twice (rebuild for this "
                                + "index already given)");
                    }
                }
                case "write_mostly" -> {
                    if (level != 1) {
                        throw new IllegalArgumentException("raid target: write_mostly for " + type + " (write_mostly "
                                + "option is only valid for RAID1)");
                    }
                    if (v < 0 || v >= n) {
                        throw new IllegalArgumentException("raid target: write_mostly " + v + " of " + n + " devices "
                                + "(Invalid write_mostly index given)");
                    }
                    writeMostly.add(v);
                }
                case "max_write_behind" -> {
                    if (level != 1) {
                        throw new IllegalArgumentException("raid target: max_write_behind for " + type
                                + " (max_write_behind option is only valid for RAID1)");
                    }
                    nonNegative(p, v, "Max write-behind limit out of range");
                }
                case "daemon_sleep" -> nonNegative(p, v, "daemon sleep period out of range");
                case "data_offset" -> {
                    // MIN_FREE_RESHAPE_SPACE: 4 pages of 4 KiB
                    if (v < 0 || (v != 0 && (v < 32 || v % 8 != 0))) {
                        throw new IllegalArgumentException("raid target: data_offset " + v + " (Bogus data_offset "
                                + "value)");
                    }
                }
                case "delta_disks" -> {
                    if (Math.abs(v) < 1 || Math.abs(v) > MAX_RAID_DEVICES - minimalDevices(type)) {
                        throw new IllegalArgumentException("raid target: delta_disks " + v + " (Too many delta_disk "
                                + "requested)");
                    }
                }
                case "stripe_cache" -> {
                    if (level < 4 || level > 6) {
                        throw new IllegalArgumentException("raid target: stripe_cache for " + type
                                + " (Inappropriate argument: stripe_cache)");
                    }
                    nonNegative(p, v, "Bogus stripe cache entries value");
                }
                case "min_recovery_rate" -> minRate = nonNegative(p, v, "min_recovery_rate out of range");
                case "max_recovery_rate" -> maxRate = nonNegative(p, v, "max_recovery_rate out of range");
                case "region_size" -> region = v;
                case "raid10_copies" -> {
                    if (v < 2 || v > n) {
                        throw new IllegalArgumentException("raid target: raid10_copies " + v + " for " + n
                                + " devices (Bad value for 'raid10_copies')");
                    }
                    copies = v;
                }
                default -> throw new IllegalStateException(k);
            }
        }
        if (seen.contains("sync") && seen.contains("nosync")) {
            throw new IllegalArgumentException("raid target: sync and nosync (sync and nosync are mutually exclusive)");
        }
        if (seen.contains("rebuild") && (seen.contains("sync") || seen.contains("nosync"))) {
            throw new IllegalArgumentException("raid target: rebuild with " + (seen.contains("sync") ? "sync" : "nosync")
                    + " (sync/nosync and rebuild are mutually exclusive)");
        }
        if (!writeMostly.isEmpty() && writeMostly.size() >= n) {
            throw new IllegalArgumentException("raid target: every one of the " + n + " devices write_mostly (Can't "
                    + "set all raid1 devices to write_mostly)");
        }
        if (maxRate != 0 && minRate > maxRate) {
            throw new IllegalArgumentException("raid target: min_recovery_rate " + minRate + " above max_recovery_rate "
                    + maxRate + " (Bogus recovery rates)");
        }
        // drivers/md/dm-raid.c: validate_region_size (a given one; 0 lets the kernel choose)
        if (level != 0 && region != 0) {
            long min = len / (1L << 21);
            if (region > len) {
                throw new IllegalArgumentException("raid target: region_size " + region + " of a " + len
                        + "-sector target (Supplied region size is too large)");
            }
            if (region < min) {
                throw new IllegalArgumentException("raid target: region_size " + region + " below the minimum " + min
                        + " (Supplied region size is too small)");
            }
            if (Long.bitCount(region) != 1) {
                throw new IllegalArgumentException("raid target: region_size " + region + " (Region size is not a "
                        + "power of 2)");
            }
            if (region < chunk) {
                throw new IllegalArgumentException("raid target: region_size " + region + " below chunk size " + chunk
                        + " (Region size is smaller than the chunk size)");
            }
        }
        if (level == 10 && (format.equals("near")) && seen.contains("raid10_use_near_sets")) {
            throw new IllegalArgumentException("raid target: raid10_use_near_sets with format near (RAID10 format "
                    + "'near' and 'raid10_use_near_sets' are incompatible)");
        }
        // rs_check_for_valid_flags: the parameters each level takes
        Set<String> valid = switch (level) {
            case 0 -> Set.of("data_offset");
            case 1 -> Set.of("sync", "nosync", "rebuild", "write_mostly", "daemon_sleep", "min_recovery_rate",
                    "max_recovery_rate", "max_write_behind", "region_size", "delta_disks", "data_offset");
            case 10 -> Set.of("sync", "nosync", "rebuild", "daemon_sleep", "min_recovery_rate", "max_recovery_rate",
                    "region_size", "raid10_copies", "raid10_format", "delta_disks", "data_offset",
                    "raid10_use_near_sets");
            case 6 -> Set.of("sync", "rebuild", "daemon_sleep", "min_recovery_rate", "max_recovery_rate",
                    "stripe_cache", "region_size", "delta_disks", "data_offset");
            default -> Set.of("sync", "nosync", "rebuild", "daemon_sleep", "min_recovery_rate", "max_recovery_rate",
                    "stripe_cache", "region_size", "delta_disks", "data_offset");
        };
        for (String k : seen) {
            if (!valid.contains(k)) {
                throw new IllegalArgumentException("raid target: " + k + " for " + type + " (Invalid flags "
                        + "combination)");
            }
        }
        // parse_dev_params: a missing data device must be one to rebuild
        for (int i = 0; i < n; i++) {
            if (devices.get(i).data().isEmpty() && !rebuild.contains((long) i)) {
                throw new IllegalArgumentException("raid target: raid device " + i + " has no data device and is not "
                        + "rebuilt (Drive designated for rebuild not specified)");
            }
        }
        // rs_set_dev_and_array_sectors: the length in whole rows of the data devices
        long dataStripes = n - parityDevices(type);
        boolean divisible = level == 1 || (level == 10 ? multiplyFits(len, copies) && (len * copies) % dataStripes == 0
                && ((len * copies / dataStripes) * dataStripes) % copies == 0 : len % dataStripes == 0);
        if (!divisible) {
            throw new IllegalArgumentException("raid target: length " + len + " over " + dataStripes + " data devices"
                    + (level == 10 ? " with " + copies + " copies" : "") + " (Target length not divisible by number of "
                    + "data devices)");
        }
    }

    private static boolean multiplyFits(long a, long b) {
        return a <= Long.MAX_VALUE / b;
    }

    // kstrtoint: a decimal int, a sign allowed
    private static long intValue(Param p) {
        String v = p.value();
        if (!v.matches("[+-]?[0-9]{1,10}")) {
            throw new IllegalArgumentException("raid target: " + p.name() + " '" + v + "' (Bad numerical argument given "
                    + "in raid params)");
        }
        long x = Long.parseLong(v.startsWith("+") ? v.substring(1) : v);
        if (x < Integer.MIN_VALUE || x > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("raid target: " + p.name() + " '" + v + "' (Bad numerical argument given "
                    + "in raid params)");
        }
        return x;
    }

    private static long nonNegative(Param p, long v, String error) {
        if (v < 0) {
            throw new IllegalArgumentException("raid target: " + p.name() + " " + v + " (" + error + ")");
        }
        return v;
    }

    /** The MD level of a raid type ({@code raid_types[].level}: raid4 runs as level 5). */
    public static int level(String raidType) {
        if (raidType.startsWith("raid10")) {
            return 10;
        }
        if (raidType.equals("raid4")) {
            return 5;
        }
        return raidType.charAt(4) - '0';
    }

    /** The parity devices of a raid type ({@code raid_types[].parity_devs}). */
    public static int parityDevices(String raidType) {
        int level = level(raidType);
        return level == 6 ? 2 : level == 5 ? 1 : 0;
    }

    // raid_types[].minimal_devs
    private static int minimalDevices(String raidType) {
        return level(raidType) == 6 ? 4 : 2;
    }

    /** The value of a parameter, if given (the first, for {@code rebuild} and {@code write_mostly}). */
    public Optional<String> param(String name) {
        return params.stream().filter(p -> p.name().equals(name)).map(Param::value).findFirst();
    }

    /** Whether {@code nosync} is given: the array is taken as in sync ({@code recovery_cp = MaxSector}). */
    public boolean nosync() {
        return param("nosync").isPresent();
    }

    /** {@code region_size}, if given. */
    public OptionalLong regionSize() {
        return param("region_size").map(v -> OptionalLong.of(Long.parseLong(v))).orElse(OptionalLong.empty());
    }

    /** The data devices without parity ({@code rs_data_stripes}); for raid1 and raid10 every device. */
    public int dataStripes() {
        return raidDevices.size() - parityDevices(raidType);
    }

    @Override
    public String type() {
        return "raid";
    }

    /** The metadata and data devices present, in table order. */
    @Override
    public List<String> devices() {
        List<String> out = new ArrayList<>();
        for (Device d : raidDevices) {
            d.metadata().ifPresent(out::add);
            d.data().ifPresent(out::add);
        }
        return List.copyOf(out);
    }

    // drivers/md/dm-raid.c: raid_status (STATUSTYPE_TABLE)
    @Override
    public String arguments(Function<String, String> fmt) {
        StringBuilder sb = new StringBuilder().append(raidType).append(' ');
        int count = 1;
        for (Param p : params) {
            count += p.value().isEmpty() ? 1 : 2;
        }
        sb.append(count).append(' ').append(chunkSectors);
        for (Param p : params) {
            sb.append(' ').append(p.name());
            if (!p.value().isEmpty()) {
                sb.append(' ').append(p.value());
            }
        }
        sb.append(' ').append(raidDevices.size());
        for (Device d : raidDevices) {
            sb.append(' ').append(d.metadata().map(fmt).orElse("-")).append(' ').append(d.data().map(fmt).orElse("-"));
        }
        return sb.toString();
    }

    /** This target with every device renamed by {@code rename} (a {@code -} stays missing). */
    public RaidTarget withDevices(java.util.function.UnaryOperator<String> rename) {
        Objects.requireNonNull(rename, "rename");
        List<Device> out = new ArrayList<>();
        for (Device d : raidDevices) {
            out.add(new Device(d.metadata().map(rename), d.data().map(rename)));
        }
        return new RaidTarget(start, length, raidType, chunkSectors, params, out);
    }

    @Override
    public RaidTarget at(Sectors newStart) {
        return new RaidTarget(newStart, length, raidType, chunkSectors, params, raidDevices);
    }
}
