package dev.dmmodel.impl.dm.multipath;

import java.util.ArrayList;
import java.util.List;

/**
 * A path selector type ({@code struct path_selector_type}): the per-path arguments its {@code add_path} takes and
 * how it prints them back ({@code table_args}, {@code info_args}), and a fresh selector over a group's paths.
 * The selectors choose deterministically from their source: nothing in them depends on time except the
 * in-flight sizes, which the model counts as the kernel does ({@code start_io} / {@code end_io}).
 */
enum PathSelector {
    /** {@code dm-ps-round-robin.c}: the paths in turn, the chosen one moved to the tail. */
    ROUND_ROBIN("round-robin", 1, 0),
    /** {@code dm-ps-service-time.c}: the path with the shortest estimated service time. */
    SERVICE_TIME("service-time", 2, 2),
    /** {@code dm-ps-queue-length.c}: the path with the fewest I/Os in flight. */
    QUEUE_LENGTH("queue-length", 1, 1);

    /** {@code ST_MAX_RELATIVE_THROUGHPUT}. */
    static final long ST_MAX_RELATIVE_THROUGHPUT = 100;

    /** {@code ST_MAX_INFLIGHT_SIZE}: {@code (size_t)-1 >> 7}, above which sizes are shifted before multiplying. */
    static final long ST_MAX_INFLIGHT_SIZE = 1L << 57;

    final String kernelName;
    final int tableArgs;
    final int infoArgs;

    PathSelector(String kernelName, int tableArgs, int infoArgs) {
        this.kernelName = kernelName;
        this.tableArgs = tableArgs;
        this.infoArgs = infoArgs;
    }

    /** The selector of that name, or null ({@code dm_get_path_selector}: "unknown path selector type"). */
    static PathSelector named(String name) {
        for (PathSelector s : values()) {
            if (s.kernelName.equals(name)) {
                return s;
            }
        }
        return null;
    }

    /** Why {@code add_path} refuses these arguments, or null; {@code out} gets the arguments as printed back. */
    // dm-ps-round-robin.c: rr_add_path; dm-ps-service-time.c: st_add_path; dm-ps-queue-length.c: ql_add_path
    String addPath(List<String> args, List<String> out) {
        String prefix = this == SERVICE_TIME ? "service-time ps: " : this == QUEUE_LENGTH ? "queue-length ps: "
                : "round-robin ps: ";
        int max = this == SERVICE_TIME ? 2 : 1;
        if (args.size() > max) {
            return prefix + "incorrect number of arguments";
        }
        long repeat = 1;
        if (!args.isEmpty()) {
            repeat = unsigned(args.get(0));
            if (repeat < 0) {
                return prefix + "invalid repeat count";
            }
        }
        // repeat_count > 1 is deprecated: the selectors use 1 instead (DMWARN_LIMIT)
        repeat = Math.min(repeat, 1);
        out.add(Long.toString(repeat));
        if (this == SERVICE_TIME) {
            long throughput = 1;
            if (args.size() == 2) {
                throughput = unsigned(args.get(1));
                if (throughput < 0 || throughput > ST_MAX_RELATIVE_THROUGHPUT) {
                    return prefix + "invalid relative_throughput value";
                }
            }
            out.add(Long.toString(throughput));
        }
        return null;
    }

    /** {@code sscanf("%u%c")}: a decimal unsigned int with nothing after it, else -1. */
    static long unsigned(String s) {
        if (s.isEmpty() || s.length() > 10 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        long v = Long.parseLong(s);
        return v > 4_294_967_295L ? -1 : v;
    }

    /** A selector over the group's paths, in table order ({@code create} + {@code add_path} per path). */
    State newState(List<List<String>> pathArgs) {
        return new State(this, pathArgs);
    }

    /** One group's selector: its list of valid paths (indexes into the group) and their in-flight counts. */
    static final class State {
        final PathSelector type;
        /** {@code s->valid_paths}: path indexes, head first. */
        final List<Integer> valid = new ArrayList<>();
        /** service-time: {@code in_flight_size} in bytes; queue-length: {@code qlen}. */
        final long[] inFlight;
        final long[] relativeThroughput;

        State(PathSelector type, List<List<String>> pathArgs) {
            this.type = type;
            this.inFlight = new long[pathArgs.size()];
            this.relativeThroughput = new long[pathArgs.size()];
            for (int i = 0; i < pathArgs.size(); i++) {
                valid.add(i);
                relativeThroughput[i] = type == SERVICE_TIME ? Long.parseLong(pathArgs.get(i).get(1)) : 1;
            }
        }

        /** {@code select_path}: the chosen path's index, or -1 with no valid path. */
        int select(long nrBytes) {
            if (valid.isEmpty()) {
                return -1;
            }
            return switch (type) {
                case ROUND_ROBIN -> moveToTail(valid.get(0));
                case SERVICE_TIME -> {
                    // st_select_path: the first path of the list that no later one beats (st_compare_load < 0);
                    // with equal loads and throughputs that is the head; the choice goes to the tail
                    int best = -1;
                    for (int p : valid) {
                        if (best < 0 || compareLoad(p, best, nrBytes) < 0) {
                            best = p;
                        }
                    }
                    yield moveToTail(best);
                }
                case QUEUE_LENGTH -> {
                    // ql_select_path: the head goes to the tail first, then the first path with the fewest in flight
                    valid.add(valid.remove(0));
                    int best = -1;
                    for (int p : valid) {
                        if (best < 0 || inFlight[p] < inFlight[best]) {
                            best = p;
                        }
                        if (inFlight[best] == 0) {
                            break;
                        }
                    }
                    yield best;
                }
            };
        }

        private int moveToTail(int p) {
            valid.remove(Integer.valueOf(p));
            valid.add(p);
            return p;
        }

        // dm-ps-service-time.c: st_compare_load — negative when path 1 is the better choice
        private long compareLoad(int p1, int p2, long incoming) {
            long sz1 = inFlight[p1];
            long sz2 = inFlight[p2];
            long t1 = relativeThroughput[p1];
            long t2 = relativeThroughput[p2];
            if (t1 == t2) {
                return Long.compare(sz1, sz2);
            }
            if (sz1 == sz2 || t1 == 0 || t2 == 0) {
                return Long.compare(t2, t1);
            }
            sz1 += incoming;
            sz2 += incoming;
            if (sz1 >= ST_MAX_INFLIGHT_SIZE || sz2 >= ST_MAX_INFLIGHT_SIZE) {
                sz1 >>>= 7;
                sz2 >>>= 7;
            }
            long st1 = Math.multiplyExact(sz1, t2);
            long st2 = Math.multiplyExact(sz2, t1);
            if (st1 != st2) {
                return Long.compare(st1, st2);
            }
            return Long.compare(t2, t1);
        }

        /** {@code start_io}: service-time adds the bytes, queue-length one I/O. */
        void startIo(int p, long nrBytes) {
            if (type == SERVICE_TIME) {
                inFlight[p] = Math.addExact(inFlight[p], nrBytes);
            } else if (type == QUEUE_LENGTH) {
                inFlight[p]++;
            }
        }

        /** {@code end_io}. */
        void endIo(int p, long nrBytes) {
            if (type == SERVICE_TIME) {
                inFlight[p] -= nrBytes;
            } else if (type == QUEUE_LENGTH) {
                inFlight[p]--;
            }
        }

        /** {@code status(ps, path, STATUSTYPE_INFO)}: the path's selector fields as {@code dmsetup status} shows. */
        String info(int p) {
            return switch (type) {
                case ROUND_ROBIN -> "";
                case SERVICE_TIME -> " " + inFlight[p] + " " + relativeThroughput[p];
                case QUEUE_LENGTH -> " " + inFlight[p];
            };
        }
    }
}
