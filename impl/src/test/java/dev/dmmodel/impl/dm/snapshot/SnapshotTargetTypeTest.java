package dev.dmmodel.impl.dm.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.dm.SnapshotOriginTarget;
import dev.dmmodel.dm.SnapshotTarget;
import dev.dmmodel.io.DmTables;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.units.Sectors;
import org.junit.jupiter.api.Test;

/** snapshot_ctr, parse_snapshot_features, dm_exception_store_create and origin_ctr, with the kernel's texts. */
class SnapshotTargetTypeTest {

    private static final String REAL = "/dev/mapper/vgs-origin-real";
    private static final String COW = "/dev/mapper/vgs-snap-cow";
    private static final String BASE = "vgs-origin-real: 0 131072 linear 8:0 2048\n"
            + "vgs-snap-cow: 0 65536 linear 8:0 133120\n";

    private static Layout layout(String lines) {
        // R and C stand for the origin-real and COW LVs' /dev/mapper paths
        return Layout.of(DmTables.addTo(SnapshotFixture.disk(), BASE + lines.replace(" R", " " + REAL)
                .replace(" C", " " + COW), "tables.txt"));
    }

    private static void refused(String snapshotArgs, String... texts) {
        var t = assertThatThrownBy(() -> layout("vgs-snap: 0 131072 snapshot " + snapshotArgs + "\n"));
        for (String s : texts) {
            t.hasMessageContaining(s);
        }
    }

    @Test
    void theRecordedTablesRoundTrip() {
        // snap-c4k-*: dmsetup table as recorded (dm-0 origin-real, dm-1 cow here: 253:0 and 253:1)
        Layout l = layout("vgs-origin: 0 131072 snapshot-origin R\n"
                + "vgs-snap: 0 131072 snapshot R C P 8\n");
        assertThat(DmTables.write(l)).isEqualTo("vgs-origin: 0 131072 snapshot-origin 253:0\n"
                + "vgs-origin-real: 0 131072 linear 8:0 2048\n"
                + "vgs-snap: 0 131072 snapshot 253:0 253:1 P 8\n"
                + "vgs-snap-cow: 0 65536 linear 8:0 133120\n");
        assertThat(l.dmDevices().stream().flatMap(d -> d.table().targets().stream())
                .filter(SnapshotTarget.class::isInstance)).containsExactly(new SnapshotTarget(Sectors.ZERO,
                        Sectors.of(131072), "dm-0", "dm-1", SnapshotTarget.Store.PERSISTENT, 8, false, false));
        // PO, N and the features print as snapshot_status writes them: the store's word and chunk, then the count
        Layout f = layout("vgs-snap: 0 131072 snapshot R C po 128 2 discard_passdown_origin "
                + "discard_zeroes_cow\n");
        assertThat(DmTables.write(f)).contains("vgs-snap: 0 131072 snapshot 253:0 253:1 PO 128 2 discard_zeroes_cow "
                + "discard_passdown_origin\n");
        assertThat(DmTables.write(layout("vgs-snap: 0 131072 snapshot R C N 16\n")))
                .contains("snapshot 253:0 253:1 N 16\n");
    }

    @Test
    void argumentCountAndStoreType() {
        refused("R C P", "requires 4 or more arguments");
        refused("R C X 8", "Exception store type is not P or N", "Couldn't create exception store");
        refused("R C PX 8", "Unsupported persistent store option", "Couldn't create exception store");
    }

    @Test
    void theChunkSizeRules() {
        // set_chunk_size: kstrtouint
        refused("R C P 8k", "Invalid chunk size");
        refused("R C P 4294967296", "Invalid chunk size");
        // dm_exception_store_set_chunk_size
        refused("R C P 12", "Chunk size is not a power of 2", "Couldn't create exception store");
        // INT_MAX >> 9 = 4194303: 2^22 = 4194304 sectors is too high
        refused("R C P 4194304", "Chunk size is too high");
        refused("R C P 0", "Chunk size not set");
    }

    @Test
    void theDevices() {
        refused("R R P 8", "COW device cannot be the same as origin device");
        refused("R /dev/mapper/nope P 8", "/dev/mapper/nope");
    }

    @Test
    void theFeatureArguments() {
        refused("R C P 8 3 discard_zeroes_cow discard_passdown_origin x",
                "Invalid number of feature arguments");
        refused("R C P 8 2 discard_zeroes_cow", "Invalid number of feature arguments");
        refused("R C P 8 1 zero_cow", "Unrecognised feature requested");
        refused("R C P 8 1 discard_passdown_origin",
                "discard_passdown_origin feature depends on discard_zeroes_cow");
    }

    @Test
    void theOriginTakesExactlyOneDevice() {
        assertThatThrownBy(() -> layout("vgs-origin: 0 131072 snapshot-origin R C\n"))
                .hasMessageContaining("origin: incorrect number of arguments");
        assertThat(layout("vgs-origin: 0 131072 snapshot-origin R\n").dmDevices().stream()
                .flatMap(d -> d.table().targets().stream()).filter(SnapshotOriginTarget.class::isInstance))
                .containsExactly(new SnapshotOriginTarget(Sectors.ZERO, Sectors.of(131072), "dm-0"));
    }

    @Test
    void theRecordsRejectWhatTheKernelRefuses() {
        assertThatThrownBy(() -> new SnapshotTarget(Sectors.ZERO, Sectors.of(8), "dm-0", "dm-1",
                SnapshotTarget.Store.PERSISTENT, 24, false, false)).hasMessageContaining("Chunk size is not a power of 2");
        assertThatThrownBy(() -> new SnapshotTarget(Sectors.ZERO, Sectors.of(8), "dm-0", "dm-0",
                SnapshotTarget.Store.PERSISTENT, 8, false, false)).hasMessageContaining("cannot be the same");
        assertThatThrownBy(() -> new SnapshotTarget(Sectors.ZERO, Sectors.of(8), "dm-0", "dm-1",
                SnapshotTarget.Store.PERSISTENT, 8, false, true)).hasMessageContaining("depends on discard_zeroes_cow");
        assertThatThrownBy(() -> new SnapshotTarget(Sectors.ZERO, Sectors.of(8), "dm-0", null,
                SnapshotTarget.Store.PERSISTENT, 8, false, false)).isInstanceOf(NullPointerException.class)
                .hasMessage("cowDevice");
    }
}
