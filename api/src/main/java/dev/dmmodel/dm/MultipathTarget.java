package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * {@code multipath}: dm-multipath ({@code drivers/md/dm-mpath.c}), the same data reached through several paths, in
 * the words of its constructor: {@code <#multipath feature args> [<arg>]* <#hw_handler args> [hw_handler [<arg>]*]
 * <#priority groups> <initial priority group> [<selector> <#selector args> [<arg>]* <#paths>
 * <#per-path selector args> [<path> [<arg>]* ]+ ]+}.
 *
 * <p>The record holds what the kernel keeps, so that {@link #arguments} is what {@code dmsetup table} prints
 * ({@code multipath_status}, {@code STATUSTYPE_TABLE}): a bio-based target always has
 * {@code retain_attached_hw_handler} ({@code alloc_multipath_stage2}: "bio-based doesn't support any direct scsi_dh
 * management"), so a table asking for {@code 2 queue_mode bio} prints {@code 3 retain_attached_hw_handler queue_mode
 * bio}; the hardware handler prints as its name only ({@code 1 <name>}), its arguments are kept but not shown; the
 * selectors' own arguments are not kept ({@code rr_create} and {@code st_create} ignore them; the kernel prints
 * {@code 0}), and each path's selector arguments are kept as the selector prints them back.
 *
 * @param start first sector in the dm device
 * @param length sectors mapped
 * @param queueMode {@code queue_mode}: request-based (the default, {@code rq} or {@code mq}) or bio-based
 * @param queueIfNoPath {@code queue_if_no_path}: queue I/O while no path is usable instead of failing it
 * @param retainAttachedHwHandler {@code retain_attached_hw_handler}: keep a SCSI device handler already attached to
 *     a path; always true for a bio-based target
 * @param pgInitRetries {@code pg_init_retries}: 1 to 50, or 0 when not given
 * @param pgInitDelayMsecs {@code pg_init_delay_msecs}: 0 to 60000, or empty for the default
 * @param hwHandler {@code hw_handler}: the SCSI device handler's name; always empty for a bio-based target
 *     ({@code parse_hw_handler}: "bio-based multipath doesn't allow hardware handler args")
 * @param hwHandlerArgs the handler's arguments ({@code hw_handler_params}); empty without a handler
 * @param initialGroup {@code <initial priority group>}: 1 to the number of groups, 0 with no groups
 * @param groups the priority groups in table order (numbered from 1)
 */
public record MultipathTarget(Sectors start, Sectors length, QueueMode queueMode, boolean queueIfNoPath,
                              boolean retainAttachedHwHandler, int pgInitRetries, OptionalInt pgInitDelayMsecs,
                              Optional<String> hwHandler, List<String> hwHandlerArgs, int initialGroup,
                              List<PriorityGroup> groups) implements DmTarget {

    /** How the multipath device takes I/O ({@code m->queue_mode}). */
    public enum QueueMode {
        /** {@code DM_TYPE_REQUEST_BASED} ({@code rq}, {@code mq}, the default): requests are cloned onto a path. */
        REQUEST_BASED,
        /** {@code DM_TYPE_BIO_BASED} ({@code queue_mode bio}): bios are remapped to a path. */
        BIO_BASED
    }

    /**
     * One path of a priority group ({@code struct pgpath}).
     *
     * @param device kernel name of the path's device
     * @param selectorArgs the path's selector arguments as the selector prints them ({@code round-robin}:
     *     {@code repeat_count}; {@code service-time}: {@code repeat_count relative_throughput})
     */
    public record Path(String device, List<String> selectorArgs) {
        /** Rejects nulls and blank words. */
        public Path {
            Objects.requireNonNull(device, "device");
            word("path device", device);
            selectorArgs = List.copyOf(selectorArgs);
            selectorArgs.forEach(s -> word("path selector argument", s));
        }
    }

    /**
     * One priority group ({@code struct priority_group}): its path selector and its paths.
     *
     * @param selector the path selector's name ({@code round-robin}, {@code service-time}, {@code queue-length})
     * @param paths the paths, in table order; at least one ({@code parse_priority_group}: 1 to 1024)
     */
    public record PriorityGroup(String selector, List<Path> paths) {
        /** Rejects nulls, blank words, no paths, and paths whose numbers of selector arguments differ. */
        public PriorityGroup {
            Objects.requireNonNull(selector, "selector");
            word("path selector", selector);
            paths = List.copyOf(paths);
            if (paths.isEmpty() || paths.size() > 1024) {
                throw new IllegalArgumentException("multipath target: a priority group has " + paths.size()
                        + " paths; it needs 1 to 1024 (invalid number of paths)");
            }
            int n = paths.get(0).selectorArgs().size();
            for (Path p : paths) {
                if (p.selectorArgs().size() != n) {
                    throw new IllegalArgumentException("multipath target: path " + p.device() + " has "
                            + p.selectorArgs().size() + " selector arguments, the group's first path " + n
                            + " (one <#per-path selector args> per group)");
                }
            }
        }
    }

    /** Rejects nulls, empty targets and values the kernel's constructor refuses; a bio-based target retains. */
    public MultipathTarget {
        Objects.requireNonNull(start, "start");
        Targets.requirePositive("multipath", length);
        Objects.requireNonNull(queueMode, "queueMode");
        Objects.requireNonNull(pgInitDelayMsecs, "pgInitDelayMsecs");
        Objects.requireNonNull(hwHandler, "hwHandler");
        hwHandlerArgs = List.copyOf(hwHandlerArgs);
        groups = List.copyOf(groups);
        if (pgInitRetries != 0 && (pgInitRetries < 1 || pgInitRetries > 50)) {
            throw new IllegalArgumentException("multipath target: pg_init_retries " + pgInitRetries
                    + " (pg_init_retries must be between 1 and 50)");
        }
        if (pgInitDelayMsecs.isPresent() && (pgInitDelayMsecs.getAsInt() < 0 || pgInitDelayMsecs.getAsInt() > 60000)) {
            throw new IllegalArgumentException("multipath target: pg_init_delay_msecs " + pgInitDelayMsecs.getAsInt()
                    + " (pg_init_delay_msecs must be between 0 and 60000)");
        }
        hwHandler.ifPresent(h -> word("hardware handler", h));
        hwHandlerArgs.forEach(s -> word("hardware handler argument", s));
        if (hwHandler.isEmpty() && !hwHandlerArgs.isEmpty()) {
            throw new IllegalArgumentException("multipath target: hardware handler arguments " + hwHandlerArgs
                    + " without a handler");
        }
        if (queueMode == QueueMode.BIO_BASED) {
            // dm-mpath.c: alloc_multipath_stage2 — bio-based only discovers an attached handler
            retainAttachedHwHandler = true;
            if (hwHandler.isPresent()) {
                throw new IllegalArgumentException("multipath target: hardware handler " + hwHandler.get()
                        + " on a bio-based target (bio-based multipath doesn't allow hardware handler args)");
            }
        }
        if (groups.size() > 1024) {
            throw new IllegalArgumentException("multipath target: " + groups.size()
                    + " priority groups (invalid number of priority groups)");
        }
        if (groups.isEmpty() != (initialGroup == 0) || initialGroup < 0 || initialGroup > groups.size()) {
            throw new IllegalArgumentException("multipath target: initial priority group " + initialGroup + " of "
                    + groups.size() + " (invalid initial priority group)");
        }
    }

    private static void word(String what, String s) {
        if (s.isEmpty() || s.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("multipath target: " + what + " '" + s + "' is empty or has blanks");
        }
    }

    @Override
    public String type() {
        return "multipath";
    }

    /** Every path's device, group by group, in table order ({@code multipath_iterate_devices}). */
    @Override
    public List<String> devices() {
        return groups.stream().flatMap(g -> g.paths().stream()).map(Path::device).toList();
    }

    /** The feature arguments in {@code multipath_status}'s order. */
    public List<String> features() {
        List<String> out = new ArrayList<>();
        if (queueIfNoPath) {
            out.add("queue_if_no_path");
        }
        if (pgInitRetries > 0) {
            out.add("pg_init_retries");
            out.add(Integer.toString(pgInitRetries));
        }
        if (pgInitDelayMsecs.isPresent()) {
            out.add("pg_init_delay_msecs");
            out.add(Integer.toString(pgInitDelayMsecs.getAsInt()));
        }
        if (retainAttachedHwHandler) {
            out.add("retain_attached_hw_handler");
        }
        if (queueMode == QueueMode.BIO_BASED) {
            out.add("queue_mode");
            out.add("bio");
        }
        return List.copyOf(out);
    }

    // dm-mpath.c: multipath_status (STATUSTYPE_TABLE) with the selectors' status (rr_status, st_status)
    @Override
    public String arguments(Function<String, String> fmt) {
        StringBuilder sb = new StringBuilder();
        List<String> f = features();
        sb.append(f.size());
        f.forEach(s -> sb.append(' ').append(s));
        sb.append(hwHandler.map(h -> " 1 " + h).orElse(" 0"));
        sb.append(' ').append(groups.size()).append(' ').append(initialGroup);
        for (PriorityGroup g : groups) {
            sb.append(' ').append(g.selector()).append(" 0 ").append(g.paths().size()).append(' ')
                    .append(g.paths().get(0).selectorArgs().size());
            for (Path p : g.paths()) {
                sb.append(' ').append(fmt.apply(p.device()));
                p.selectorArgs().forEach(s -> sb.append(' ').append(s));
            }
        }
        return sb.toString();
    }

    @Override
    public MultipathTarget at(Sectors newStart) {
        return new MultipathTarget(newStart, length, queueMode, queueIfNoPath, retainAttachedHwHandler, pgInitRetries,
                pgInitDelayMsecs, hwHandler, hwHandlerArgs, initialGroup, groups);
    }
}
