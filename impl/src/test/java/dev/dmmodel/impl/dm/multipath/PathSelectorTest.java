package dev.dmmodel.impl.dm.multipath;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The selectors' select_path, start_io and end_io, worked out from dm-ps-*.c. */
class PathSelectorTest {

    private static List<Integer> picks(PathSelector.State s, int n, long bytes, boolean complete) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int p = s.select(bytes);
            s.startIo(p, bytes);
            if (complete) {
                s.endIo(p, bytes);
            }
            out.add(p);
        }
        return out;
    }

    @Test
    void roundRobinTakesTheHeadAndMovesItToTheTail() {
        // rr_select_path: valid_paths.next, then list_move_tail: 0 1 2 0 1 2
        PathSelector.State s = PathSelector.ROUND_ROBIN.newState(List.of(List.of("1"), List.of("1"), List.of("1")));
        assertThat(picks(s, 6, 4096, true)).containsExactly(0, 1, 2, 0, 1, 2);
    }

    @Test
    void serviceTimeTieGoesToTheHeadOfTheList() {
        // st_select_path keeps the first path unless a later one compares strictly less; equal in-flight (0 after
        // each completion) and equal throughput compare 0, so the head wins and moves to the tail: 0 1 0 1
        PathSelector.State s = PathSelector.SERVICE_TIME.newState(List.of(List.of("1", "1"), List.of("1", "1")));
        assertThat(picks(s, 4, 4096, true)).containsExactly(0, 1, 0, 1);
    }

    @Test
    void serviceTimePrefersTheLessLoadedPath() {
        // nothing completes: path 0 takes 1 MiB in flight; then path 1 (0 < 1 MiB) takes 4 KiB; then path 1 again
        // (4096 < 1048576), although it is now the tail
        PathSelector.State s = PathSelector.SERVICE_TIME.newState(List.of(List.of("1", "1"), List.of("1", "1")));
        int first = s.select(1048576);
        s.startIo(first, 1048576);
        int second = s.select(4096);
        s.startIo(second, 4096);
        int third = s.select(4096);
        assertThat(List.of(first, second, third)).containsExactly(0, 1, 1);
        assertThat(s.info(0)).isEqualTo(" 1048576 1");
        assertThat(s.info(1)).isEqualTo(" 4096 1");
    }

    @Test
    void serviceTimeWithEqualLoadsPrefersTheHigherThroughput() {
        // case 2a: sizes equal (0), throughputs 1 and 10: path 1 wins although it is second; then case 3: path 1
        // has 4096 in flight: (4096 + 4096) * 1 = 8192 against (0 + 4096) * 10 = 40960 for path 0: path 0 is
        // slower, path 1 wins again
        PathSelector.State s = PathSelector.SERVICE_TIME.newState(List.of(List.of("1", "1"), List.of("1", "10")));
        assertThat(picks(s, 2, 4096, false)).containsExactly(1, 1);
    }

    @Test
    void serviceTimeZeroThroughputIsUsedOnlyWhenAlone() {
        // case 2b: a path with relative_throughput 0 loses to any other
        PathSelector.State s = PathSelector.SERVICE_TIME.newState(List.of(List.of("1", "0"), List.of("1", "1")));
        assertThat(picks(s, 3, 4096, false)).containsExactly(1, 1, 1);
    }

    @Test
    void queueLengthMovesTheHeadToTheTailBeforeChoosing() {
        // ql_select_path: list_move_tail(valid_paths.next) first, then the first path with qlen 0: 1 0 1 0
        PathSelector.State s = PathSelector.QUEUE_LENGTH.newState(List.of(List.of("1"), List.of("1")));
        assertThat(picks(s, 4, 4096, true)).containsExactly(1, 0, 1, 0);
    }

    @Test
    void addPathNormalisesAndRefuses() {
        List<String> out = new ArrayList<>();
        assertThat(PathSelector.SERVICE_TIME.addPath(List.of("7", "100"), out)).isNull();
        // repeat_count > 1 is deprecated and becomes 1; relative_throughput up to ST_MAX_RELATIVE_THROUGHPUT 100
        assertThat(out).containsExactly("1", "100");
        assertThat(PathSelector.SERVICE_TIME.addPath(List.of("1", "4294967296"), new ArrayList<>()))
                .isEqualTo("service-time ps: invalid relative_throughput value");
        assertThat(PathSelector.ROUND_ROBIN.addPath(List.of("+1"), new ArrayList<>()))
                .isEqualTo("round-robin ps: invalid repeat count");
        List<String> rr = new ArrayList<>();
        assertThat(PathSelector.ROUND_ROBIN.addPath(List.of(), rr)).isNull();
        assertThat(rr).containsExactly("1");
    }
}
