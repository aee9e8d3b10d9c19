package dev.dmmodel.impl.dm.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.dm.SnapshotTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** dm-snap-persistent.c's layout, commit batching and usage; dm-snap-transient.c's. */
class ExceptionStoreTest {

    private static ExceptionStore persistent(long chunk, long cow) {
        return new ExceptionStore(SnapshotTarget.Store.PERSISTENT, chunk, cow);
    }

    @Test
    void chunksPerMetadataAreaAreTheChunkBytesOverSixteen() {
        // sizeof(struct disk_exception) = 16: 4 KiB chunks hold 256, 64 KiB chunks 4096
        assertThat(persistent(8, 65536).exceptionsPerArea()).isEqualTo(256);
        assertThat(persistent(128, 65536).exceptionsPerArea()).isEqualTo(4096);
        // area_location: 1 + (256 + 1) x area
        assertThat(persistent(8, 65536).areaChunk(0)).isEqualTo(1);
        assertThat(persistent(8, 65536).areaChunk(1)).isEqualTo(258);
        assertThat(persistent(8, 65536).areaChunk(2)).isEqualTo(515);
    }

    @Test
    void dataChunksStartAtTwoAndSkipEveryMetadataArea() {
        ExceptionStore s = persistent(8, 65536);
        List<Long> chunks = new ArrayList<>();
        for (int i = 0; i < 258; i++) {
            chunks.add(s.prepare().getAsLong());
        }
        // 256 data chunks 2..257 after area 0, then area 1 at 258 is skipped: 259, 260
        assertThat(chunks.get(0)).isEqualTo(2);
        assertThat(chunks.get(255)).isEqualTo(257);
        assertThat(chunks.get(256)).isEqualTo(259);
        assertThat(chunks.get(257)).isEqualTo(260);
    }

    @Test
    void usageIsNextFreeAndTheAreasSoFar() {
        // the recorded snapshots: a new store prints 16/65536 16 (4 KiB chunks) and 256/65536 256 (64 KiB)
        assertThat(persistent(8, 65536).usedSectors()).isEqualTo(16);
        assertThat(persistent(8, 65536).metadataSectors()).isEqualTo(16);
        assertThat(persistent(128, 65536).usedSectors()).isEqualTo(256);
        // after 257 exceptions with 4 KiB chunks (snap-c4k-origin-w1M-at1M's raw status 2080/65536 24): next_free
        // 260, area 1 current
        ExceptionStore s = persistent(8, 65536);
        for (int i = 0; i < 257; i++) {
            s.prepare();
            s.commit(() -> { });
        }
        assertThat(s.usedSectors()).isEqualTo(2080);
        assertThat(s.metadataSectors()).isEqualTo(24);
        assertThat(s.totalSectors()).isEqualTo(65536);
    }

    @Test
    void aCommitWaitsForEveryExceptionInFlight() {
        ExceptionStore s = persistent(8, 65536);
        s.prepare();
        s.prepare();
        s.prepare();
        List<String> done = new ArrayList<>();
        // pending_count 3 -> 2 -> 1: nothing written, the callbacks wait
        assertThat(s.commit(() -> done.add("a")).writes()).isEmpty();
        assertThat(s.commit(() -> done.add("b")).writes()).isEmpty();
        // the last one: area 0 (chunk 1) written with PREFLUSH|FUA, all three complete
        ExceptionStore.Commit c = s.commit(() -> done.add("c"));
        assertThat(c.writes()).containsExactly(new ExceptionStore.MetadataWrite(1, true));
        c.completed().forEach(Runnable::run);
        assertThat(done).containsExactly("a", "b", "c");
        assertThat(s.commits()).isEqualTo(1);
    }

    @Test
    void aFullAreaIsCommittedAtOnceAfterTheNextOneIsZeroed() {
        // 1 exception committed alone, then 256 in flight: the 255th fills area 0 (current_committed 256) and is
        // committed although one is still in flight, after zeroing area 1 (chunk 258); the 256th goes to area 1
        ExceptionStore s = persistent(8, 65536);
        s.prepare();
        assertThat(s.commit(() -> { }).writes()).hasSize(1);
        for (int i = 0; i < 256; i++) {
            s.prepare();
        }
        List<List<ExceptionStore.MetadataWrite>> writes = new ArrayList<>();
        for (int i = 0; i < 256; i++) {
            List<ExceptionStore.MetadataWrite> w = s.commit(() -> { }).writes();
            if (!w.isEmpty()) {
                writes.add(w);
            }
        }
        assertThat(writes).containsExactly(
                List.of(new ExceptionStore.MetadataWrite(258, false), new ExceptionStore.MetadataWrite(1, true)),
                List.of(new ExceptionStore.MetadataWrite(258, true)));
        // 1 + 2 commits (the rerun of snap-c4k-origin-w1M-at1M's two)
        assertThat(s.commits()).isEqualTo(3);
    }

    @Test
    void noRoomWhenTheNextChunkWouldPassTheCowEnd() {
        // 64 sectors = 8 chunks: data chunks 2..7 fit ((next_free + 1) x 8 <= 64), the 7th exception does not
        ExceptionStore s = persistent(8, 64);
        for (int i = 2; i <= 7; i++) {
            assertThat(s.prepare()).isEqualTo(OptionalLong.of(i));
        }
        assertThat(s.prepare()).isEmpty();
        // a dropped store rewrites its header (chunk 0) and commits no more areas
        assertThat(s.drop()).isEqualTo(OptionalLong.of(0));
        assertThat(s.commit(() -> { }).writes()).isEmpty();
    }

    @Test
    void theTransientStoreCountsSectorsFromZero() {
        ExceptionStore s = new ExceptionStore(SnapshotTarget.Store.TRANSIENT, 8, 24);
        assertThat(s.usedSectors()).isZero();
        assertThat(s.prepare()).isEqualTo(OptionalLong.of(0));
        assertThat(s.prepare()).isEqualTo(OptionalLong.of(1));
        assertThat(s.prepare()).isEqualTo(OptionalLong.of(2));
        assertThat(s.prepare()).isEmpty();
        ExceptionStore.Commit c = s.commit(() -> { });
        assertThat(c.writes()).isEmpty();
        assertThat(c.completed()).hasSize(1);
        assertThat(s.usedSectors()).isEqualTo(24);
        assertThat(s.metadataSectors()).isZero();
        assertThat(s.drop()).isEmpty();
    }
}
