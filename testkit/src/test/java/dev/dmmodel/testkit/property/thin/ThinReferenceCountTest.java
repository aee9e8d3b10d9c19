package dev.dmmodel.testkit.property.thin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.testkit.property.CoverageGate;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * <b>Invariant: a pool block's reference count is the number of thin device blocks mapping it</b>, seen from
 * outside: the pool's metadata is not read, only the trace and {@code Simulation.thinStats()}. After any
 * sequence of writes, reads, discards, snapshots (into thin devices and into ids without a device) and deletes
 * ({@code DmGens.thinScripts}), {@link ThinWorld} checks against its own mapping of (device, block) to pool
 * block:
 * <ul>
 *   <li>a write to a block mapped by no other device goes to that block (its count is 1: no needless copy);</li>
 *   <li>a write to an unmapped or shared block goes to a block nothing maps (a shared block's count is above 1,
 *       so sharing is broken; a block still mapped somewhere is never handed out again: nothing freed early,
 *       nothing double-freed);</li>
 *   <li>a read goes to the block mapped, and reads zeroes without I/O where nothing is mapped;</li>
 *   <li>each thin device's status (mapped sectors, highest mapped sector) and the pool's used blocks equal the
 *       reference's after every command (a delete or discard that drops the last mapping frees the block:
 *       nothing leaked).</li>
 * </ul>
 *
 * <p>Kernel rules: {@code dm_pool_create_snap} shares every block of the origin ({@code dm_sm_inc_blocks});
 * {@code break_sharing} allocates when {@code dm_thin_find_block} reports the block shared
 * ({@code lookup_result.shared}); {@code process_discard_cell_passdown} unmaps whole blocks
 * ({@code dm_thin_remove_range}) and {@code dm_pool_delete_thin_device} drops a device's mappings, each
 * decrementing counts ({@code dm_sm_dec_blocks}); a block with count 0 is free ({@code dm_pool_get_free_block_count}).
 */
class ThinReferenceCountTest {

    @Test
    void referenceCountsEqualMappingsAfterAnySequence() {
        ThinProperties.Outcome o = ThinProperties.forAll("thin-reference-counts", 0x7417_0001_2026_1130L,
                Set.of(ThinWorld.Check.MAPPINGS));
        CoverageGate.assumeEnoughTries("thin-reference-counts", o.result().tries());
        assertThat(o.get("sharing broken")).isPositive();
        assertThat(o.get("write in place")).isPositive();
        assertThat(o.get("block provisioned")).isPositive();
        assertThat(o.get("delete")).isPositive();
        assertThat(o.get("snapshot without a device")).isPositive();
        assertThat(o.get("snapshot into a thin device")).isPositive();
        assertThat(o.get("block unmapped by a discard")).isPositive();
    }
}
