package dev.dmmodel.impl.dm.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.engine.SnapshotStats;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The findings of a snapshot's statistics, with numbers worked out by hand. */
class SnapshotFindingsTest {

    private static SnapshotStats stats(long chunk, long copied, long commits, long originSectors, long largest,
                                       boolean invalid, boolean overflowed) {
        return new SnapshotStats("dm-3", "dm-0", "dm-1", chunk, copied, 0, commits, originSectors, largest, 2072,
                65536, 24, invalid, overflowed);
    }

    @Test
    void writeAmplificationIsChunksCopiedPerMibWrittenToTheOrigin() {
        // 256 chunks of 4 KiB for 1 MiB (2048 sectors): 256 per MiB, 1 MiB read and written, 1.00 times the data
        List<Finding> f = SnapshotFindings.of(stats(8, 256, 1, 2048, 8, false, false));
        assertThat(f).extracting(Finding::type).containsExactly(FindingType.SNAPSHOT_WRITE_AMPLIFICATION);
        assertThat(f.get(0).id()).isEqualTo("snapshot.write-amplification");
        assertThat(f.get(0).message()).contains("copied 256 chunks of 4KiB for 1MiB written to its origin dm-0")
                .contains("256.00 chunks per MiB").contains("1.00 times the data").contains("1 exception-store commits");
        // 16 chunks of 64 KiB for 4 writes of 4 KiB (32 sectors): 16 x 2048 / 32 = 1024 per MiB, 1 MiB copied for
        // 16 KiB: 64 times the data
        SnapshotStats small = stats(128, 16, 4, 32, 8, false, false);
        assertThat(SnapshotFindings.chunksPerMib(small)).isEqualTo(1024.0);
        assertThat(SnapshotFindings.of(small).get(0).message()).contains("1024.00 chunks per MiB")
                .contains("64.00 times the data");
        // nothing copied or nothing written to the origin: no finding
        assertThat(SnapshotFindings.of(stats(8, 0, 0, 2048, 2048, false, false)))
                .noneMatch(x -> x.type() == FindingType.SNAPSHOT_WRITE_AMPLIFICATION);
        assertThat(SnapshotFindings.of(stats(8, 3, 1, 0, 0, false, false))).isEmpty();
    }

    @Test
    void writesOfFourChunksOrMoreAreReported() {
        // 2048-sector writes over 8-sector chunks: 256 pieces each
        List<Finding> f = SnapshotFindings.of(stats(8, 256, 1, 2048, 2048, false, false));
        assertThat(f).extracting(Finding::type).containsExactly(FindingType.SNAPSHOT_WRITE_AMPLIFICATION,
                FindingType.SNAPSHOT_CHUNK_SMALLER_THAN_WRITE);
        assertThat(f.get(1).message()).contains("writes of up to 1MiB").contains("4KiB chunks")
                .contains("256 pieces per write");
        assertThat(f.get(1).severity()).isEqualTo(Severity.WARNING);
        // 3 chunks (24 sectors of 8): below the 4 reported; 4 chunks: reported
        assertThat(SnapshotFindings.of(stats(8, 0, 0, 24, 24, false, false))).isEmpty();
        assertThat(SnapshotFindings.of(stats(8, 0, 0, 32, 32, false, false))).extracting(Finding::type)
                .containsExactly(FindingType.SNAPSHOT_CHUNK_SMALLER_THAN_WRITE);
    }

    @Test
    void aFullCowIsAnError() {
        List<Finding> invalid = SnapshotFindings.of(stats(8, 0, 0, 0, 0, true, false));
        assertThat(invalid).extracting(Finding::type).containsExactly(FindingType.SNAPSHOT_COW_FULL);
        assertThat(invalid.get(0).severity()).isEqualTo(Severity.ERROR);
        assertThat(invalid.get(0).message()).contains("dm-1").contains("(32MiB)").contains("'Invalid'");
        assertThat(SnapshotFindings.of(stats(8, 0, 0, 0, 0, false, true)).get(0).message()).contains("'Overflow'");
    }

    @Test
    void fromASimulatedWorkload() {
        // the 48-sector COW of SnapshotIoTest: 4 origin chunks copied, the fifth invalidates; 5 x 8 = 40 sectors
        // written to the origin while valid (the fifth write counts: the snapshot was valid when it came)
        SnapshotFixture f = new SnapshotFixture(8, 48, "P");
        for (int chunk = 0; chunk < 5; chunk++) {
            f.run(SnapshotFixture.write(SnapshotFixture.ORIGIN_NAME, "4k", chunk * 4096L));
        }
        SnapshotStats s = f.stats();
        assertThat(s.chunksCopied()).isEqualTo(4);
        assertThat(s.originWriteSectors()).isEqualTo(40);
        // 4 x 2048 / 40 = 204.8 chunks per MiB
        assertThat(SnapshotFindings.of(s)).extracting(Finding::type).containsExactly(
                FindingType.SNAPSHOT_WRITE_AMPLIFICATION, FindingType.SNAPSHOT_COW_FULL);
        assertThat(SnapshotFindings.of(s).get(0).message()).contains("204.80 chunks per MiB");
    }
}
