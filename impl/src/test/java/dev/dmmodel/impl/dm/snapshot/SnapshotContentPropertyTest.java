package dev.dmmodel.impl.dm.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Property: through any sequence of direct writes and reads of the origin and the snapshot, the origin reads back
 * its newest data and the snapshot its data as of its creation plus what was written to it.
 *
 * <p>The data is followed at the disk, from the modelled trace alone: every write of a dd command carries that
 * command's version number; a kcopyd read ({@code R}) picks up the versions at its sectors and the kcopyd write
 * ({@code W}) that follows puts them at its own; writes into the COW device's header and first metadata area are
 * metadata, not data. A read's {@code RS} bios at the disk, in order, must carry the versions the test expects
 * for the sectors read — which the test keeps itself, per sector, for the origin and the snapshot.
 */
class SnapshotContentPropertyTest {

    /** 8 KiB chunks, so that 4 KiB writes are partial and 8 KiB aligned ones whole. */
    private static final long CHUNK = 16;
    /** The region the operations touch: 32 chunks from sector 0. */
    private static final int REGION = 512;
    /** The origin-real LV's start on sda. */
    private static final long REAL_START = 2048;
    private static final String[] SIZES = {"4k", "8k", "16k"};

    @Test
    void originAndSnapshotEachReadTheirOwnData() {
        for (long seed = 1; seed <= 60; seed++) {
            run(seed, 40);
        }
    }

    private static void run(long seed, int ops) {
        Random rnd = new Random(seed);
        SnapshotFixture f = new SnapshotFixture(CHUNK, 65536, "P");
        int[] origin = new int[REGION];
        int[] snap = new int[REGION];
        Map<Long, Integer> disk = new HashMap<>();
        for (int i = 0; i < REGION; i++) {
            disk.put(REAL_START + i, 0);
        }
        int version = 0;
        List<String> done = new ArrayList<>();
        for (int op = 0; op < ops; op++) {
            boolean toSnap = rnd.nextBoolean();
            boolean write = rnd.nextInt(3) > 0;
            String bs = SIZES[rnd.nextInt(SIZES.length)];
            long len = Long.parseLong(bs.replace("k", "")) * 2;
            long at = rnd.nextInt((int) (REGION - len) / 8 + 1) * 8L;
            String dev = toSnap ? SnapshotFixture.SNAP_NAME : SnapshotFixture.ORIGIN_NAME;
            String what = seed + "/" + op + ": " + (write ? "write " : "read ") + dev + " " + bs + " at " + at
                    + " after " + done;
            if (write) {
                version++;
                assertThat(f.run(SnapshotFixture.write(dev, bs, at * 512)).ok()).as(what).isTrue();
                follow(f.events, disk, version, null);
                Arrays.fill(toSnap ? snap : origin, (int) at, (int) (at + len), version);
            } else {
                assertThat(f.run(SnapshotFixture.read(dev, bs, at * 512)).ok()).as(what).isTrue();
                List<Integer> got = new ArrayList<>();
                follow(f.events, disk, 0, got);
                int[] view = toSnap ? snap : origin;
                List<Integer> want = new ArrayList<>();
                for (long s = at; s < at + len; s++) {
                    want.add(view[(int) s]);
                }
                assertThat(got).as(what).isEqualTo(want);
            }
            done.add((write ? "w " : "r ") + (toSnap ? "snap " : "origin ") + bs + "@" + at);
        }
    }

    /** Applies one command's disk bios to the versions on the disk; a read's data goes to {@code read}. */
    private static void follow(List<TraceEvent> events, Map<Long, Integer> disk, int version, List<Integer> read) {
        List<Integer> copying = null;
        for (TraceEvent e : events) {
            if (!e.device().equals("sda") || e.type() != EventType.BIO_QUEUE || e.nrSectors() == 0) {
                continue;
            }
            long s = e.sector();
            switch (e.rwbs()) {
                case "R" -> {
                    copying = new ArrayList<>();
                    for (long i = 0; i < e.nrSectors(); i++) {
                        copying.add(disk.getOrDefault(s + i, -1));
                    }
                }
                case "W" -> {
                    assertThat(copying).as("a kcopyd write follows its read").isNotNull().hasSize((int) e.nrSectors());
                    for (int i = 0; i < e.nrSectors(); i++) {
                        disk.put(s + i, copying.get(i));
                    }
                    copying = null;
                }
                case "RS" -> {
                    for (long i = 0; i < e.nrSectors(); i++) {
                        read.add(disk.getOrDefault(s + i, -1));
                    }
                }
                default -> {
                    // the COW's header (chunk 0) and metadata area 0 (chunk 1) hold no data
                    boolean metadata = s >= SnapshotFixture.COW_START && s < SnapshotFixture.COW_START + 2 * CHUNK;
                    if (!metadata && e.rwbs().startsWith("W")) {
                        for (long i = 0; i < e.nrSectors(); i++) {
                            disk.put(s + i, version);
                        }
                    }
                }
            }
        }
    }
}
