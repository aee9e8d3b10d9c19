package dev.dmmodel.impl.dm.thin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ThinPoolMetadataTest {

    @Test
    void allocatesInOrderAndContinuesAfterTheLastAllocation() {
        ThinPoolMetadata m = new ThinPoolMetadata(8);
        m.createThin(0);
        for (long v = 0; v < 4; v++) {
            m.insert(0, v, m.allocate());
        }
        assertThat(m.lookup(0, 3)).contains(new ThinPoolMetadata.Lookup(3, false));
        // freeing blocks 0-3 does not move the cursor back: the next block is 4 (sm_disk_new_block)
        assertThat(m.removeRange(0, 0, 4)).containsExactly(new long[] {0, 4});
        assertThat(m.allocate()).isEqualTo(4);
        assertThat(m.usedBlocks()).isEqualTo(1);
    }

    @Test
    void aSnapshotSharesEveryBlockUntilOneSideIsRewritten() {
        ThinPoolMetadata m = new ThinPoolMetadata(16);
        m.createThin(0);
        for (long v = 0; v < 4; v++) {
            m.insert(0, v, m.allocate());
        }
        m.createSnap(1, 0);
        assertThat(m.lookup(1, 2)).contains(new ThinPoolMetadata.Lookup(2, true));
        assertThat(m.usedBlocks()).isEqualTo(4);
        // breaking sharing: origin block 0 gets a new data block; the snapshot keeps block 0, now unshared
        m.insert(0, 0, m.allocate());
        assertThat(m.lookup(0, 0)).contains(new ThinPoolMetadata.Lookup(4, false));
        assertThat(m.lookup(1, 0)).contains(new ThinPoolMetadata.Lookup(0, false));
        // discarding the snapshot's blocks 0-3 frees only data block 0 (the rest is still the origin's)
        assertThat(m.removeRange(1, 0, 4)).containsExactly(new long[] {0, 1});
        assertThat(m.usedBlocks()).isEqualTo(4);
    }

    @Test
    void theHighestMappedBlockFollowsWritesAndDiscards() {
        ThinPoolMetadata m = new ThinPoolMetadata(16);
        m.createThin(0);
        assertThat(m.highestMappedBlock(0)).isEqualTo(-1);
        m.insert(0, 2, m.allocate());
        m.insert(0, 9, m.allocate());
        assertThat(m.highestMappedBlock(0)).isEqualTo(9);
        assertThat(m.mappedBlocks(0)).isEqualTo(2);
        m.removeRange(0, 5, 16);
        assertThat(m.highestMappedBlock(0)).isEqualTo(2);
        m.removeRange(0, 0, 16);
        assertThat(m.highestMappedBlock(0)).isEqualTo(-1);
    }

    @Test
    void messagesRefuseWhatTheKernelRefuses() {
        ThinPoolMetadata m = new ThinPoolMetadata(4);
        m.createThin(0);
        assertThatThrownBy(() -> m.createThin(0)).hasMessage("create_thin 0: device id already exists (File exists)");
        assertThatThrownBy(() -> m.createSnap(1, 7))
                .hasMessage("create_snap 1 7: origin 7 does not exist (No data available)");
        assertThatThrownBy(() -> m.setTransactionId(3, 4))
                .hasMessage("set_transaction_id 3 4: the current transaction id is 0 (Invalid argument)");
        for (int i = 0; i < 4; i++) {
            m.insert(0, i, m.allocate());
        }
        assertThat(m.allocate()).isEqualTo(-1);
    }

    @Test
    void aSequentialPetabyteIsOneRun() {
        // 1 PiB of 64 KiB blocks: 2^34 blocks, mapped in order
        long blocks = 1L << 34;
        ThinPoolMetadata m = new ThinPoolMetadata(blocks);
        m.createThin(0);
        for (long v = 0; v < 100_000; v++) {
            m.insert(0, v, m.allocate());
        }
        assertThat(m.runs()).isEqualTo(2); // one refcount run, one mapping run
    }
}
