package dev.dmmodel.testkit.property.thin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.dm.ThinPoolFeature;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.testkit.property.CoverageGate;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Script;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * <b>Invariant: through dm-thin, a read returns the data of the last write</b> — model data identity, not
 * bytes. Random direct writes, discards, snapshots (into thin devices and into ids without a device) and
 * deletes go to 1–4 thin devices of one pool ({@code DmGens.thinPools()}, {@code DmGens.thinScripts}); the test
 * follows the data through the pool device only by what the trace shows there ({@link ThinWorld}) and checks
 * every read against a reference that knows nothing of dm-thin's metadata.
 *
 * <p>Data carries a token per sector: a write stamps {@code (operation, virtual sector)} on each of its sectors.
 * The reference keeps, per thin device id, the token each sector should read back; a snapshot copies its
 * origin's tokens, a discard turns the whole blocks it covers into zeroes. The pool starts full of garbage, so a
 * missing zeroing shows up as garbage read back; a read sector the trace never takes to the pool must be one
 * the reference says reads zeroes ({@code provision_block}: unprovisioned reads are zero-filled). With
 * {@code skip_block_zeroing} the never written rest of a provisioned block may read anything, as the kernel
 * documents.
 */
class ThinDataIdentityTest {

    @Test
    void aReadReturnsTheDataOfTheLastWrite() {
        ThinProperties.Outcome o = ThinProperties.forAll("thin-data-identity", 0x7A1D_0DA7_A1DE_2026L,
                Set.of(ThinWorld.Check.IDENTITY));
        CoverageGate.assumeEnoughTries("thin-data-identity", o.result().tries());
        // the generator reaches what the property is about
        assertThat(o.get("read of data shared with a snapshot")).isPositive();
        assertThat(o.get("kcopyd copy")).isPositive();
        assertThat(o.get("kcopyd zeroing")).isPositive();
        assertThat(o.get("sector checked to read zeroes")).isPositive();
        assertThat(o.get("sector read as zeroes without I/O")).isPositive();
        assertThat(o.get("block unmapped by a discard")).isPositive();
    }

    @Test
    void theReferenceCatchesAMissingZeroing() {
        // the check is not vacuous: with skip_block_zeroing the rest of a partially written block is garbage,
        // which the check as if zeroing were on rejects
        Layout layout = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(8192), "sda", Sectors.ZERO))
                .dmsetupCreate("tdata", t -> t.linear(Sectors.of(1024), "sda", Sectors.of(8192)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.of(1024), "tmeta", "tdata", 128, 0,
                        ThinPoolFeature.SKIP_BLOCK_ZEROING))
                .dmsetupCreate("thin0", t -> t.thin(Sectors.of(512), "pool", 0))
                .build();
        ThinCase c = new ThinCase(layout, Script.parse(
                "dd if=/dev/zero of=/dev/mapper/thin0 bs=4096 count=1 seek=0 oflag=direct,seek_bytes\n"
                + "dd if=/dev/mapper/thin0 of=/dev/null bs=65536 count=1 skip=0 iflag=direct,skip_bytes"));
        new ThinWorld(c, Set.of(ThinWorld.Check.IDENTITY)).run();
        assertThat(catchThrowable(() -> new ThinWorld(c, Set.of(ThinWorld.Check.IDENTITY)).assumingZeroing().run()))
                .isInstanceOf(AssertionError.class).hasMessageContaining("garbage");
    }
}
