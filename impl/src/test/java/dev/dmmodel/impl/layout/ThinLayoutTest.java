package dev.dmmodel.impl.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.engine.ThinStats;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvFlag;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.PhysicalExtent;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.ThinDiscards;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.trace.TraceListener;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.workload.Script;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Thin pools, thin LVs and thin snapshots through the public API: lvm2-semantics.md §6 and §7, and the
 * recording {@code shared/kernel-traces/thin-lvm-zy-direct1M} (LVM 2.03.16, Linux 6.1, README.txt part B).
 */
class ThinLayoutTest {

    /**
     * Part B of the recording: a 1 GiB AHCI disk, default pvcreate and vgcreate, then
     * {@code lvcreate --type thin-pool -L 256M --chunksize 1M --zero y -n pool vgt} and
     * {@code lvcreate -V 64M -T vgt/pool -n thin}.
     */
    static LayoutBuilder recorded() {
        return Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .pvcreate("sda")
                .vgcreate("vgt", "sda")
                .lvcreateThinPool("vgt", ThinPoolRequest.builder("pool").size("256M").chunkSize("1M").zero(true)
                        .build())
                .lvcreateThin("vgt", ThinLvRequest.of("thin", "64M", "pool"));
    }

    /** snapshot/dmsetup-table.txt of the recording, with the kernel's trailing space after "thin-pool ... 0 0". */
    static final String RECORDED_TABLES = """
            vgt-pool: 0 524288 linear 253:2 0
            vgt-pool-tpool: 0 524288 thin-pool 253:0 253:1 2048 0 0\s
            vgt-pool_tdata: 0 524288 linear 8:0 10240
            vgt-pool_tmeta: 0 8192 linear 8:0 534528
            vgt-thin: 0 131072 thin 253:2 1
            """;

    @Test
    void recordedThinLvmCaseGivesTheRecordedTables() {
        Layout layout = recorded().build();
        // 2048-sector chunk (--chunksize 1M), low water mark 0 (autoextend threshold 100), no features
        // (zeroing on, discards passdown); tdata at pe_start 2048 + 1 x 8192 = 10240, tmeta at
        // 2048 + 65 x 8192 = 534528; the used pool (transaction id 1) is vgt-pool-tpool under vgt-pool
        assertThat(layout.dmsetupTable()).isEqualTo(RECORDED_TABLES);
    }

    @Test
    void recordedTablesMatchTheSnapshotFileWhenTheSharedFolderIsThere() throws IOException {
        String dir = System.getProperty("dmmodel.shared.dir");
        assumeThat(dir).as("system property dmmodel.shared.dir").isNotBlank();
        Path file = Path.of(dir, "kernel-traces", "thin-lvm-zy-direct1M", "snapshot", "dmsetup-table.txt");
        assumeThat(Files.isRegularFile(file)).as(file.toString()).isTrue();
        assertThat(recorded().build().dmsetupTable()).isEqualTo(Files.readString(file));
        assertThat(Files.readString(file)).isEqualTo(RECORDED_TABLES);
    }

    @Test
    void recordedCaseDeviceNumbersNamesAndSizes() {
        Layout layout = recorded().build();
        // snapshot/block/dm-N/{dev,dm/name,size}
        assertDevice(layout, "dm-0", new DevNumber(253, 0), "vgt-pool_tmeta", 8192);
        assertDevice(layout, "dm-1", new DevNumber(253, 1), "vgt-pool_tdata", 524288);
        assertDevice(layout, "dm-2", new DevNumber(253, 2), "vgt-pool-tpool", 524288);
        assertDevice(layout, "dm-3", new DevNumber(253, 3), "vgt-pool", 524288);
        assertDevice(layout, "dm-4", new DevNumber(253, 4), "vgt-thin", 131072);
        assertThat(layout.device("/dev/vgt/thin").name()).isEqualTo("dm-4");
        assertThat(layout.device("/dev/vgt/pool").name()).isEqualTo("dm-3");
        assertThat(layout.device("vgt/pool").name()).isEqualTo("dm-3");
        assertThat(layout.device("/dev/mapper/vgt-pool-tpool").name()).isEqualTo("dm-2");
        // the dm uuids carry LVM's suffixes: the renamed new-pool device keeps -tpool
        assertThat(((DmDevice) layout.device("dm-0")).uuid()).endsWith("-tmeta");
        assertThat(((DmDevice) layout.device("dm-1")).uuid()).endsWith("-tdata");
        assertThat(((DmDevice) layout.device("dm-2")).uuid()).endsWith("-tpool");
        assertThat(((DmDevice) layout.device("dm-3")).uuid()).endsWith("-pool");
        assertThat(((DmDevice) layout.device("dm-4")).uuid()).startsWith("LVM-").hasSize(4 + 64);
    }

    private static void assertDevice(Layout layout, String name, DevNumber number, String dmName, long size) {
        BlockDevice d = layout.device(name);
        assertThat(d.devNumber()).isEqualTo(number);
        assertThat(((DmDevice) d).dmName()).isEqualTo(dmName);
        assertThat(d.size()).isEqualTo(Sectors.of(size));
    }

    @Test
    void recordedCaseExtentsMatchTheBackupFile() {
        VolumeGroup vg = recorded().build().volumeGroup("vgt").orElseThrow();
        // lvm/vgt.vg: pe_count 255; lvol0_pmspare pv0 0, pool_tdata pv0 1 (64), pool_tmeta pv0 65 (1)
        assertThat(vg.physicalVolumes().get(0).peCount()).isEqualTo(255);
        assertThat(lv(vg, "lvol0_pmspare").segments()).containsExactly(linear(0, 1, "sda", 0));
        assertThat(lv(vg, "pool_tdata").segments()).containsExactly(linear(0, 64, "sda", 1));
        assertThat(lv(vg, "pool_tmeta").segments()).containsExactly(linear(0, 1, "sda", 65));
        // vgs-all.json: vg_free_count 189 = 255 - 1 - 64 - 1
        assertThat(vg.freeCount()).isEqualTo(189);

        LogicalVolume pool = lv(vg, "pool");
        // segment1: extent_count 64, transaction_id 1, chunk_size 2048, discards "passdown", zero_new_blocks 1
        assertThat(pool.segments()).containsExactly(LvSegment.thinPool(64, new SegmentType.ThinPool("pool_tmeta",
                "pool_tdata", 1, Sectors.of(2048), ThinDiscards.PASSDOWN, true)));
        assertThat(pool.role()).isEqualTo(LvRole.THIN_POOL);
        assertThat(pool.visible()).isTrue();
        // thin: extent_count 16, thin_pool "pool", transaction_id 0, device_id 1
        assertThat(lv(vg, "thin").segments()).containsExactly(LvSegment.thin(16,
                new SegmentType.Thin("pool", 0, 1, Optional.empty())));
        // status ["READ", "WRITE"] without VISIBLE for the three hidden LVs
        assertThat(lv(vg, "lvol0_pmspare").visible()).isFalse();
        assertThat(lv(vg, "pool_tmeta").role()).isEqualTo(LvRole.THIN_POOL_METADATA);
        assertThat(lv(vg, "pool_tdata").role()).isEqualTo(LvRole.THIN_POOL_DATA);
        assertThat(lv(vg, "lvol0_pmspare").role()).isEqualTo(LvRole.POOL_METADATA_SPARE);
        // the spare is never active; the others are
        assertThat(lv(vg, "lvol0_pmspare").dmDevice()).isEmpty();
        assertThat(List.of(lv(vg, "pool_tmeta").dmDevice(), lv(vg, "pool_tdata").dmDevice(), pool.dmDevice(),
                lv(vg, "thin").dmDevice())).containsExactly("dm-0", "dm-1", "dm-3", "dm-4");
        // a pool extent is its data LV's extent: LE 0 of the pool is PE 1 of sda
        assertThat(vg.extentTable().physicalExtents("pool", 0)).containsExactly(new PhysicalExtent("sda", 1));
        assertThat(vg.extentTable().physicalExtents("thin", 0)).isEmpty();
        assertThat(vg.extentTable().owner("sda", 65).orElseThrow().lv()).isEqualTo("pool_tmeta");
    }

    @Test
    void recordedCasePoolDevicesReportTheChunkAsIoHints() {
        Layout layout = recorded().build();
        // snapshot/block: dm-2, dm-3 and dm-4 minimum_io_size = optimal_io_size = 1048576 (the 1 MiB chunk);
        // dm-0 and dm-1 minimum_io_size 512, optimal_io_size 0; vgt-pool is read-only (not modelled)
        for (String d : List.of("dm-2", "dm-3", "dm-4")) {
            assertThat(layout.limits(d).ioMin()).as(d).isEqualTo(1_048_576);
            assertThat(layout.limits(d).ioOpt()).as(d).isEqualTo(1_048_576);
        }
        for (String d : List.of("dm-0", "dm-1")) {
            assertThat(layout.limits(d).ioMin()).as(d).isEqualTo(512);
            assertThat(layout.limits(d).ioOpt()).as(d).isZero();
        }
    }

    @Test
    void recordedWorkloadProvisionsSixteenBlocks() {
        Simulation sim = Simulation.of(recorded().build());
        // workload.txt; raw/pool-status.txt afterwards: "thin-pool 1 112/1024 16/256", thin "32768 32767"
        sim.run(Script.parse("dd if=/dev/zero of=/dev/vgt/thin bs=1M count=16 oflag=direct"), TraceListener.NONE);
        ThinStats stats = sim.thinStats().get(0);
        assertThat(stats.thinDevice()).isEqualTo("dm-4");
        assertThat(stats.poolDevice()).isEqualTo("dm-2");
        assertThat(stats.blockSectors()).isEqualTo(2048);
        assertThat(stats.poolUsedBlocks()).isEqualTo(16);
        assertThat(stats.poolTotalBlocks()).isEqualTo(256);
        // LVM's transaction_id (1 after one thin LV) is the kernel pool's
        assertThat(stats.poolTransactionId()).isEqualTo(1);
        assertThat(stats.dmsetupStatus()).isEqualTo("32768 32767");
    }

    @Test
    void lvcreateSnapshotInAWorkloadSharesBlocksSoTheNextOriginWriteCopies() {
        Simulation sim = Simulation.of(recorded().build());
        sim.run(Script.parse("dd if=/dev/zero of=/dev/vgt/thin bs=1M count=4 oflag=direct"), TraceListener.NONE);
        var created = sim.execute(Script.parse("lvcreate -s vgt/thin").commands().get(0), TraceListener.NONE);
        // lvol0_pmspare holds lvol0, so LVM names the snapshot lvol1; it is not activated (no device appears)
        assertThat(created.exitStatus()).isZero();
        assertThat(created.message()).isEqualTo("  Logical volume \"lvol1\" created.");
        assertThat(sim.layout().find("/dev/mapper/vgt-lvol1")).isEmpty();
        List<dev.dmmodel.trace.TraceEvent> ev = new java.util.ArrayList<>();
        sim.run(Script.parse("dd if=/dev/zero of=/dev/vgt/thin bs=4k count=1 oflag=direct"), ev::add);
        ThinStats stats = sim.thinStats().get(0);
        // break_sharing: the 4 KiB write copies its whole 1 MiB block first (kcopyd: 2 x 1024-sector read + write)
        assertThat(stats.blocksCopied()).isEqualTo(1);
        assertThat(stats.poolUsedBlocks()).isEqualTo(5);
        assertThat(stats.poolTransactionId()).isEqualTo(2); // 1 after the thin LV, +1 for the snapshot
        assertThat(ev).filteredOn(e -> e.device().equals("dm-2") && e.type() == dev.dmmodel.trace.EventType.BIO_QUEUE)
                .extracting(e -> e.rwbs().charAt(0) + " " + e.sector() + "+" + e.nrSectors())
                .containsExactly("R 0+1024", "W 8192+1024", "R 1024+1024", "W 9216+1024", "W 8192+8");
        // the name is taken now; a second snapshot of that name is refused as LVM refuses it
        var again = sim.execute(Script.parse("lvcreate -s -n lvol1 vgt/thin").commands().get(0), TraceListener.NONE);
        assertThat(again.exitStatus()).isEqualTo(5);
        assertThat(again.message()).contains("already exists in volume group");
        var missing = sim.execute(Script.parse("lvcreate -s vgx/thin").commands().get(0), TraceListener.NONE);
        assertThat(missing.message()).isEqualTo("  Volume group \"vgx\" not found");
    }

    @Test
    void lvremoveOfAMountedThinLvIsRefusedAndChangesNothing() {
        // tools/lvremove.c -> lv_remove_single: an open LV ("contains a filesystem in use") is not removed, so
        // neither its device nor the pool's metadata changes: no delete message, the transaction id stays
        Simulation sim = Simulation.of(recorded().build());
        long tid = sim.thinStats().get(0).poolTransactionId();
        sim.run(Script.parse("mkfs.xfs /dev/vgt/thin\nmount /dev/vgt/thin /mnt"), TraceListener.NONE);
        var refused = sim.execute(Script.parse("lvremove -y vgt/thin").commands().get(0), TraceListener.NONE);
        assertThat(refused.exitStatus()).isEqualTo(5);
        assertThat(refused.message()).isEqualTo("  Logical volume vgt/thin contains a filesystem in use.");
        assertThat(sim.layout().find("/dev/vgt/thin")).isPresent();
        assertThat(sim.layout().volumeGroups().get(0).logicalVolume("thin")).isPresent();
        assertThat(sim.thinStats().get(0).poolTransactionId()).isEqualTo(tid);
    }

    @Test
    void lvremoveAndLvcreateInAWorkloadKeepThePoolsAllocatorAndStepItsTransactionId() {
        // thin-lvm-zy-buffered1M/setup.txt: the history of the recorded host after its snapshot
        Simulation sim = Simulation.of(recorded().build());
        sim.run(Script.parse("dd if=/dev/zero of=/dev/vgt/thin bs=1M count=16 oflag=direct"), TraceListener.NONE);
        // without -y LVM asks, and end of input answers no: nothing changes
        var asked = sim.execute(Script.parse("lvremove vgt/thin").commands().get(0), TraceListener.NONE);
        assertThat(asked.exitStatus()).isEqualTo(5);
        assertThat(asked.message()).endsWith("Logical volume thin not removed.");
        assertThat(sim.layout().find("/dev/vgt/thin")).isPresent();

        var removed = sim.execute(Script.parse("lvremove -y vgt/thin").commands().get(0), TraceListener.NONE);
        assertThat(removed.exitStatus()).isZero();
        assertThat(removed.message()).isEqualTo("  Logical volume \"thin\" successfully removed.");
        assertThat(sim.layout().find("/dev/vgt/thin")).isEmpty();
        assertThat(sim.layout().find("dm-4")).isEmpty();
        assertThat(sim.thinStats()).isEmpty();
        assertThat(sim.layout().volumeGroups().get(0).logicalVolume("thin")).isEmpty();

        var created = sim.execute(Script.parse("lvcreate -y -V 64M -T vgt/pool -n thin").commands().get(0),
                TraceListener.NONE);
        assertThat(created.exitStatus()).isZero();
        assertThat(created.message()).isEqualTo("  Logical volume \"thin\" created.");
        // dm.c next_free_minor: dm-0..dm-3 are tmeta, tdata, tpool and pool, so the new thin is dm-4 again;
        // LVM's next device id is the largest in the pool plus one, and no thin is left: id 1 again
        assertThat(sim.layout().dmsetupTable()).isEqualTo(RECORDED_TABLES);
        assertThat(sim.layout().device("/dev/vgt/thin").name()).isEqualTo("dm-4");

        List<dev.dmmodel.trace.TraceEvent> ev = new java.util.ArrayList<>();
        sim.run(Script.parse("dd if=/dev/zero of=/dev/vgt/thin bs=1M count=1 oflag=direct"), ev::add);
        // sm_disk_new_block searches on from the last allocation: the 16 blocks freed by the delete are skipped
        // and the write lands in data block 16, tdata sector 16 x 2048 = 32768, disk 10240 + 32768 = 43008
        // (the recording shows the same: the traced phase starts at data block 16)
        assertThat(ev).filteredOn(e -> e.device().equals("dm-1") && e.type() == dev.dmmodel.trace.EventType.BIO_QUEUE)
                .extracting(e -> e.sector() + "+" + e.nrSectors()).containsExactly("32768+2048");
        assertThat(ev).filteredOn(e -> e.device().equals("sda") && e.type() == dev.dmmodel.trace.EventType.BIO_REMAP)
                .extracting(dev.dmmodel.trace.TraceEvent::sector).containsExactly(43008L);
        ThinStats stats = sim.thinStats().get(0);
        // transaction id: 1 after the first thin LV, +1 for the delete, +1 for the create
        assertThat(stats.poolTransactionId()).isEqualTo(3);
        assertThat(stats.poolUsedBlocks()).isEqualTo(1);

        var missing = sim.execute(Script.parse("lvremove -y vgt/nothere").commands().get(0), TraceListener.NONE);
        assertThat(missing.exitStatus()).isEqualTo(5);
        assertThat(missing.message()).isEqualTo("  Failed to find logical volume \"vgt/nothere\"");
        var noPool = sim.execute(Script.parse("lvcreate -V 64M -T vgt/nopool").commands().get(0), TraceListener.NONE);
        assertThat(noPool.exitStatus()).isEqualTo(5);
        assertThat(noPool.message()).contains("Pool nopool not found in Volume group vgt.");
    }

    @Test
    void aNewPoolIsLoadedDirectlyAsVgPool() {
        Layout layout = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .pvcreate("sda")
                .vgcreate("vgt", "sda")
                .lvcreateThinPool("vgt", ThinPoolRequest.builder("pool").size("256M").chunkSize("1M").build())
                .build();
        // §7: transaction_id 0, so no -tpool layer; the device's uuid still ends in -tpool
        assertThat(layout.dmsetupTable()).isEqualTo("""
                vgt-pool: 0 524288 thin-pool 253:0 253:1 2048 0 0\s
                vgt-pool_tdata: 0 524288 linear 8:0 10240
                vgt-pool_tmeta: 0 8192 linear 8:0 534528
                """);
        DmDevice pool = (DmDevice) layout.device("/dev/vgt/pool");
        assertThat(pool.name()).isEqualTo("dm-2");
        assertThat(pool.uuid()).endsWith("-tpool");
        assertThat(pool.table().targets().get(0)).isInstanceOf(ThinPoolTarget.class);
    }

    /** §4.5: two 10 GiB disks, root, striped data, a 1 GiB pool, thin1 and snap1. */
    static Layout section45() {
        return Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sdb", new DevNumber(8, 16), DiskPresets.sasDisk().withSize(Bytes.gib(10)))
                .disk("sdc", new DevNumber(8, 32), DiskPresets.sasDisk().withSize(Bytes.gib(10)))
                .pvcreate("sdb").pvcreate("sdc")
                .vgcreate("vg0", "sdb", "sdc")
                .lvcreate("vg0", LvCreateRequest.builder("root").size("5G").build())
                .lvcreate("vg0", LvCreateRequest.builder("data").stripes(2).stripeSize(Bytes.kib(64)).size("2G")
                        .build())
                .lvcreateThinPool("vg0", ThinPoolRequest.builder("pool").size("1G").build())
                .lvcreateThin("vg0", ThinLvRequest.of("thin1", "2G", "pool"))
                .lvcreateSnapshot("vg0", new ThinSnapshotRequest("thin1", "snap1"))
                .build();
    }

    @Test
    void section7TablesOfTheSection45Example() {
        Layout layout = section45();
        // the §7 example: minors there are illustrative, but in creation order they come out the same
        // (root dm-0, data dm-1, tmeta dm-2, tdata dm-3, tpool dm-4, pool dm-5, thin1 dm-6);
        // tmeta pv1:256 -> 2048 + 256 x 8192 = 2099200 on sdc, tdata pv0:1537 -> 2048 + 1537 x 8192 = 12593152
        assertThat(layout.dmsetupTable()).isEqualTo("""
                vg0-data: 0 4194304 striped 2 128 8:16 10487808 8:32 2048
                vg0-pool: 0 2097152 linear 253:4 0
                vg0-pool-tpool: 0 2097152 thin-pool 253:2 253:3 128 0 0\s
                vg0-pool_tdata: 0 2097152 linear 8:16 12593152
                vg0-pool_tmeta: 0 8192 linear 8:32 2099200
                vg0-root: 0 10485760 linear 8:16 2048
                vg0-thin1: 0 4194304 thin 253:4 1
                """);
        // snap1 is not activated (ACTIVATION_SKIP)
        assertThat(layout.find("/dev/mapper/vg0-snap1")).isEmpty();
        VolumeGroup vg = layout.volumeGroup("vg0").orElseThrow();
        LogicalVolume snap = lv(vg, "snap1");
        assertThat(snap.hasFlag(LvFlag.ACTIVATION_SKIP)).isTrue();
        assertThat(snap.isActive()).isFalse();
        // snap1: device_id 2, transaction_id 1, origin thin1; pool transaction_id 2
        assertThat(snap.thin().orElseThrow()).isEqualTo(new SegmentType.Thin("pool", 1, 2, Optional.of("thin1")));
        assertThat(lv(vg, "pool").thinPool().orElseThrow().transactionId()).isEqualTo(2);
        // pv0 allocated 1793 (free 766), pv1 allocated 257 (free 2302): 3068 free of 5118
        assertThat(vg.extentTable().freeRanges("sdb").stream().mapToLong(r -> r.count()).sum()).isEqualTo(766);
        assertThat(vg.extentTable().freeRanges("sdc").stream().mapToLong(r -> r.count()).sum()).isEqualTo(2302);
        assertThat(vg.freeCount()).isEqualTo(3068);
    }

    @Test
    void layoutStepsAreRecorded() {
        ThinPoolRequest pool = ThinPoolRequest.builder("pool").size("1G").build();
        ThinLvRequest thin = ThinLvRequest.of("t", "1G", "pool");
        ThinSnapshotRequest snap = new ThinSnapshotRequest("t", "");
        List<LayoutStep> steps = Layout.builder().lvcreateThinPool("vg", pool).lvcreateThin("vg", thin)
                .lvcreateSnapshot("vg", snap).steps();
        assertThat(steps).containsExactly(new LayoutStep.ThinPoolCreate("vg", pool),
                new LayoutStep.ThinLvCreate("vg", thin), new LayoutStep.ThinSnapshotCreate("vg", snap));
    }

    @Test
    void aThinLvInAPoolThatDoesNotExistIsRefused() {
        LayoutBuilder b = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .pvcreate("sda").vgcreate("vgt", "sda")
                .lvcreateThin("vgt", ThinLvRequest.of("thin", "64M", "nopool"));
        // tools/lvcreate.c: _check_pool_parameters
        assertThatThrownBy(b::build).isInstanceOf(LayoutException.class)
                .hasMessage("Pool nopool not found in Volume group vgt.");
    }

    @Test
    void theHiddenSubLvsCannotBeMappedByHandOrUsedAsPvs() {
        LayoutBuilder b = recorded().pvcreate("/dev/mapper/vgt-pool_tdata");
        // the data LV's device is held by the thin-pool device
        assertThatThrownBy(b::build).isInstanceOf(LayoutException.class)
                .hasMessageContaining("exclusively");
    }

    private static LogicalVolume lv(VolumeGroup vg, String name) {
        return vg.logicalVolume(name).orElseThrow();
    }

    private static LvSegment linear(long le, long count, String pv, long pe) {
        return new LvSegment(le, count, Sectors.ZERO, List.of(new StripeArea(pv, pe)));
    }
}
