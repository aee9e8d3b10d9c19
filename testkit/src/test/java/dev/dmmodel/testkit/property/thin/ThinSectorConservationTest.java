package dev.dmmodel.testkit.property.thin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.testkit.property.CoverageGate;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * <b>Invariant: sectors are conserved through a thin stack, accounting for what dm-thin adds</b>, for every
 * command and per direction (read, write; discards and empty flushes aside): a thin device passes on to its pool
 * every sector written and every sector read from a mapped block (the others are zero-filled:
 * {@code thin_bio_map} → {@code zero_fill_bio}); the pool receives exactly its thin devices' remaps plus
 * kcopyd's whole-block zeroing ({@code schedule_zero}) and copying ({@code schedule_copy}: a read and a write),
 * as many blocks as {@code ThinStats.blocksZeroed()}/{@code blocksCopied()} grew by; the pool, {@code tdata} and
 * {@code tmeta} pass on what they receive ({@code linear_map}, {@code thin-pool} → data device); the disk
 * receives what is remapped onto it.
 */
class ThinSectorConservationTest {

    @Test
    void everySectorIsPassedOnOncePlusThinsOwnIo() {
        ThinProperties.Outcome o = ThinProperties.forAll("thin-sector-conservation", 0x5EC7_0C0A_2026_1130L,
                Set.of(ThinWorld.Check.CONSERVATION));
        CoverageGate.assumeEnoughTries("thin-sector-conservation", o.result().tries());
        assertThat(o.get("kcopyd copy")).isPositive();
        assertThat(o.get("kcopyd zeroing")).isPositive();
        assertThat(o.get("sector read as zeroes without I/O")).isPositive();
    }
}
