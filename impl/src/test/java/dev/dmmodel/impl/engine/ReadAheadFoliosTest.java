package dev.dmmodel.impl.engine;

import static dev.dmmodel.impl.engine.EngineTestSupport.bufferedRead;
import static dev.dmmodel.impl.engine.EngineTestSupport.of;
import static dev.dmmodel.impl.engine.EngineTestSupport.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.KernelProfile.ReadAheadFolios;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.Command;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Block-device read-ahead in large folios ({@link KernelProfile#readAheadFolios()}). The disk is the recorded
 * mr-* disk as 7.2 shows it: read_ahead_kb 8192, so {@code ra_pages} = 8192 KiB / 4 KiB = 2048 pages;
 * max_sectors_kb 4096 (8192 sectors, io_pages 1024); 254 segments of at most 64 KiB. Every expected number below
 * is worked out from mm/readahead.c's rules in the comment above it, in pages (p) unless it says sectors.
 */
class ReadAheadFoliosTest {

    private static Layout disk(KernelProfile profile) {
        return Layout.builder(profile)
                .disk("sda", DiskPresets.virtioBlk().toBuilder().size(Bytes.gib(2)).maxHwSectors(65534)
                        .maxSegments(254).maxSegmentSize(65536).readAheadKb(8192).build())
                .build();
    }

    private static KernelProfile markerOrder() {
        return KernelProfile.LINUX_7_2.toBuilder().name("linux-7.2-marker-order")
                .readAheadFolios(ReadAheadFolios.MARKER_ORDER_PLUS_TWO).build();
    }

    @Test
    void anAlignedRampGrowsWindowsTo2048PagesEndingOnFolioBoundaries() {
        List<TraceEvent> ev = run(disk(KernelProfile.LINUX_7_2), bufferedRead("/dev/sda", 8192, 4096));
        // dd bs=8192: 2 pages per read. page_cache_sync_ra at 0: get_init_ra_size(2, 2048) = 2 * 4 = 8p (2 <=
        // 2048/32), async_size 8 - 2 = 6, order 0: pages 0-7 (64 sectors), PG_readahead on page 0 + 8 - 6 = 2.
        // Page 2 (expected = round_down(0 + 8 - 6, 1) = 2): start 8, get_next_ra_size(8) = 32 (8 < 2048/16:
        // x4), order 0 + 2 = 2, align 4: end 40 stays; 32p in order-2 folios, mark on the first (async = size).
        // Page 8: start 40, 32 * 4 = 128p, order 4, align 16: end 168 cut to 160, 120p (960 sectors).
        // Page 40: start 160, 120 * 4 = 480p (120 < 128), order 6, align 64: end 640 stays, 480p.
        // Page 160: start 640, 480 * 2 = 960p (<= 1024), order 8, align 256: end 1600 cut to 1536, 896p.
        // Page 640: start 1536, 896 * 2 = 1792p, order 10, align 1024: end 3328 cut to 3072, 1536p; the folios are
        // capped at MAX_PAGECACHE_ORDER 9 and ra->order keeps 9.
        // Page 1536: start 3072, 2048p (1536 > 1024: the limit), order 11, align 2^min(11, ffs(2048) - 1 = 11)
        // = 2048: end 5120 cut to 4096, 1024p. Page 3072: start 4096, 2048p, end 6144 aligned; page 4096: 6144;
        // page 6144: 8192. The read ends at page 8191, before the mark at 8192.
        assertThat(of(ev, "sda", EventType.BIO_QUEUE)).containsExactly("0+64", "64+256", "320+960", "1280+3840",
                "5120+7168", "12288+12288", "24576+8192", "32768+16384", "49152+16384", "65536+16384");
        // at the disk only max_sectors (8192) splits them: a folio of up to 2 MiB is one bvec, 32 segments of
        // 64 KiB; the largest request, 8192 sectors, has 64
        assertThat(ev).filteredOn(e -> e.type() == EventType.SPLIT).extracting(TraceEvent::extra)
                .containsExactly("new_sector=20480", "new_sector=40960", "new_sector=57344", "new_sector=73728");
    }

    @Test
    void aOneMibReaderStartsWithAWindowOfPagesAndRampsFromOrderTwo() {
        List<TraceEvent> ev = run(disk(KernelProfile.LINUX_7_2), bufferedRead("/dev/sda", 1 << 20, 32));
        // dd bs=1M: 256 pages per read. Sync at 0: get_init_ra_size(256, 2048) = 512p (256 > 2048/32, <= 2048/4:
        // x2), async 256, order 0: 512 single pages go out as two bios of BIO_MAX_VECS = 256 bvecs (2048 sectors).
        // Read 2 hits the mark at 256 (expected round_down(0 + 512 - 256, 1)): start 512, 512 * 2 = 1024p,
        // order 2, align 4: 256 folios of 4 pages, one bio of 8192 sectors. Read 3 at 512: start 1536, 2048p,
        // order 4, align 16: end 3584 stays. At 1536: start 3584, order 6, end 5632 = 88 * 64. At 3584: start
        // 5632, order 8, end 7680 = 30 * 256. At 5632: start 7680, order 10, align 1024: end 9728 cut to 9216,
        // 1536p (folios of order 9). At 7680: start 9216, order 9 + 2 = 11, align 2048: end 11264 cut to 10240,
        // 1024p. The read ends at page 8191.
        assertThat(of(ev, "sda", EventType.BIO_QUEUE)).containsExactly("0+2048", "2048+2048", "4096+8192",
                "12288+16384", "28672+16384", "45056+16384", "61440+12288", "73728+8192");
        // the disk splits the 256-bvec bios at max_segments 254 (254 pages = 2032 sectors) and the 256 folios of
        // 16 KiB (one segment each) at 254 * 32 = 8128 sectors; the others at max_sectors 8192
        assertThat(ev).filteredOn(e -> e.type() == EventType.SPLIT).extracting(TraceEvent::extra)
                .containsExactly("new_sector=2032", "new_sector=4080", "new_sector=12224", "new_sector=20480",
                        "new_sector=36864", "new_sector=53248", "new_sector=69632");
    }

    @Test
    void beforeTheAlignedRampTheOrderFollowsTheMarkedFolioAndWindowsAreNotCut() {
        List<TraceEvent> ev = run(disk(markerOrder()), bufferedRead("/dev/sda", 8192, 4096));
        // 6.15 - 6.16: page_cache_ra_order adds 2 to the order it is given. Sync at 0: 8p, async 6, order 0 + 2 = 2:
        // folios 0-3 and 4-7; the mark (page 2) rounds down to folio 0, which the first read reaches at once:
        // expected round_down(0 + 8 - 6, 4) = 0, start 8, 32p, order 2 + 2 = 4: folios 8 (order 3: 8 is not
        // 16-aligned), 16 (order 4), 32 (order 3: 32 + 15 > the window's last page 39); mark on folio 8.
        // Page 8 (order 3): start 40, 128p, order 3 + 2 = 5, nothing cut: 40..167. Its first folio is order 3
        // again (40 = 8 mod 16), and so is every window's first folio after it: 168 (128 * 2 = 256p), 424 (512p),
        // 936 (1024p), 1960 (2048p), 4008, 6056, 8104 (2048p each; page 8104 < 8192 is read, so 10152 follows).
        assertThat(of(ev, "sda", EventType.BIO_QUEUE)).containsExactly("0+64", "64+256", "320+1024", "1344+2048",
                "3392+4096", "7488+8192", "15680+16384", "32064+16384", "48448+16384", "64832+16384",
                "81216+16384");
    }

    @Test
    void aWindowStopsItsFoliosAtCachedPagesAndReadsTheRestInPages() {
        // dd reading and writing the same disk: each 8 KiB read of pages 2k, 2k+1 is followed by a write that makes
        // pages 100 + 2k, 101 + 2k cached (dirty) ahead of the reader
        Command.Dd dd = new Command.Dd("dd if=/dev/sda of=/dev/sda bs=8192 count=64 seek=50", "/dev/sda", "/dev/sda",
                8192, 8192, true, OptionalLong.of(8192L * 64), 0, 8192L * 50, Set.of(), Set.of(), Set.of());
        List<TraceEvent> ev = run(disk(KernelProfile.LINUX_7_2), dd);
        // as the first test: 0-7, 8-39 (order 2). Page 8, read 5 (pages 100-107 written by reads 1-4): window
        // 40 + 120p in order 4 after the order-3 folio at 40: folios 40, 48, 64, 80, then 96-111 would overlap the
        // cached 100-107 (filemap_add_folio -EEXIST): 40-95 go out (56p, 448 sectors), and do_page_cache_ra reads
        // the other 120 - 56 = 64 pages from 96 in single pages, skipping the cached ones: 96-99 and 108-159. The
        // mark stays on folio 40 (order 3); ra->order was set to 4. Page 40: start 160, 480p, order 6, end 640.
        assertThat(ev).filteredOn(e -> e.type() == EventType.BIO_QUEUE && e.rwbs().equals("RA"))
                .extracting(e -> e.sector() + "+" + e.nrSectors())
                .startsWith("0+64", "64+256", "320+448", "768+32", "864+416", "1280+3840");
    }

    @Test
    void singlePagesAreTheProfilesBefore615() {
        assertThat(KernelProfile.LINUX_6_12.readAheadFolios()).isEqualTo(ReadAheadFolios.SINGLE_PAGES);
        List<TraceEvent> ev = run(disk(KernelProfile.LINUX_7_2.toBuilder().name("linux-7.2-pages")
                .readAheadFolios(ReadAheadFolios.SINGLE_PAGES).build()), bufferedRead("/dev/sda", 8192, 64));
        // ondemand_readahead as on 6.1: 8p at 0 (async 6), then 32, 128, 512 pages, each in bios of 256 pages
        assertThat(of(ev, "sda", EventType.BIO_QUEUE)).startsWith("0+64", "64+256", "320+1024", "1344+2048");
    }
}
