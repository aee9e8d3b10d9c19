package dev.dmmodel.impl.dm.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.QueueLimits;
import java.util.List;
import org.junit.jupiter.api.Test;

/** cache_io_hints and cache_iterate_devices on the recorded stack, and the findings of cache devices. */
class CacheLimitsAndFindingsTest {
    private final Layout layout = CacheStacks.cache("2 metadata2 writethrough");
    private final String cache = CacheStacks.dm(layout, "vgk-origin");

    @Test
    void theCachedVolumeStacksTheCacheDevicesLimits() {
        // the README: io_min = io_opt = 65536 (the 128-sector block), max_sectors_kb 512, max_segments 128 and
        // virt_boundary_mask 4095 from the NVMe cache device, write_zeroes 0; discards as the origin's
        // (set_discard_limits with passdown: granularity 512, max 2147483136 bytes = 4194303 sectors)
        QueueLimits l = layout.device(cache).limits();
        assertThat(l.ioMin()).isEqualTo(65536);
        assertThat(l.ioOpt()).isEqualTo(65536);
        assertThat(l.maxSectors()).isEqualTo(1024);
        assertThat(l.maxSegments()).isEqualTo(128);
        assertThat(l.virtBoundaryMask()).isEqualTo(4095);
        assertThat(l.maxWriteZeroesSectors()).isZero();
        assertThat(l.discardGranularity()).isEqualTo(512);
        assertThat(l.maxDiscardSectors()).isEqualTo(4194303);
        assertThat(l.logicalBlockSize()).isEqualTo(512);
    }

    @Test
    void anIoOptThatIsAMultipleOfTheBlockIsKept() {
        // cache_io_hints overrides io_min/io_opt only if io_opt is not a multiple of the block: 128 KiB over 64 KiB
        // blocks stays
        dev.dmmodel.impl.block.Limits l = new dev.dmmodel.impl.block.Limits();
        l.logicalBlockSize = 512;
        l.physicalBlockSize = 512;
        l.ioMin = 512;
        l.ioOpt = 131072;
        CacheModel m = new CacheModel(CacheTargetTypeTest.cache("8:1 8:2 8:3 128 0 smq 0"), d -> 131072L);
        m.ioHints(l, d -> null, dev.dmmodel.limits.KernelProfile.LINUX_6_12);
        assertThat(l.ioOpt).isEqualTo(131072);
        assertThat(l.ioMin).isEqualTo(512);
        // without passdown (no origin limits): discard blocks of 128 sectors (524288 / 128 = 4096 <= 2^14), max
        // 1024 of them = 131072 sectors, granularity 65536
        assertThat(l.maxHwDiscardSectors).isEqualTo(131072);
        assertThat(l.discardGranularity).isEqualTo(65536);
    }

    @Test
    void theBlockSizeSplitsTheWorkloadsIo() {
        // 64 KiB blocks under max_sectors_kb 512: a 512 KiB request is 8 pieces, a 1 MiB direct write 16
        List<Finding> f = layout.findings().stream().filter(x -> x.type() == FindingType.CACHE_BLOCK_SPLITS_IO)
                .toList();
        assertThat(f).hasSize(1);
        assertThat(f.get(0).id()).isEqualTo("cache.block-splits-io");
        assertThat(f.get(0).severity()).isEqualTo(Severity.INFO);
        assertThat(f.get(0).device()).isEqualTo(cache);
        assertThat(f.get(0).message()).isEqualTo(cache + " (vgk-origin) caches in 64KiB blocks: dm core cuts every "
                + "bio at block boundaries, so a request of 512KiB (max_sectors_kb 512) reaches the cache as 8 bios of "
                + "64KiB and a 1 MiB direct write as 16, each looked up, counted and promoted on its own");
    }

    @Test
    void theNvmeCacheDevicesLimitsCutTheVirtioOrigin() {
        // the origin (virtio LV) takes 1280 KiB and 1022 segments without a virt boundary; the NVMe cache device
        // 512 KiB, 128 segments, virt_boundary_mask 4095: all three cut the cached volume's I/O
        List<Finding> f = layout.findings().stream()
                .filter(x -> x.type() == FindingType.CACHE_DEVICE_LIMITS_CUT_ORIGIN_IO).toList();
        assertThat(f).hasSize(1);
        assertThat(f.get(0).id()).isEqualTo("cache.device-limits-cut-origin-io");
        assertThat(f.get(0).severity()).isEqualTo(Severity.WARNING);
        String cdata = CacheStacks.dm(layout, "vgk-cpool_cpool_cdata");
        String corig = CacheStacks.dm(layout, "vgk-origin_corig");
        assertThat(f.get(0).message()).isEqualTo(cache + " (vgk-origin) takes the limits of its cache device " + cdata
                + ": max_sectors_kb 512 (the origin's 1280), max_segments 128 (1022), virt_boundary_mask 4095 (0); "
                + "I/O to the cached volume is cut to them, also what goes on to the origin " + corig
                + " (misses, writethrough writes), which could take 1280KiB at once");
    }
}
