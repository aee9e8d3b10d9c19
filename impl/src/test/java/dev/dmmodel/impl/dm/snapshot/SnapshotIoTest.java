package dev.dmmodel.impl.dm.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.trace.EventType;
import org.junit.jupiter.api.Test;

/**
 * dm-snapshot's I/O path on the recorded stack ({@link SnapshotFixture}), each expectation worked out from
 * dm-snap.c / dm-snap-persistent.c and checked against kernel-traces-6.12-stacks/snap-*.
 */
class SnapshotIoTest {

    @Test
    void firstOriginWriteCopiesTheChunkCommitsThenWrites() {
        // snap-c4k-origin-w4k-at0: kcopyd reads chunk 0 from origin-real (R 0+8), writes it to COW chunk 2 (W 16+8:
        // header chunk 0, metadata area chunk 1), commits area 0 (FWFS 8+8 on the COW), then the origin write goes to
        // origin-real without a remap event (retry_origin_bios -> submit_bio_noacct)
        SnapshotFixture f = new SnapshotFixture(8, 65536, "P");
        assertThat(f.run(SnapshotFixture.write(SnapshotFixture.ORIGIN_NAME, "4k", 0)).ok()).isTrue();
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_QUEUE)).containsExactly("R 0+8", "WS 0+8");
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_REMAP)).isEmpty();
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_QUEUE)).containsExactly("W 16+8", "FWFS 8+8");
        // at the disk: the empty preflush at the commit's own sector (8, dm-linear leaves empty flushes alone on
        // 6.12), then the data as WFS at 133120 + 8
        assertThat(f.on("sda", EventType.BIO_QUEUE)).containsExactly("R 2048+8", "W 133136+8", "FWFS 8+0",
                "WFS 133128+8", "WS 2048+8");
        int read = f.indexOf("sda", EventType.BIO_QUEUE, "R", 2048);
        int copy = f.indexOf("sda", EventType.BIO_QUEUE, "W", 133136);
        int commit = f.indexOf("sda", EventType.BIO_QUEUE, "WFS", 133128);
        int origin = f.indexOf("sda", EventType.BIO_QUEUE, "WS", 2048);
        assertThat(read).isLessThan(copy);
        assertThat(copy).isLessThan(commit);
        assertThat(commit).isLessThan(origin);
        // snapshot_status: next_free 3 chunks of 8 = 24 used; header + area 0 = 16 metadata
        assertThat(f.stats().dmsetupStatus()).isEqualTo("24/65536 16");
        assertThat(f.stats().chunksCopied()).isEqualTo(1);
        assertThat(f.stats().commits()).isEqualTo(1);
    }

    @Test
    void aSecondWriteToTheChunkGoesStraightThrough() {
        // snap-c4k-origin-w4k-at0-again: the exception exists, origin_map returns DM_MAPIO_REMAPPED
        SnapshotFixture f = new SnapshotFixture(8, 65536, "P");
        f.run(SnapshotFixture.write(SnapshotFixture.ORIGIN_NAME, "4k", 0));
        f.run(SnapshotFixture.write(SnapshotFixture.ORIGIN_NAME, "4k", 0));
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_REMAP)).containsExactly("WS 0+8");
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_QUEUE)).isEmpty();
        assertThat(f.on("sda", EventType.BIO_QUEUE)).containsExactly("WS 2048+8");
        assertThat(f.stats().chunksCopied()).isEqualTo(1);
    }

    @Test
    void aLargeOriginWriteIsCutAtEveryChunkAndEachChunkCopied() {
        // origin_map: dm_accept_partial_bio at the 8-sector chunk: 2048 / 8 = 256 pieces, 255 block_split at the
        // origin; each piece copies its chunk. A fresh store's area 0 holds 4096 / 16 = 256 exceptions: COW chunks 2 to
        // 257 are the copies; the 256th commit fills the area, so area 1 (chunk 1 + 257 = 258, sector 2064) is zeroed
        // first, then area 0 committed once (all 256 copies were in flight together: one commit)
        SnapshotFixture f = new SnapshotFixture(8, 65536, "P");
        assertThat(f.run(SnapshotFixture.write(SnapshotFixture.ORIGIN_NAME, "1M", 1048576)).ok()).isTrue();
        assertThat(f.on(SnapshotFixture.ORIGIN, EventType.SPLIT)).hasSize(255);
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_QUEUE)).filteredOn(s -> s.startsWith("R ")).hasSize(256)
                .first().isEqualTo("R 2048+8");
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_QUEUE)).filteredOn(s -> s.startsWith("WS ")).hasSize(256);
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_QUEUE)).filteredOn(s -> s.startsWith("W ")).hasSize(256)
                .first().isEqualTo("W 16+8");
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_QUEUE)).filteredOn(s -> s.startsWith("W "))
                .last().isEqualTo("W 2056+8");
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_QUEUE)).filteredOn(s -> !s.startsWith("W "))
                .containsExactly("WS 2064+8", "FWFS 8+8");
        // next_free: 258 after chunk 257 is the metadata chunk, so 259; 259 x 8 = 2072; metadata (1 + 1 + 1) x 8
        assertThat(f.stats().dmsetupStatus()).isEqualTo("2072/65536 24");
        assertThat(f.stats().chunksCopied()).isEqualTo(256);
        assertThat(f.stats().commits()).isEqualTo(1);
        assertThat(f.stats().originWriteSectors()).isEqualTo(2048);
        assertThat(f.stats().largestOriginWriteSectors()).isEqualTo(2048);
    }

    @Test
    void aWholeChunkWriteToTheSnapshotCopiesNothing() {
        // snap-c4k-snap-w4k-at2M: a 4 KiB write is a whole 4 KiB chunk: start_full_bio writes it to COW chunk 2
        // (sector 16) at once, then the commit; nothing is read from origin-real
        SnapshotFixture f = new SnapshotFixture(8, 65536, "P");
        assertThat(f.run(SnapshotFixture.write(SnapshotFixture.SNAP_NAME, "4k", 2097152)).ok()).isTrue();
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_QUEUE)).isEmpty();
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_QUEUE)).containsExactly("WS 16+8", "FWFS 8+8");
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_REMAP)).isEmpty();
        assertThat(f.stats().fullChunkWrites()).isEqualTo(1);
        assertThat(f.stats().chunksCopied()).isZero();
        // snap-c64k-snap-w64k-at3M: 64 KiB aligned with 64 KiB chunks: the same, WS 256+128 then FWFS 128+128
        SnapshotFixture g = new SnapshotFixture(128, 65536, "P");
        g.run(SnapshotFixture.write(SnapshotFixture.SNAP_NAME, "64k", 3145728));
        assertThat(g.on(SnapshotFixture.REAL, EventType.BIO_QUEUE)).isEmpty();
        assertThat(g.on(SnapshotFixture.COW, EventType.BIO_QUEUE)).containsExactly("WS 256+128", "FWFS 128+128");
    }

    @Test
    void aPartialChunkWriteToTheSnapshotCopiesTheChunkFirst() {
        // snap-c64k-snap-w4k-at2M: 4 KiB at 2 MiB = sector 4096, chunk 32 of 128 sectors: kcopyd copies the chunk
        // (R 4096+128 from origin-real, W 256+128 to COW chunk 2), the commit (FWFS 128+128), then the write at the
        // same offset in COW chunk 2 (256 + 4096 % 128 = 256)
        SnapshotFixture f = new SnapshotFixture(128, 65536, "P");
        assertThat(f.run(SnapshotFixture.write(SnapshotFixture.SNAP_NAME, "4k", 2097152)).ok()).isTrue();
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_QUEUE)).containsExactly("R 4096+128");
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_QUEUE)).containsExactly("W 256+128", "FWFS 128+128",
                "WS 256+8");
        assertThat(f.stats().chunksCopied()).isEqualTo(1);
        assertThat(f.stats().fullChunkWrites()).isZero();
        // 3 chunks used of 128 sectors; header and area 0
        assertThat(f.stats().dmsetupStatus()).isEqualTo("384/65536 256");
    }

    @Test
    void snapshotReadsGoToTheCowWhereAnExceptionExistsElseToTheOrigin() {
        SnapshotFixture f = new SnapshotFixture(8, 65536, "P");
        f.run(SnapshotFixture.write(SnapshotFixture.ORIGIN_NAME, "4k", 0));
        // snap-c4k-snap-r4k-at0: chunk 0 has its exception in COW chunk 2
        f.run(SnapshotFixture.read(SnapshotFixture.SNAP_NAME, "4k", 0));
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_REMAP)).containsExactly("RS 16+8");
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_QUEUE)).isEmpty();
        // snap-c64k-snap-r64k-at8M's rule: a chunk without an exception is read from origin-real, same sector
        f.run(SnapshotFixture.read(SnapshotFixture.SNAP_NAME, "4k", 8388608));
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_REMAP)).containsExactly("RS 16384+8");
        // 8 KiB over chunks 0 and 1: max_io_len cuts it at the chunk (one split), each half goes its own way
        f.run(SnapshotFixture.read(SnapshotFixture.SNAP_NAME, "8k", 0));
        assertThat(f.on(SnapshotFixture.SNAP, EventType.SPLIT)).hasSize(1);
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_REMAP)).containsExactly("RS 16+8");
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_REMAP)).containsExactly("RS 8+8");
        // snap-c64k-origin-r1M-at0: origin reads are not cut: one 2048-sector remap to origin-real
        f.run(SnapshotFixture.read(SnapshotFixture.ORIGIN_NAME, "1M", 0));
        assertThat(f.on(SnapshotFixture.ORIGIN, EventType.SPLIT)).isEmpty();
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_REMAP)).containsExactly("RS 0+2048");
    }

    @Test
    void aFullCowInvalidatesTheSnapshotAndOriginWritesThenGoStraightThrough() {
        // a 48-sector COW with 8-sector chunks: header chunk 0, area chunk 1, data chunks 2..5; persistent_prepare_
        // exception refuses when (next_free + 1) x 8 > 48, i.e. at next_free 6: four exceptions fit
        SnapshotFixture f = new SnapshotFixture(8, 48, "P");
        for (int chunk = 0; chunk < 4; chunk++) {
            assertThat(f.run(SnapshotFixture.write(SnapshotFixture.ORIGIN_NAME, "4k", chunk * 4096L)).ok()).isTrue();
        }
        assertThat(f.stats().dmsetupStatus()).isEqualTo("48/48 16");
        // the fifth chunk: no room, __origin_write invalidates the snapshot (persistent_drop_snapshot rewrites the
        // header, WS 0+8) and the origin write goes straight through as a remap
        assertThat(f.run(SnapshotFixture.write(SnapshotFixture.ORIGIN_NAME, "4k", 4 * 4096L)).ok()).isTrue();
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_QUEUE)).containsExactly("WS 0+8");
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_REMAP)).containsExactly("WS 32+8");
        assertThat(f.stats().dmsetupStatus()).isEqualTo("Invalid");
        assertThat(f.stats().invalid()).isTrue();
        // snapshot_map: an invalid snapshot's I/O is DM_MAPIO_KILL: EIO, nothing below
        CommandResult r = f.run(SnapshotFixture.read(SnapshotFixture.SNAP_NAME, "4k", 0));
        assertThat(r.ok()).isFalse();
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_QUEUE)).isEmpty();
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_QUEUE)).isEmpty();
        // further origin writes do not look at the invalid snapshot
        f.run(SnapshotFixture.write(SnapshotFixture.ORIGIN_NAME, "4k", 5 * 4096L));
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_QUEUE)).isEmpty();
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_REMAP)).containsExactly("WS 40+8");
        assertThat(f.stats().chunksCopied()).isEqualTo(4);
    }

    @Test
    void aPoStoreOverflowsOnASnapshotWriteInsteadOfInvalidating() {
        // PO (userspace_supports_overflow): a snapshot write that finds no free chunk sets snapshot_overflowed and
        // fails; the snapshot stays valid for reads
        SnapshotFixture f = new SnapshotFixture(8, 48, "PO");
        for (int chunk = 0; chunk < 4; chunk++) {
            assertThat(f.run(SnapshotFixture.write(SnapshotFixture.SNAP_NAME, "4k", chunk * 4096L)).ok()).isTrue();
        }
        assertThat(f.run(SnapshotFixture.write(SnapshotFixture.SNAP_NAME, "4k", 4 * 4096L)).ok()).isFalse();
        assertThat(f.stats().dmsetupStatus()).isEqualTo("Overflow");
        assertThat(f.run(SnapshotFixture.read(SnapshotFixture.SNAP_NAME, "4k", 0)).ok()).isTrue();
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_REMAP)).containsExactly("RS 16+8");
    }

    @Test
    void aTransientStoreCopiesFromCowChunkZeroAndNeverCommits() {
        // dm-snap-transient.c: chunks from sector 0 of the COW device, commit_exception completes at once
        SnapshotFixture f = new SnapshotFixture(8, 65536, "N");
        f.run(SnapshotFixture.write(SnapshotFixture.ORIGIN_NAME, "4k", 0));
        assertThat(f.on(SnapshotFixture.COW, EventType.BIO_QUEUE)).containsExactly("W 0+8");
        assertThat(f.on(SnapshotFixture.REAL, EventType.BIO_QUEUE)).containsExactly("R 0+8", "WS 0+8");
        // transient_usage: next_free 8 sectors, no metadata
        assertThat(f.stats().dmsetupStatus()).isEqualTo("8/65536 0");
        assertThat(f.stats().commits()).isZero();
    }
}
