package dev.dmmodel.impl.dm.raid;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.RaidTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.TargetType;
import dev.dmmodel.impl.dm.table.TargetArgs;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * dm-raid's target type ({@code drivers/md/dm-raid.c: raid_ctr}): the words of the line are read here
 * ({@code dm_read_arg_group}, {@code parse_raid_params}' key/value pairs, {@code parse_dev_params}' device pairs);
 * the rules on their values are {@link RaidTarget}'s; the component devices' sizes are
 * {@link RaidModel#checkDevices}'.
 */
public final class RaidTargetType implements TargetType {

    /** The one instance. */
    public static final RaidTargetType INSTANCE = new RaidTargetType();

    private static final Set<String> NO_VALUE = Set.of("sync", "nosync", "raid10_use_near_sets");

    private RaidTargetType() {
    }

    @Override
    public String name() {
        return "raid";
    }

    @Override
    public Class<? extends DmTarget> targetClass() {
        return RaidTarget.class;
    }

    @Override
    public DmTarget construct(TargetArgs a) {
        String usage = "raid <raid_type> <#raid_params> <chunk_size> [<param> [<value>]]... <#raid_devs> "
                + a.dev("meta major:minor") + " " + a.dev("data major:minor") + "...";
        a.arity(a.count() >= 1, usage + " (raid_ctr: No arguments)");
        // raid_ctr: get_raid_type (strcasecmp)
        String type = a.arg(0).toLowerCase(Locale.ROOT);
        if (!RaidTarget.RAID_TYPES.contains(type)) {
            throw a.invalid(0, "one of " + RaidTarget.RAID_TYPES + " (raid_ctr: Unrecognised raid_type)");
        }
        // dm_read_arg_group {0, argc}: the raid parameters, chunk_size first
        a.arity(a.count() >= 2, usage + " (raid_ctr: Cannot understand number of raid parameters)");
        long np = a.number(1, "the number of raid parameters (raid_ctr: Cannot understand number of raid parameters)");
        if (np < 1 || np > a.count() - 2) {
            throw a.invalid(1, "a number of raid parameters from 1 (the chunk size) to the " + (a.count() - 2)
                    + " arguments that follow (raid_ctr: Cannot understand number of raid parameters)");
        }
        int end = 2 + (int) np;
        String chunkWord = a.arg(2);
        if (!chunkWord.matches("[+-]?[0-9]{1,10}") || Long.parseLong(chunkWord.replace("+", "")) > Integer.MAX_VALUE
                || Long.parseLong(chunkWord.replace("+", "")) < Integer.MIN_VALUE) {
            throw a.invalid(2, "a number (parse_raid_params: Bad numerical argument given for chunk_size)");
        }
        long chunk = Long.parseLong(chunkWord.replace("+", ""));
        // parse_raid_params: "Ignoring chunk size parameter for RAID 1"
        if (RaidTarget.level(type) == 1) {
            chunk = 0;
        }
        List<RaidTarget.Param> params = new ArrayList<>();
        for (int i = 3; i < end; i++) {
            String key = a.arg(i).toLowerCase(Locale.ROOT);
            if (NO_VALUE.contains(key)) {
                params.add(RaidTarget.Param.flag(key));
                continue;
            }
            if (key.equals("journal_dev") || key.equals("journal_mode")) {
                throw a.invalid(i, "a parameter other than the raid4/5/6 journal (" + key + " is not modelled)");
            }
            if (!RaidTarget.PARAM_ORDER.contains(key)) {
                throw a.invalid(i, "one of " + RaidTarget.PARAM_ORDER + " (parse_raid_params: Unable to parse RAID "
                        + "parameter)");
            }
            if (i + 1 >= end) {
                throw a.invalid(i, key + " followed by its value within the " + np + " raid parameters "
                        + "(parse_raid_params: Wrong number of raid parameters given)");
            }
            String value = a.arg(++i);
            if (key.equals("raid10_format")) {
                value = value.toLowerCase(Locale.ROOT);
            } else if (!value.matches("[+-]?[0-9]{1,10}")) {
                throw a.invalid(i, "a number for " + key + " (parse_raid_params: Bad numerical argument given in raid "
                        + "params)");
            } else if (key.equals("max_write_behind") && Long.parseLong(value.replace("+", "")) >= 0) {
                // parse_raid_params: bitmap_info.max_write_behind = value / 2, which raid_status prints
                value = Long.toString(Long.parseLong(value.replace("+", "")) / 2);
            }
            params.add(new RaidTarget.Param(key, value.startsWith("+") ? value.substring(1) : value));
        }
        // dm_read_arg {1, (argc - 1) / 2}: the raid devices
        a.arity(a.count() > end, usage + " (raid_ctr: Cannot understand number of raid devices parameters)");
        long nd = a.number(end, "the number of raid devices (raid_ctr: Cannot understand number of raid devices "
                + "parameters)");
        long max = (a.count() - end - 1) / 2;
        if (nd < 1 || nd > max) {
            throw a.invalid(end, "a number of raid devices from 1 to the " + max + " pairs that follow (raid_ctr: "
                    + "Cannot understand number of raid devices parameters)");
        }
        if (nd > RaidTarget.MAX_RAID_DEVICES) {
            throw a.invalid(end, "at most " + RaidTarget.MAX_RAID_DEVICES + " raid devices (raid_ctr: Invalid number "
                    + "of supplied raid devices)");
        }
        List<RaidTarget.Device> devices = new ArrayList<>();
        for (int d = 0; d < nd; d++) {
            int meta = end + 1 + 2 * d;
            devices.add(new RaidTarget.Device(device(a, meta), device(a, meta + 1)));
        }
        // raid_ctr does not read what follows the pairs; the table it prints has none
        return new RaidTarget(a.start(), a.length(), type, chunk, params, devices);
    }

    // parse_dev_params: "-" is no device, anything else dm_get_device
    private static Optional<String> device(TargetArgs a, int i) {
        return a.arg(i).equals("-") ? Optional.empty() : Optional.of(a.device(i));
    }

    @Override
    public TargetModel model(DmTarget target, Function<String, Long> deviceSize) {
        return new RaidModel((RaidTarget) target);
    }
}
