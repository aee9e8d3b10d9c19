package dev.dmmodel.impl.dm.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.dm.SnapshotOriginTarget;
import dev.dmmodel.dm.SnapshotTarget;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Sectors;
import org.junit.jupiter.api.Test;

/** snapshot_iterate_devices, snapshot_io_hints, num_*_bios, max_io_len and the chunk's block-size rule. */
class SnapshotModelTest {

    private static SnapshotTarget target(long chunk, boolean zeroes, boolean passdown) {
        return new SnapshotTarget(Sectors.ZERO, Sectors.of(131072), "dm-1", "dm-2", SnapshotTarget.Store.PERSISTENT,
                chunk, zeroes, passdown);
    }

    private static Limits limits(long lbs) {
        Limits l = new Limits();
        l.logicalBlockSize = lbs;
        l.discardGranularity = 512;
        l.maxDiscardSectors = 4194303;
        return l;
    }

    @Test
    void theOriginForTheTargetsLengthThenTheWholeCow() {
        // snapshot_iterate_devices: origin (0, ti->len), COW (0, get_dev_size(cow))
        SnapshotModel m = new SnapshotModel(target(8, false, false), 65536);
        assertThat(m.iterateDevices()).containsExactly(new TargetModel.DeviceArea("dm-1", 0, 131072),
                new TargetModel.DeviceArea("dm-2", 0, 65536));
        // one flush bio, which snapshot_map sends to the COW device
        assertThat(m.flushAreas()).containsExactly(new TargetModel.DeviceArea("dm-2", 0, 65536));
        // dm_set_target_max_io_len(ti, chunk_size)
        assertThat(m.maxIoLen()).isEqualTo(8);
        assertThat(new SnapshotOriginModel(new SnapshotOriginTarget(Sectors.ZERO, Sectors.of(131072), "dm-1"))
                .iterateDevices()).containsExactly(new TargetModel.DeviceArea("dm-1", 0, 131072));
    }

    @Test
    void noDiscardsOrWriteZeroesWithoutTheFeatures() {
        // the README: "origin and snapshot devices have discard and write_zeroes 0"
        SnapshotModel m = new SnapshotModel(target(8, false, false), 65536);
        assertThat(m.numDiscardBios()).isZero();
        assertThat(m.numWriteZeroesBios()).isZero();
        SnapshotOriginModel o = new SnapshotOriginModel(new SnapshotOriginTarget(Sectors.ZERO, Sectors.of(8), "dm-1"));
        assertThat(o.numDiscardBios()).isZero();
        assertThat(o.numWriteZeroesBios()).isZero();
        // snapshot_ctr: 1 discard bio with discard_zeroes_cow, 2 with discard_passdown_origin as well
        assertThat(new SnapshotModel(target(8, true, false), 65536).numDiscardBios()).isEqualTo(1);
        assertThat(new SnapshotModel(target(8, true, true), 65536).numDiscardBios()).isEqualTo(2);
    }

    @Test
    void ioHintsOnlyWithDiscardZeroesCow() {
        Limits l = limits(512);
        new SnapshotModel(target(128, false, false), 65536).ioHints(l, d -> limits(512), KernelProfile.LINUX_6_12);
        assertThat(l.discardGranularity).isEqualTo(512);
        assertThat(l.maxDiscardSectors).isEqualTo(4194303);
        // snapshot_io_hints: discards split at every chunk: granularity 128 x 512 bytes, at most 128 sectors
        new SnapshotModel(target(128, true, false), 65536).ioHints(l, d -> limits(512), KernelProfile.LINUX_6_12);
        assertThat(l.discardGranularity).isEqualTo(65536);
        assertThat(l.maxDiscardSectors).isEqualTo(128);
    }

    @Test
    void theChunkMustBeAMultipleOfBothLogicalBlockSizes() {
        // 4 sectors = 2 KiB is not a multiple of a 4096-byte logical block
        assertThatThrownBy(() -> new SnapshotModel(target(4, false, false), 65536)
                .ioHints(limits(512), d -> limits(d.equals("dm-2") ? 4096 : 512), KernelProfile.LINUX_6_12))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chunk size 4 sectors (2048 bytes)")
                .hasMessageContaining("4096-byte logical block size of dm-2")
                .hasMessageContaining("Chunk size is not a multiple of device blocksize");
        assertThatThrownBy(() -> SnapshotModel.checkChunkAgainstBlockSizes(target(4, false, false), 512, 4096))
                .hasMessageContaining("logical block size of dm-1");
        SnapshotModel.checkChunkAgainstBlockSizes(target(8, false, false), 4096, 4096);
    }

    @Test
    void theRecordedStacksLimitsComeFromTheModel() {
        // the README: "origin and snapshot devices have discard and write_zeroes 0; io_min stays 512 (not the
        // chunk)" — with 64 KiB chunks over a disk that writes zeroes (scsi_debug: up to 65535 blocks), which the
        // linear origin-real passes on
        SnapshotFixture f = new SnapshotFixture(128, 65536, "P");
        assertThat(f.layout.limits(SnapshotFixture.REAL).maxWriteZeroesSectors()).isPositive();
        for (String dev : new String[] {SnapshotFixture.ORIGIN, SnapshotFixture.SNAP}) {
            var l = f.layout.limits(dev);
            assertThat(l.maxDiscardSectors()).as(dev).isZero();
            assertThat(l.maxWriteZeroesSectors()).as(dev).isZero();
            assertThat(l.ioMin()).as(dev).isEqualTo(512);
            assertThat(l.chunkSectors()).as(dev).isZero();
        }
    }
}
