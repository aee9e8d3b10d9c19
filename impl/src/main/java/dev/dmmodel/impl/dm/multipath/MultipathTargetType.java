package dev.dmmodel.impl.dm.multipath;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.MultipathTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.TargetType;
import dev.dmmodel.impl.dm.table.DmTableException;
import dev.dmmodel.impl.dm.table.TargetArgs;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/** dm-multipath's target type ({@code drivers/md/dm-mpath.c}: {@code multipath_ctr} and its parsers). */
public final class MultipathTargetType implements TargetType {

    /** The one instance. */
    public static final MultipathTargetType INSTANCE = new MultipathTargetType();

    private MultipathTargetType() {
    }

    @Override
    public String name() {
        return "multipath";
    }

    @Override
    public Class<? extends DmTarget> targetClass() {
        return MultipathTarget.class;
    }

    /** {@code struct dm_arg_set}: the arguments not consumed yet. */
    private static final class Cursor {
        final TargetArgs a;
        int next;

        Cursor(TargetArgs a) {
            this.a = a;
        }

        int left() {
            return a.count() - next;
        }

        // dm-mpath.c: dm_shift_arg
        String shift() {
            return a.arg(next++);
        }

        /** {@code dm_read_arg}: an unsigned number from min to max, else the kernel's error text. */
        // drivers/md/dm-table.c: validate_next_arg
        long read(long min, long max, String what, String error) {
            if (left() == 0) {
                throw a.notValid("no " + what + " where one was expected: multipath_ctr: " + error);
            }
            long v = PathSelector.unsigned(a.arg(next));
            if (v < min || v > max) {
                throw a.invalid(next, what + " from " + min + " to " + max + " (multipath_ctr: " + error + ")");
            }
            next++;
            return v;
        }

        /** {@code dm_read_arg_group}: a count, then at least that many arguments must follow. */
        long group(long max, String what, String error) {
            int at = next;
            long n = read(0, max, what, error);
            if (n > left()) {
                throw a.invalid(at, "a count of at most the " + left() + " argument(s) that follow "
                        + "(multipath_ctr: Insufficient arguments)");
            }
            return n;
        }
    }

    /** What {@code parse_features} reads. */
    private static final class Features {
        boolean queueIfNoPath;
        boolean retain;
        int pgInitRetries;
        OptionalInt pgInitDelay = OptionalInt.empty();
        MultipathTarget.QueueMode mode = MultipathTarget.QueueMode.REQUEST_BASED;
    }

    // dm-mpath.c: multipath_ctr — features, hardware handler, group count and initial group, the groups, their count
    @Override
    public DmTarget construct(TargetArgs a) {
        Cursor c = new Cursor(a);
        Features f = features(c);
        Optional<String> handler = Optional.empty();
        List<String> handlerArgs = new ArrayList<>();
        // dm-mpath.c: parse_hw_handler — a bio-based target consumes and ignores them
        long hwArgc = c.group(1024, "the number of hardware handler arguments",
                "invalid number of hardware handler args");
        if (hwArgc > 0 && f.mode == MultipathTarget.QueueMode.BIO_BASED) {
            c.next += (int) hwArgc;
        } else if (hwArgc > 0) {
            handler = Optional.of(c.shift());
            for (long i = 1; i < hwArgc; i++) {
                handlerArgs.add(c.shift());
            }
        }
        long nrGroups = c.read(0, 1024, "the number of priority groups", "invalid number of priority groups");
        int initialAt = c.next;
        long initial = c.read(0, 1024, "the initial priority group", "invalid initial priority group number");
        if ((nrGroups == 0) != (initial == 0)) {
            throw a.invalid(initialAt, (nrGroups == 0 ? "0 with no priority groups" : "a group from 1 to " + nrGroups)
                    + " (multipath_ctr: invalid initial priority group)");
        }
        List<MultipathTarget.PriorityGroup> groups = new ArrayList<>();
        while (c.left() > 0) {
            groups.add(group(c));
        }
        if (groups.size() != nrGroups) {
            throw a.notValid(nrGroups + " priority group(s) declared, " + groups.size()
                    + " given: multipath_ctr: priority group count mismatch");
        }
        // multipath_ctr: an initial group beyond the last never becomes next_pg; the kernel then starts with (and
        // prints) group 1 (multipath_status: pg_num)
        int start = initial > nrGroups ? 1 : (int) initial;
        return new MultipathTarget(a.start(), a.length(), f.mode, f.queueIfNoPath, f.retain, f.pgInitRetries,
                f.pgInitDelay, handler, handlerArgs, start, groups);
    }

    // dm-mpath.c: parse_features — dm_read_arg_group({0, 8}), then the named features, case-insensitive
    private static Features features(Cursor c) {
        Features f = new Features();
        long argc = c.group(8, "the number of feature arguments", "invalid number of feature args");
        while (argc > 0) {
            int at = c.next;
            String name = c.shift().toLowerCase(Locale.ROOT);
            argc--;
            switch (name) {
                case "queue_if_no_path" -> f.queueIfNoPath = true;
                case "retain_attached_hw_handler" -> f.retain = true;
                case "pg_init_retries", "pg_init_delay_msecs", "queue_mode" -> {
                    if (argc < 1) {
                        throw c.a.invalid(at, "a feature with its value inside the feature arguments (multipath_ctr:"
                                + " Unrecognised multipath feature request)");
                    }
                    argc--;
                    if (name.equals("pg_init_retries")) {
                        f.pgInitRetries = (int) c.read(1, 50, "pg_init_retries",
                                "pg_init_retries must be between 1 and 50");
                    } else if (name.equals("pg_init_delay_msecs")) {
                        f.pgInitDelay = OptionalInt.of((int) c.read(0, 60000, "pg_init_delay_msecs",
                                "pg_init_delay_msecs must be between 0 and 60000"));
                    } else {
                        String mode = c.shift().toLowerCase(Locale.ROOT);
                        switch (mode) {
                            case "bio" -> f.mode = MultipathTarget.QueueMode.BIO_BASED;
                            case "rq", "mq" -> f.mode = MultipathTarget.QueueMode.REQUEST_BASED;
                            default -> throw c.a.invalid(c.next - 1, "bio, rq or mq (multipath_ctr: Unknown "
                                    + "'queue_mode' requested)");
                        }
                    }
                }
                default -> throw c.a.invalid(at, "queue_if_no_path, retain_attached_hw_handler, pg_init_retries <n>, "
                        + "pg_init_delay_msecs <ms> or queue_mode <bio|rq|mq> (multipath_ctr: Unrecognised multipath "
                        + "feature request)");
            }
        }
        return f;
    }

    // dm-mpath.c: parse_priority_group — the selector (parse_path_selector), the path count, the per-path argument
    // count, then each path (parse_path) with the selector's add_path
    private static MultipathTarget.PriorityGroup group(Cursor c) {
        TargetArgs a = c.a;
        if (c.left() < 2) {
            throw a.notValid(c.left() + " argument(s) left for a priority group: multipath_ctr: not enough priority "
                    + "group arguments");
        }
        int selAt = c.next;
        String name = c.shift();
        PathSelector sel = PathSelector.named(name);
        if (sel == null) {
            throw a.invalid(selAt, "a path selector the model has: round-robin, service-time or queue-length "
                    + "(multipath_ctr: unknown path selector type)");
        }
        long psArgc = c.group(1024, "the number of path selector arguments", "invalid number of path selector args");
        // rr_create, st_create, ql_create take no arguments of their own: they are consumed (dm_consume_args)
        c.next += (int) psArgc;
        long nrPaths = c.read(1, 1024, "the number of paths", "invalid number of paths");
        long nrSelArgs = c.read(0, 1024, "the number of selector arguments per path", "invalid number of selector args");
        List<MultipathTarget.Path> paths = new ArrayList<>();
        for (long i = 0; i < nrPaths; i++) {
            if (c.left() < 1 + nrSelArgs) {
                throw a.notValid("path " + (i + 1) + " of " + nrPaths + " needs " + (1 + nrSelArgs) + " argument(s), "
                        + c.left() + " left: multipath_ctr: not enough path parameters");
            }
            int devAt = c.next;
            String device;
            try {
                device = a.device(c.next);
            } catch (DmTableException e) {
                throw a.invalid(devAt, "a path device the host has (multipath_ctr: error getting device): "
                        + e.getMessage());
            }
            c.next++;
            List<String> args = new ArrayList<>();
            for (long j = 0; j < nrSelArgs; j++) {
                args.add(c.shift());
            }
            List<String> printed = new ArrayList<>();
            String error = sel.addPath(args, printed);
            if (error != null) {
                throw a.invalid(devAt, "path arguments " + sel.kernelName + " accepts (multipath_ctr: " + error + ")");
            }
            paths.add(new MultipathTarget.Path(device, printed));
        }
        return new MultipathTarget.PriorityGroup(sel.kernelName, paths);
    }

    @Override
    public TargetModel model(DmTarget target, Function<String, Long> deviceSize) {
        return new MultipathModel((MultipathTarget) target);
    }
}
