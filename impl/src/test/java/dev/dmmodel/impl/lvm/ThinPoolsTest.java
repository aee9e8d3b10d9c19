package dev.dmmodel.impl.lvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvFlag;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.ThinDiscards;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.ThinPoolRequest.ChunkPolicy;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Thin pools, thin LVs and thin snapshots: lvm2-semantics.md §3.4, §4.5, §6, §7 and the §8 messages. */
class ThinPoolsTest {

    static final long EXTENT = 8192; // 4 MiB, the default
    static final long SMALL_EXTENT = 128; // 64 KiB, as LVM's lvcreate-thin-big.sh uses
    static final Function<String, PvTopology> PLAIN = pv -> PvTopology.PLAIN;

    /** A PV in VG "vg" with {@code peCount} extents of {@code extent} sectors after a 1 MiB pe_start. */
    static PhysicalVolume member(String device, long peCount, long extent) {
        Sectors dev = Sectors.of(2048 + peCount * extent);
        return new PhysicalVolume(device, dev, Sectors.of(2048), Sectors.of(2040), Sectors.ZERO, "vg", peCount,
                Sectors.of(extent));
    }

    static VolumeGroup vg(long extent, PhysicalVolume... pvs) {
        return new VolumeGroup("vg", Sectors.of(extent), List.of(pvs), List.of(), AllocationPolicy.NORMAL);
    }

    static VolumeGroup vg(PhysicalVolume... pvs) {
        return vg(EXTENT, pvs);
    }

    /** §4.5: two 10 GiB disks (2559 extents each), root on pv0:0-1279, data striped over pv0:1280.. and pv1:0... */
    static VolumeGroup section45() {
        Sectors tenGib = Sectors.of(20_971_520);
        PhysicalVolume sdb = PvCreate.pvcreate("sdb", tenGib, PvTopology.PLAIN, PvCreateOptions.DEFAULTS);
        PhysicalVolume sdc = PvCreate.pvcreate("sdc", tenGib, PvTopology.PLAIN, PvCreateOptions.DEFAULTS);
        VolumeGroup vg = VgCreate.vgcreate("vg0", VgCreateOptions.DEFAULTS, List.of(sdb, sdc),
                Map.of("sdb", 512L, "sdc", 512L));
        vg = LvAllocator.lvcreate(vg, LvCreateRequest.builder("root").size("5G").build(), "dm-0");
        return LvAllocator.lvcreate(vg, LvCreateRequest.builder("data").stripes(2).stripeSize(Bytes.kib(64))
                .size("2G").build(), "dm-1");
    }

    static ThinPoolRequest.Builder pool(String name) {
        return ThinPoolRequest.builder(name);
    }

    static VolumeGroup createPool(VolumeGroup vg, ThinPoolRequest req) {
        return ThinPools.lvcreateThinPool(vg, req, PLAIN);
    }

    static LogicalVolume lv(VolumeGroup vg, String name) {
        return vg.logicalVolume(name).orElseThrow();
    }

    static LvSegment linear(long le, long count, String pv, long pe) {
        return new LvSegment(le, count, Sectors.ZERO, List.of(new StripeArea(pv, pe)));
    }

    static void refused(Runnable action, String message) {
        assertThatThrownBy(action::run).isInstanceOf(LayoutException.class).hasMessage(message);
    }

    @Nested
    class ChunkAndMetadataSelection {

        @ParameterizedTest(name = "{0}")
        @CsvSource({
            // pool,  data extents of 4 MiB, chunk sectors, metadata extents
            // 1 GiB: 2097152 s / (128 x 8) = 2048 s (1 MiB) estimated, raised to the 2 MiB minimum, one extent
            "1GiB,       256,   128,  1",
            // 100 GiB: 209715200 / 1024 = 204800 s = 100 MiB <= 128 MiB: 64 KiB chunks, 25 extents
            "100GiB,   25600,   128, 25",
            // 160 GiB: 327680 s = 160 MiB > 128 MiB: chunk doubled to 128 KiB, metadata halved to 80 MiB
            "160GiB,   40960,   256, 20",
            // 1 TiB: 2097152 s (1 GiB) halved three times: 512 KiB chunks, 262144 s = 128 MiB (not > 128 MiB)
            "1TiB,    262144,  1024, 32",
            // 10 TiB: 20971520 s halved seven times: 8 MiB chunks, 163840 s = 80 MiB
            "10TiB,  2621440, 16384, 20",
        })
        void worked(String pool, long dataExtents, long chunk, long metadataExtents) {
            ThinPools.PoolParams p = ThinPools.poolParams("vg/" + pool, dataExtents, EXTENT, 0, 0, ChunkPolicy.GENERIC,
                    true);
            assertThat(p.chunkSectors()).isEqualTo(chunk);
            assertThat(p.metadataExtents()).isEqualTo(metadataExtents);
            assertThat(p.chunkFromPolicy()).isTrue();
        }

        @Test
        void metadataSize4MOn10GWith64KiBExtentsSelects256KiBChunks() {
            // -L10G --poolmetadatasize 4M, 64 KiB extents: 64 extents = 8192 s of metadata;
            // 20971520 / (8192 x 8) = 320 -> next power of two 512 s = 256 KiB
            ThinPools.PoolParams p = ThinPools.poolParams("vg/pool", 163_840, SMALL_EXTENT, 0, 64, ChunkPolicy.GENERIC,
                    true);
            assertThat(p.chunkSectors()).isEqualTo(512);
            assertThat(p.metadataExtents()).isEqualTo(64);
            assertThat(p.chunkFromPolicy()).isFalse();
        }

        @Test
        void givenChunkSizesEstimateTheMetadata() {
            // -L10G --chunksize 256: 20971520 / (512 x 8) = 5120 s = 2.5 MiB = 40 extents of 64 KiB
            assertThat(ThinPools.poolParams("vg/p", 163_840, SMALL_EXTENT, 512, 0, ChunkPolicy.GENERIC, true)
                    .metadataExtents()).isEqualTo(40);
            // -L60G --chunksize 1024: 125829120 / (2048 x 8) = 7680 s = 3.75 MiB = 60 extents
            assertThat(ThinPools.poolParams("vg/p", 983_040, SMALL_EXTENT, 2048, 0, ChunkPolicy.GENERIC, true)
                    .metadataExtents()).isEqualTo(60);
        }

        @Test
        void metadataSizeIsClampedToTheUsableRange() {
            // --poolmetadatasize 17G is reduced to 33292800 s = 260100 extents of 64 KiB, shown as <15.88 GiB
            long big = 17L * 1024 * 16; // 17 GiB in 64 KiB extents
            ThinPools.PoolParams p = ThinPools.poolParams("vg/p", 163_840, SMALL_EXTENT, 0, big, ChunkPolicy.GENERIC,
                    true);
            assertThat(p.metadataExtents()).isEqualTo(260_100);
            assertThat(DisplaySize.sectors(p.metadataExtents() * SMALL_EXTENT)).isEqualTo("<15.88 GiB");
            // --poolmetadatasize 16k: one 64 KiB extent, raised to the 2 MiB minimum = 32 extents
            assertThat(ThinPools.poolParams("vg/p", 163_840, SMALL_EXTENT, 0, 1, ChunkPolicy.GENERIC, true)
                    .metadataExtents()).isEqualTo(32);
        }

        @Test
        void performancePolicyStartsAt512KiB() {
            // 1 GiB: 2097152 / (1024 x 8) = 256 s, rounded up to one 4 MiB extent
            ThinPools.PoolParams p = ThinPools.poolParams("vg/p", 256, EXTENT, 0, 0, ChunkPolicy.PERFORMANCE, false);
            assertThat(p.chunkSectors()).isEqualTo(1024);
            assertThat(p.metadataExtents()).isEqualTo(1);
        }

        @ParameterizedTest
        @CsvSource({
            // 33292800 s of metadata x chunk x 512 / 64 bytes per chunk
            "128,   <15.88 TiB",
            "256,   31.75 TiB",
            "1024,  127.00 TiB",
            "16384, 1.98 PiB",
        })
        void addressableData(long chunk, String shown) {
            assertThat(DisplaySize.sectors(ThinPools.estimateMaxData(ThinPools.MAX_METADATA, chunk))).isEqualTo(shown);
        }

        @Test
        void estimatedChunksBeyond1MiBAreWholeMiB() {
            // 100 GiB of data in 2 MiB of metadata: 209715200 / (4096 x 8) = 6400 s, rounded up to 4 x 2048 = 8192
            assertThat(ThinPools.estimateChunk(209_715_200, 4096)).isEqualTo(8192);
            // 96 GiB: 201326592 / 32768 = 6144 s, already a multiple of 2048 (3 MiB, not a power of two)
            assertThat(ThinPools.estimateChunk(201_326_592, 4096)).isEqualTo(6144);
            // 20 GiB: 41943040 / 32768 = 1280 s <= 2047: next power of two, 2048
            assertThat(ThinPools.estimateChunk(41_943_040, 4096)).isEqualTo(2048);
            // a quotient of 0 or 1 gives the 64 KiB minimum
            assertThat(ThinPools.estimateChunk(1000, 4096)).isEqualTo(128);
        }
    }

    @Nested
    class Validation {

        final VolumeGroup one = vg(member("sdb", 255, EXTENT));

        @Test
        void chunkSizeNotAMultipleOf64KiB() {
            refused(() -> createPool(one, pool("pool").size("100M").chunkSize("96k").build()),
                    "Thin pool chunk size 96.00 KiB must be a multiple of 64.00 KiB.");
        }

        @Test
        void chunkSizeOutOfRange() {
            refused(() -> createPool(one, pool("pool").size("100M").chunkSize("32k").build()),
                    "Thin pool chunk size 32.00 KiB is not in the range 64.00 KiB to 1.00 GiB.");
            refused(() -> createPool(one, pool("pool").size("100M").chunkSize("2G").build()),
                    "Thin pool chunk size 2.00 GiB is not in the range 64.00 KiB to 1.00 GiB.");
        }

        @Test
        void chunkSizeZeroOrNotWholeSectors() {
            refused(() -> createPool(one, pool("pool").size("100M").chunkSize(Bytes.ZERO).build()),
                    "--chunksize may not be zero.");
            refused(() -> createPool(one, pool("pool").size("100M").chunkSize(Bytes.of(1000)).build()),
                    "Size is not a multiple of 512. Try using 512 or 1024.");
        }

        @Test
        void dataSmallerThanTheChunk() {
            // -l 4 of 64 KiB extents = 512 s < --chunksize 1M = 2048 s
            VolumeGroup small = vg(SMALL_EXTENT, member("sdb", 1000, SMALL_EXTENT));
            refused(() -> createPool(small, pool("pool").extents(4).chunkSize("1M").build()),
                    "Size of thin-pool data volume cannot be smaller than chunk size 1.00 MiB.");
        }

        @Test
        void chunkThatCannotAddressTheData() {
            // 16 TiB = 4194304 extents > 34091827200 s / 8192 = 4161600 extents addressable with 64 KiB chunks
            refused(() -> ThinPools.poolParams("vg/pool", 4_194_304, EXTENT, 128, 0, ChunkPolicy.GENERIC, true),
                    "Selected chunk size 64.00 KiB cannot address more than <15.88 TiB of thin pool data space.");
        }

        @Test
        void poolNames() {
            VolumeGroup withPool = createPool(one, pool("pool").size("100M").build());
            refused(() -> createPool(withPool, pool("pool").size("100M").build()),
                    "Logical volume pool already exists in Volume group vg.");
            refused(() -> createPool(one, pool("my_tmeta").size("100M").build()),
                    "Names including \"_tmeta\" are reserved. Please choose a different LV name.");
            refused(() -> createPool(one, pool("-p").size("100M").build()),
                    "Logical volume name \"-p\" is invalid.");
        }

        @Test
        void insufficientFreeSpaceAfterTheSpare() {
            // 255 extents; the spare takes 1, leaving 254 < 300
            refused(() -> createPool(one, pool("pool").extents(300).build()),
                    "Volume group \"vg\" has insufficient free space (254 extents): 300 required.");
        }

        @Test
        void noRoomLeftForTheMetadata() {
            // 10 extents: spare PE 0, then 9 free for 9 data extents. The free-space check counts data only;
            // no pass finds a second candidate (or a second reservation) for the 1-extent metadata area,
            // so nothing is allocated: lv_manip.c's "Insufficient suitable ... 9 more required"
            VolumeGroup ten = vg(member("sdb", 10, EXTENT));
            refused(() -> createPool(ten, pool("pool").extents(9).build()),
                    "Insufficient suitable allocatable extents for logical volume pool: 9 more required");
        }

        @Test
        void stripesNeedAsManyPvs() {
            refused(() -> createPool(one, pool("pool").size("100M").stripes(2).build()),
                    "Number of stripes (2) must not exceed number of physical volumes (1)");
        }

        @Test
        void discardsWords() {
            assertThat(ThinDiscards.ofWord("NoPassDown")).isEqualTo(ThinDiscards.NOPASSDOWN);
            assertThatThrownBy(() -> ThinDiscards.ofWord("sometimes")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Thin pool discards type \"sometimes\" is unknown.");
        }
    }

    @Nested
    class Placement {

        @Test
        void section45PoolPlacement() {
            VolumeGroup vg = createPool(section45(), pool("pool").size("1G").build());
            // pmspare: both PVs' best-fit candidates tie at 1 extent -> pv0 by order
            assertThat(lv(vg, "lvol0_pmspare").segments()).containsExactly(linear(0, 1, "sdb", 1536));
            // pool: both PVs can hold 256 extents; data on the first-ranked (pv0), metadata on the other (pv1)
            assertThat(lv(vg, "pool_tdata").segments()).containsExactly(linear(0, 256, "sdb", 1537));
            assertThat(lv(vg, "pool_tmeta").segments()).containsExactly(linear(0, 1, "sdc", 256));
            // chunk 64 KiB, metadata estimate 1 MiB -> 2 MiB minimum -> one 4 MiB extent
            assertThat(lv(vg, "pool").thinPool().orElseThrow()).isEqualTo(new SegmentType.ThinPool("pool_tmeta",
                    "pool_tdata", 0, Sectors.of(128), ThinDiscards.PASSDOWN, true));
            // pv0 allocated 1793 (free 766), pv1 allocated 257 (free 2302)
            assertThat(vg.freeCount()).isEqualTo(766 + 2302);
            // VG list order: spare, pool, _tmeta, _tdata (create_pool order)
            assertThat(vg.logicalVolumes().stream().map(LogicalVolume::name))
                    .containsExactly("root", "data", "lvol0_pmspare", "pool", "pool_tmeta", "pool_tdata");
        }

        @Test
        void singlePvPutsTheMetadataRightAfterTheData() {
            // §9: single-PV thin pool, pmspare 0, tdata 1-40, tmeta 41
            VolumeGroup vg = createPool(vg(member("sdb", 255, EXTENT)), pool("pool").extents(40).build());
            assertThat(lv(vg, "lvol0_pmspare").segments()).containsExactly(linear(0, 1, "sdb", 0));
            assertThat(lv(vg, "pool_tdata").segments()).containsExactly(linear(0, 40, "sdb", 1));
            assertThat(lv(vg, "pool_tmeta").segments()).containsExactly(linear(0, 1, "sdb", 41));
        }

        @Test
        void withoutASpare() {
            VolumeGroup vg = createPool(vg(member("sdb", 255, EXTENT)),
                    pool("pool").extents(40).poolMetadataSpare(false).build());
            assertThat(vg.logicalVolumes().stream().map(LogicalVolume::name))
                    .containsExactly("pool", "pool_tmeta", "pool_tdata");
            assertThat(lv(vg, "pool_tdata").segments()).containsExactly(linear(0, 40, "sdb", 0));
            assertThat(lv(vg, "pool_tmeta").segments()).containsExactly(linear(0, 1, "sdb", 40));
        }

        @Test
        void aSecondPoolSharesTheSpare() {
            VolumeGroup vg = createPool(vg(member("sdb", 255, EXTENT)), pool("p1").extents(40).build());
            vg = createPool(vg, pool("p2").extents(40).build());
            // one spare of one extent covers both one-extent metadata LVs; p2 goes after p1_tmeta (PE 41)
            assertThat(vg.logicalVolumes().stream().filter(l -> l.role() == LvRole.POOL_METADATA_SPARE)).hasSize(1);
            assertThat(lv(vg, "p2_tdata").segments()).containsExactly(linear(0, 40, "sdb", 42));
            assertThat(lv(vg, "p2_tmeta").segments()).containsExactly(linear(0, 1, "sdb", 82));
        }

        @Test
        void aBiggerMetadataLvGrowsTheSpare() {
            VolumeGroup vg = createPool(vg(member("sdb", 255, EXTENT)), pool("p1").extents(40).build());
            vg = createPool(vg, pool("p2").extents(40).poolMetadataSize("8M").build());
            // --poolmetadatasize 8M = 2 extents; the spare (PE 0, followed by p1_tdata) gets its second extent
            // from a new allocation: best fit in the free run PE 42-254 -> PE 42
            assertThat(lv(vg, "lvol0_pmspare").segments()).containsExactly(linear(0, 1, "sdb", 0),
                    linear(1, 1, "sdb", 42));
            assertThat(lv(vg, "p2_tdata").segments()).containsExactly(linear(0, 40, "sdb", 43));
            assertThat(lv(vg, "p2_tmeta").segments()).containsExactly(linear(0, 2, "sdb", 83));
        }

        @Test
        void stripedDataOnTwoPvs() {
            // two empty 100-extent PVs, -i 2 -l 20: spare pv0:0; each PV offers 10 extents per stripe, the
            // extra walk for the log finds both again and the last-ranked (pv1) takes the metadata after its data
            VolumeGroup vg = createPool(vg(member("sdb", 100, EXTENT), member("sdc", 100, EXTENT)),
                    pool("pool").extents(20).stripes(2).build());
            assertThat(lv(vg, "pool_tdata").segments()).containsExactly(new LvSegment(0, 20, Sectors.of(128),
                    List.of(new StripeArea("sdb", 1), new StripeArea("sdc", 0))));
            assertThat(lv(vg, "pool_tmeta").segments()).containsExactly(linear(0, 1, "sdc", 10));
        }

        @Test
        void onNamedPvs() {
            VolumeGroup vg = createPool(vg(member("sdb", 100, EXTENT), member("sdc", 100, EXTENT)),
                    pool("pool").extents(20).onPvs("sdc").build());
            // spare, data and metadata all on sdc, in that order
            assertThat(lv(vg, "lvol0_pmspare").segments()).containsExactly(linear(0, 1, "sdc", 0));
            assertThat(lv(vg, "pool_tdata").segments()).containsExactly(linear(0, 20, "sdc", 1));
            assertThat(lv(vg, "pool_tmeta").segments()).containsExactly(linear(0, 1, "sdc", 21));
        }

        @Test
        void errorWhenFullIsAnLvFlag() {
            VolumeGroup vg = createPool(vg(member("sdb", 255, EXTENT)), pool("pool").extents(40).errorWhenFull(true)
                    .zero(false).discards(ThinDiscards.IGNORE).build());
            LogicalVolume p = lv(vg, "pool");
            assertThat(p.flags()).containsExactly(LvFlag.ERROR_WHEN_FULL);
            assertThat(p.thinPool().orElseThrow().zeroNewBlocks()).isFalse();
            assertThat(p.thinPool().orElseThrow().discards()).isEqualTo(ThinDiscards.IGNORE);
        }
    }

    @Nested
    class DeviceHints {

        static Function<String, PvTopology> topology(long ioMin, long ioOpt) {
            return pv -> new PvTopology(ioMin, ioOpt, 0, 512, 4096, 0);
        }

        final VolumeGroup one = vg(member("sdb", 300, EXTENT));

        @Test
        void genericPolicyTakesALargerMinimumIoSize() {
            // io_min 256 KiB = 512 s > 128 s: the chunk becomes 256 KiB; the metadata size is not recomputed
            VolumeGroup vg = ThinPools.lvcreateThinPool(one, pool("pool").size("1G").build(),
                    topology(262_144, 0));
            assertThat(lv(vg, "pool").thinPool().orElseThrow().chunkSize()).isEqualTo(Sectors.of(512));
            assertThat(lv(vg, "pool_tmeta").extentCount()).isEqualTo(1);
        }

        @Test
        void performancePolicyTakesALargerOptimalIoSize() {
            // io_opt 1 MiB = 2048 s > the 1024 s performance default
            VolumeGroup vg = ThinPools.lvcreateThinPool(one, pool("pool").size("1G")
                    .chunkPolicy(ChunkPolicy.PERFORMANCE).build(), topology(4096, 1_048_576));
            assertThat(lv(vg, "pool").thinPool().orElseThrow().chunkSize()).isEqualTo(Sectors.of(2048));
        }

        @Test
        void hintsDoNotApplyToAGivenChunkSizeOrBelow64KiB() {
            VolumeGroup given = ThinPools.lvcreateThinPool(one, pool("pool").size("1G").chunkSize("64k").build(),
                    topology(262_144, 0));
            assertThat(lv(given, "pool").thinPool().orElseThrow().chunkSize()).isEqualTo(Sectors.of(128));
            // 4 KiB = 8 s is out of the 128..2097152 range: kept at 64 KiB
            VolumeGroup small = ThinPools.lvcreateThinPool(one, pool("pool").size("1G").build(), topology(4096, 0));
            assertThat(lv(small, "pool").thinPool().orElseThrow().chunkSize()).isEqualTo(Sectors.of(128));
        }
    }

    @Nested
    class IdsAndTransactions {

        // 300 extents: spare PE 0, 256 data extents, 1 metadata extent, 42 free
        final VolumeGroup withPool = createPool(vg(member("sdb", 300, EXTENT)), pool("pool").size("1G").build());

        @Test
        void thinLvsAndSnapshotsTakeTheNextIdAndTheCurrentTransaction() {
            VolumeGroup vg = ThinPools.lvcreateThin(withPool, ThinLvRequest.of("thin1", "2G", "pool"));
            // §6.3: device_id 1, transaction_id 0; the pool's transaction id 0 -> 1
            assertThat(lv(vg, "thin1").thin().orElseThrow()).isEqualTo(new SegmentType.Thin("pool", 0, 1,
                    Optional.empty()));
            assertThat(lv(vg, "pool").thinPool().orElseThrow().transactionId()).isEqualTo(1);
            assertThat(lv(vg, "thin1").extentCount()).isEqualTo(512); // 2 GiB of 4 MiB extents
            assertThat(lv(vg, "thin1").role()).isEqualTo(LvRole.THIN_VOLUME);

            vg = ThinPools.lvcreateThin(vg, ThinLvRequest.of("thin2", "1G", "pool"));
            assertThat(lv(vg, "thin2").thin().orElseThrow().deviceId()).isEqualTo(2);
            assertThat(lv(vg, "thin2").thin().orElseThrow().transactionId()).isEqualTo(1);

            vg = ThinPools.lvcreateSnapshot(vg, new ThinSnapshotRequest("thin1", "snap1"));
            LogicalVolume snap = lv(vg, "snap1");
            // the origin's size and pool, device_id 3, transaction_id 2, ACTIVATION_SKIP; pool 2 -> 3
            assertThat(snap.thin().orElseThrow()).isEqualTo(new SegmentType.Thin("pool", 2, 3, Optional.of("thin1")));
            assertThat(snap.extentCount()).isEqualTo(512);
            assertThat(snap.flags()).containsExactly(LvFlag.ACTIVATION_SKIP);
            assertThat(lv(vg, "pool").thinPool().orElseThrow().transactionId()).isEqualTo(3);

            // a snapshot of a snapshot is a thin snapshot too
            vg = ThinPools.lvcreateSnapshot(vg, new ThinSnapshotRequest("snap1", "snap2"));
            assertThat(lv(vg, "snap2").thin().orElseThrow().origin()).contains("snap1");
            assertThat(lv(vg, "snap2").thin().orElseThrow().deviceId()).isEqualTo(4);
        }

        @Test
        void generatedNamesFollowTheHighestLvolNumber() {
            // lvol0_pmspare counts as lvol0 (sscanf "lvol%d"): the first generated name is lvol1
            VolumeGroup vg = ThinPools.lvcreateThin(withPool, new ThinLvRequest("", Bytes.gib(1), "pool"));
            assertThat(vg.logicalVolume("lvol1")).isPresent();
            vg = ThinPools.lvcreateSnapshot(vg, new ThinSnapshotRequest("lvol1", ""));
            assertThat(lv(vg, "lvol2").thin().orElseThrow().origin()).contains("lvol1");
        }

        @Test
        void idsAreOneAboveTheHighestNotTheFirstHole() {
            // a thin LV with device id 5 (as after deletions): the next one is 6
            VolumeGroup vg = withThin(withPool, "old", 5);
            vg = ThinPools.lvcreateThin(vg, ThinLvRequest.of("new", "1G", "pool"));
            assertThat(lv(vg, "new").thin().orElseThrow().deviceId()).isEqualTo(6);
        }

        @Test
        void deviceIdsRunOut() {
            VolumeGroup vg = withThin(withPool, "last", SegmentType.Thin.MAX_DEVICE_ID);
            refused(() -> ThinPools.lvcreateThin(vg, ThinLvRequest.of("more", "1G", "pool")),
                    "Cannot find free device_id.");
        }

        @Test
        void virtualSizeRoundsUpToThePoolChunk() {
            // 8 MiB chunks (16384 s) > 4 MiB extents: -V 4M (one extent, 8192 s) becomes 2 extents
            VolumeGroup big = createPool(vg(member("sdb", 300, EXTENT)), pool("pool").size("1G").chunkSize("8M")
                    .build());
            VolumeGroup vg = ThinPools.lvcreateThin(big, ThinLvRequest.of("t", "4M", "pool"));
            assertThat(lv(vg, "t").extentCount()).isEqualTo(2);
            // -V 5M: rounded up to two extents (8 MiB), already one whole chunk
            vg = ThinPools.lvcreateThin(big, ThinLvRequest.of("t", "5M", "pool"));
            assertThat(lv(vg, "t").extentCount()).isEqualTo(2);
        }

        @Test
        void badThinRequests() {
            VolumeGroup vg = LvAllocator.lvcreate(withPool, LvCreateRequest.builder("root").extents(10).build(),
                    "dm-9");
            refused(() -> ThinPools.lvcreateThin(vg, ThinLvRequest.of("t", "1G", "nopool")),
                    "Pool nopool not found in Volume group vg.");
            refused(() -> ThinPools.lvcreateThin(vg, ThinLvRequest.of("t", "1G", "root")),
                    "Logical volume vg/root is not a thin pool.");
            refused(() -> ThinPools.lvcreateThin(vg, ThinLvRequest.of("root", "1G", "pool")),
                    "Logical Volume \"root\" already exists in volume group \"vg\"");
            refused(() -> ThinPools.lvcreateThin(vg, ThinLvRequest.of("pool", "1G", "pool")),
                    "Logical volume name pool and pool name must be different.");
            refused(() -> ThinPools.lvcreateThin(vg, new ThinLvRequest("t", Bytes.ZERO, "pool")),
                    "--virtualsize may not be zero.");
            refused(() -> ThinPools.lvcreateThin(vg, ThinLvRequest.of("snapshot1", "1G", "pool")),
                    "Names starting \"snapshot\" are reserved. Please choose a different LV name.");
            refused(() -> ThinPools.lvcreateSnapshot(vg, new ThinSnapshotRequest("nothere", "s")),
                    "Snapshot origin LV nothere not found in Volume group vg.");
            refused(() -> ThinPools.lvcreateSnapshot(vg, new ThinSnapshotRequest("root", "s")),
                    "Please specify either size or extents with snapshots.");
        }

        private VolumeGroup withThin(VolumeGroup vg, String name, long deviceId) {
            List<LogicalVolume> lvs = new java.util.ArrayList<>(vg.logicalVolumes());
            lvs.add(new LogicalVolume("vg", name, List.of(LvSegment.thin(10, new SegmentType.Thin("pool", 0, deviceId,
                    Optional.empty()))), "", LvRole.THIN_VOLUME, Set.of()));
            return new VolumeGroup("vg", vg.extentSize(), vg.physicalVolumes(), lvs, vg.allocationPolicy());
        }
    }

    @Nested
    class Tables {

        final VolumeGroup vg = ThinPools.lvcreateThin(createPool(section45(), pool("pool").size("1G").build()),
                ThinLvRequest.of("thin1", "2G", "pool"));

        @Test
        void section7Lines() {
            // §7: "0 2097152 thin-pool 253:2 253:3 128 0 0", "0 2097152 linear 253:4 0", "0 4194304 thin 253:4 1"
            Function<String, String> numbers = Map.of("dm-2", "253:2", "dm-3", "253:3", "dm-4", "253:4")::get;
            assertThat(ThinPools.poolTable(vg, lv(vg, "pool"), "dm-2", "dm-3").format(numbers))
                    .isEqualTo("0 2097152 thin-pool 253:2 253:3 128 0 0\n");
            assertThat(ThinPools.poolLayerTable(vg, lv(vg, "pool"), "dm-4").format(numbers))
                    .isEqualTo("0 2097152 linear 253:4 0\n");
            assertThat(ThinPools.thinTable(vg, lv(vg, "thin1"), "dm-4").format(numbers))
                    .isEqualTo("0 4194304 thin 253:4 1\n");
            // the sub-LVs are plain linear LVs: tmeta pv1:256, tdata pv0:1537
            assertThat(LvTables.table(vg, lv(vg, "pool_tmeta")).format(Map.of("sdc", "8:32")::get))
                    .isEqualTo("0 8192 linear 8:32 2099200\n");
            assertThat(LvTables.table(vg, lv(vg, "pool_tdata")).format(Map.of("sdb", "8:16")::get))
                    .isEqualTo("0 2097152 linear 8:16 12593152\n");
        }

        @Test
        void featuresInTheKernelsOrder() {
            VolumeGroup one = createPool(vg(member("sdb", 300, EXTENT)), pool("pool").size("1G").zero(false)
                    .discards(ThinDiscards.IGNORE).errorWhenFull(true).build());
            assertThat(ThinPools.poolTable(one, lv(one, "pool"), "m", "d").format(x -> x))
                    .isEqualTo("0 2097152 thin-pool m d 128 0 3 skip_block_zeroing ignore_discard error_if_no_space\n");
            VolumeGroup nopass = createPool(vg(member("sdb", 300, EXTENT)), pool("pool").size("1G")
                    .discards(ThinDiscards.NOPASSDOWN).build());
            assertThat(ThinPools.poolTable(nopass, lv(nopass, "pool"), "m", "d").format(x -> x))
                    .isEqualTo("0 2097152 thin-pool m d 128 0 1 no_discard_passdown\n");
        }

        @Test
        void lowWaterMark() {
            // 1 GiB in 64 KiB chunks = 16384 blocks; threshold 100 (default) = autoextend off -> 0
            assertThat(ThinPools.lowWaterMark(2_097_152, 128, 100)).isZero();
            // threshold 80: 16384 x 20 / 100 = 3276 blocks
            assertThat(ThinPools.lowWaterMark(2_097_152, 128, 80)).isEqualTo(3276);
            // below 50 counts as 50: 16384 x 50 / 100 = 8192
            assertThat(ThinPools.lowWaterMark(2_097_152, 128, 30)).isEqualTo(8192);
        }
    }

    @Nested
    class Model {

        @Test
        void thinSegmentsHaveNoPvAreas() {
            SegmentType.ThinPool p = new SegmentType.ThinPool("p_tmeta", "p_tdata", 0, Sectors.of(128),
                    ThinDiscards.PASSDOWN, true);
            assertThatThrownBy(() -> new LvSegment(0, 10, Sectors.ZERO, List.of(new StripeArea("sdb", 0)), p))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no PV areas");
            LvSegment seg = LvSegment.thinPool(10, p);
            assertThat(seg.stripes()).isZero();
            assertThat(seg.areaLength()).isEqualTo(10); // the data LV area: area_len = len
            assertThat(seg.segType()).isEqualTo("thin-pool");
            assertThat(LvSegment.thin(3, new SegmentType.Thin("p", 0, 1, Optional.empty())).segType())
                    .isEqualTo("thin");
        }

        @Test
        void importerRangeChecks() {
            assertThatThrownBy(() -> new SegmentType.ThinPool("m", "d", 0, Sectors.of(64), ThinDiscards.PASSDOWN, true))
                    .hasMessage("Unsupported value 64 for chunk_size");
            assertThatThrownBy(() -> new SegmentType.Thin("p", 0, 1L << 24, Optional.empty()))
                    .hasMessage("Unsupported value 16777216 for device_id");
        }

        @Test
        void rolesMustFitSegmentsAndNames() {
            List<LvSegment> striped = List.of(linear(0, 1, "sdb", 0));
            assertThatThrownBy(() -> new LogicalVolume("vg", "p", striped, "", LvRole.THIN_POOL, Set.of()))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new LogicalVolume("vg", "p_data", striped, "", LvRole.THIN_POOL_DATA, Set.of()))
                    .hasMessage("LV vg/p_data: an LV of role THIN_POOL_DATA is named *_tdata");
            SegmentType.Thin t = new SegmentType.Thin("p", 0, 1, Optional.empty());
            assertThatThrownBy(() -> new LogicalVolume("vg", "t", List.of(LvSegment.thin(1, t),
                    new LvSegment(1, 1, Sectors.ZERO, List.of(), t)), "", LvRole.THIN_VOLUME, Set.of()))
                    .hasMessage("LV vg/t: a thin volume must have exactly one segment (found 2)");
            // the four-argument constructor derives the role and makes the LV visible
            LogicalVolume thin = new LogicalVolume("vg", "t", List.of(LvSegment.thin(1, t)), "dm-4");
            assertThat(thin.role()).isEqualTo(LvRole.THIN_VOLUME);
            assertThat(thin.visible()).isTrue();
            assertThat(new LogicalVolume("vg", "x", striped, "dm-0").role()).isEqualTo(LvRole.PUBLIC);
        }

        @Test
        void theVgChecksWhatThinSegmentsName() {
            SegmentType.ThinPool p = new SegmentType.ThinPool("p_tmeta", "p_tdata", 0, Sectors.of(128),
                    ThinDiscards.PASSDOWN, true);
            LogicalVolume pool = new LogicalVolume("vg", "p", List.of(LvSegment.thinPool(10, p)), "", LvRole.THIN_POOL,
                    Set.of());
            LogicalVolume meta = new LogicalVolume("vg", "p_tmeta", List.of(linear(0, 1, "sdb", 0)), "",
                    LvRole.THIN_POOL_METADATA, Set.of());
            assertThatThrownBy(() -> new VolumeGroup("vg", Sectors.of(EXTENT), List.of(member("sdb", 100, EXTENT)),
                    List.of(pool, meta), AllocationPolicy.NORMAL))
                    .hasMessage("Couldn't find volume 'p_tdata' for segment 'segment1' of LV p.");
            LogicalVolume shortData = new LogicalVolume("vg", "p_tdata", List.of(linear(0, 9, "sdb", 1)), "",
                    LvRole.THIN_POOL_DATA, Set.of());
            assertThatThrownBy(() -> new VolumeGroup("vg", Sectors.of(EXTENT), List.of(member("sdb", 100, EXTENT)),
                    List.of(pool, meta, shortData), AllocationPolicy.NORMAL))
                    .hasMessageContaining("inconsistent area_len 9");
        }

        @Test
        void dmNamesWithLayers() {
            // §7: my-vg/p with layer tpool -> my--vg-p-tpool; a layer starting with _ has no separating hyphen
            assertThat(LogicalVolume.dmName("my-vg", "p", "tpool")).isEqualTo("my--vg-p-tpool");
            assertThat(LogicalVolume.dmName("vg0", "lv", "_mlog")).isEqualTo("vg0-lv_mlog");
            assertThat(LogicalVolume.dmName("vg0", "pool", "")).isEqualTo("vg0-pool");
        }
    }
}
