package dev.dmmodel.impl.dm.writecache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.engine.WritecacheStats;
import dev.dmmodel.io.DmTables;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * dm-writecache on the recorded stack (writecache-*: a 64 MiB cache volume on NVMe, 4 KiB blocks, over a 256 MiB LV
 * on virtio): limits, writes whole into the cache, the metadata commit and when it comes, reads split per block.
 */
class WritecacheIoTest {
    private static final String W1M_AT0 = "dd if=/dev/zero of=/dev/mapper/vgk-origin2 bs=1M count=1 seek=0 "
            + "oflag=direct,seek_bytes\n";
    private static final String R1M_AT0 = "dd if=/dev/mapper/vgk-origin2 of=/dev/null bs=1M count=1 skip=0 "
            + "iflag=direct,skip_bytes\n";

    static Layout stack(String options) {
        LayoutSpec disks = new LayoutSpec(KernelProfile.LINUX_6_12, Layout.builder(KernelProfile.LINUX_6_12)
                .disk("vda", DiskPresets.virtioBlk().toBuilder().maxSegments(1022).size(Bytes.gib(1)).build())
                .disk("nvme0n1", DiskPresets.nvmeSsd().toBuilder().maxHwSectors(1024).maxSegments(128)
                        .size(Bytes.gib(1)).build())
                .steps());
        return Layout.of(DmTables.addTo(disks, """
                vgk-origin2_wcorig: 0 524288 linear /dev/vda 526336
                vgk-wcvol_cvol: 0 131072 linear /dev/nvme0n1 165888
                vgk-origin2: 0 524288 writecache s /dev/mapper/vgk-origin2_wcorig /dev/mapper/vgk-wcvol_cvol 4096 OPTS
                """.replace("OPTS", options), "writecache.txt"));
    }

    private final Layout layout = stack("0");
    private final String wc = dev("vgk-origin2");
    private final String cvol = dev("vgk-wcvol_cvol");
    private final String origin = dev("vgk-origin2_wcorig");

    private String dev(String name) {
        return layout.device("/dev/mapper/" + name).name();
    }

    private static List<TraceEvent> run(Simulation sim, String script) {
        List<TraceEvent> events = new ArrayList<>();
        for (CommandResult r : sim.run(Script.parse(script), events::add)) {
            assertThat(r.ok()).as(r.command().line() + ": " + r.message()).isTrue();
        }
        return events;
    }

    private static List<String> of(List<TraceEvent> events, String device, EventType type) {
        return events.stream().filter(e -> e.device().equals(device) && e.type() == type)
                .map(e -> e.rwbs() + " " + e.sector() + "+" + e.nrSectors()).toList();
    }

    private static WritecacheStats stats(Simulation sim) {
        return sim.writecacheStats().get(0);
    }

    @Test
    void limitsAreTheOriginsWithTheBlockSize() {
        // writecache_iterate_devices: the origin only (virtio: max_sectors_kb 1280, 1022 segments, no virt
        // boundary); writecache_io_hints: logical/physical block and io_min 4096; blk_validate_limits then raises
        // discard_granularity to the physical block; num_write_zeroes_bios 0
        QueueLimits l = layout.device("/dev/mapper/vgk-origin2").limits();
        assertThat(l.logicalBlockSize()).isEqualTo(4096);
        assertThat(l.physicalBlockSize()).isEqualTo(4096);
        assertThat(l.ioMin()).isEqualTo(4096);
        assertThat(l.discardGranularity()).isEqualTo(4096);
        assertThat(l.maxWriteZeroesSectors()).isZero();
        assertThat(l.maxSectors()).isEqualTo(2560);
        assertThat(l.maxSegments()).isEqualTo(1022);
        assertThat(l.virtBoundaryMask()).isZero();
    }

    @Test
    void theMetadataTakes64BlocksOfA64MiBCache() {
        // calculate_memory_size: 67108864 / (4096 + 16) = 16320 blocks; metadata 64 + 16 * 16320 = 261184 bytes,
        // rounded up to 4096: 262144 = 64 blocks (512 sectors); 262144 + 16320 * 4096 = 67108864 fits exactly
        assertThat(WritecacheModel.memorySize(67_108_864, 4096)).containsExactly(16320, 64);
        // a device too small for one block and its entry
        assertThat(WritecacheModel.memorySize(4096, 4096)).containsExactly(-1, -1);
    }

    @Test
    void aWriteGoesWholeToTheCacheAndIsCommittedASecondLater() {
        // 256 consecutive free blocks from 0: one remap of 2048 sectors at cache sector 512 (after the metadata),
        // split at the namespace's 512 KiB; no commit before the autocommit timer (1 s): then a 128-sector write of
        // the first metadata region at 0 (entries 0..255 are bytes 64..4159), a flush and the superblock with FUA
        Simulation sim = Simulation.of(layout);
        List<TraceEvent> write = run(sim, W1M_AT0);
        assertThat(of(write, cvol, EventType.BIO_REMAP)).containsExactly("WS 512+2048");
        assertThat(of(write, cvol, EventType.BIO_QUEUE)).containsExactly("WS 512+2048");
        assertThat(of(write, origin, EventType.BIO_QUEUE)).isEmpty();
        List<TraceEvent> sleep = run(sim, "sleep 2\n");
        assertThat(of(sleep, cvol, EventType.BIO_QUEUE)).containsExactly("WS 0+128", "FWS 0+0", "WFS 0+8");
        assertThat(of(run(sim, "sleep 5\nsync\n"), cvol, EventType.BIO_QUEUE)).isEmpty();
        assertThat(stats(sim).status()).isEqualTo("0 16320 16064 0 0 0 256 0 0 0 256 0 0 0");
    }

    @Test
    void autocommitTimeSetsWhenTheCommitComes() {
        // autocommit_time 3000: the timer fires 3 s after the write, so not in the first sleep 2
        Layout l = stack("2 autocommit_time 3000");
        Simulation sim = Simulation.of(l);
        String cv = l.device("/dev/mapper/vgk-wcvol_cvol").name();
        run(sim, W1M_AT0);
        assertThat(of(run(sim, "sleep 2\n"), cv, EventType.BIO_QUEUE)).isEmpty();
        assertThat(of(run(sim, "sleep 2\n"), cv, EventType.BIO_QUEUE)).containsExactly("WS 0+128", "FWS 0+0",
                "WFS 0+8");
    }

    @Test
    void aReadOfCachedDataIsServedFromTheCacheOneBlockAtATime() {
        // writecache_map_read: dm_accept_partial_bio(8 sectors) per cached block: 255 splits, 256 x RS 8 remapped
        // to the cache at 512, 520, ... (the blocks the write took)
        Simulation sim = Simulation.of(layout);
        run(sim, W1M_AT0 + "sleep 2\nsync\n");
        List<TraceEvent> ev = run(sim, R1M_AT0);
        assertThat(of(ev, wc, EventType.SPLIT)).hasSize(255);
        assertThat(of(ev, cvol, EventType.BIO_REMAP))
                .isEqualTo(LongStream.range(0, 256).mapToObj(i -> "RS " + (512 + 8 * i) + "+8").toList());
        assertThat(of(ev, origin, EventType.BIO_QUEUE)).isEmpty();
        assertThat(stats(sim).readHits()).isEqualTo(256);
    }

    @Test
    void aReadOfUncachedDataGoesWholeToTheOriginUpToTheNextCachedBlock() {
        // nothing cached at 8 MiB: one RS 2048 to the origin; 1 MiB at 0 with only block 128 (sector 1024) cached:
        // 1024 sectors to the origin, then that block from the cache, then the rest (1016) to the origin
        Simulation sim = Simulation.of(layout);
        List<TraceEvent> far = run(sim, "dd if=/dev/mapper/vgk-origin2 of=/dev/null bs=1M count=1 skip=8388608 "
                + "iflag=direct,skip_bytes\n");
        assertThat(of(far, origin, EventType.BIO_REMAP)).containsExactly("RS 16384+2048");
        run(sim, "dd if=/dev/zero of=/dev/mapper/vgk-origin2 bs=4k count=1 seek=524288 oflag=direct,seek_bytes\n");
        List<TraceEvent> around = run(sim, R1M_AT0);
        assertThat(of(around, origin, EventType.BIO_REMAP)).containsExactly("RS 0+1024", "RS 1032+1016");
        assertThat(of(around, cvol, EventType.BIO_REMAP)).containsExactly("RS 512+8");
        // reads count blocks: 256 + 128 + 1 + 127
        assertThat(stats(sim).reads()).isEqualTo(512);
    }

    @Test
    void anOverwriteOfACommittedBlockIsWrittenInPlaceAndOnlyFlushed() {
        // writecache_map_write: a committed entry is overwritten in place (overwrote_committed); the next commit
        // finds the newest entry committed and only flushes the cache device
        Simulation sim = Simulation.of(layout);
        run(sim, W1M_AT0 + "sleep 2\n");
        List<TraceEvent> ev = run(sim, "dd if=/dev/zero of=/dev/mapper/vgk-origin2 bs=4k count=1 seek=4096 "
                + "oflag=direct,seek_bytes\n");
        assertThat(of(ev, cvol, EventType.BIO_REMAP)).containsExactly("WS 520+8");
        assertThat(stats(sim).writeHitsCommitted()).isEqualTo(1);
        assertThat(stats(sim).freeBlocks()).isEqualTo(16064);
    }

    @Test
    void writebackWaitsForTheHighWatermark() {
        // (16320 * (100 - 50) + 50) / 100 = 8160: writeback starts only when at most 8160 blocks are free
        WritecacheModel m = new WritecacheModel(new WritecacheTargetTypeTest.Fixture().target("0"), d -> 131072L);
        assertThat(m.highWatermarkBlocks()).isEqualTo(8160);
        assertThat(m.blocks()).isEqualTo(16320);
        assertThat(m.metadataSectors()).isEqualTo(512);
    }

    @Test
    void aDiscardOfCachedBlocksFreesThemWritesTheirMetadataAndGoesToTheOrigin() {
        // writecache_discard: the 16 blocks of 64 KiB at 0 leave the cache (16064 + 16 free), their entries'
        // region (bytes 64..319, region 0) is written and the device flushed (ssd_commit_flushed); the discard
        // goes on to the origin whole
        Simulation sim = Simulation.of(layout);
        run(sim, W1M_AT0 + "sleep 2\n");
        List<TraceEvent> ev = run(sim, "blkdiscard -o 0 -l 65536 /dev/mapper/vgk-origin2\n");
        assertThat(of(ev, cvol, EventType.BIO_QUEUE)).containsExactly("WS 0+128", "FWS 0+0");
        assertThat(of(ev, origin, EventType.BIO_QUEUE)).containsExactly("DS 0+128");
        assertThat(stats(sim).discards()).isEqualTo(16);
        assertThat(stats(sim).freeBlocks()).isEqualTo(16080);
    }
}
