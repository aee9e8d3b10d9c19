package dev.dmmodel.impl.layout;

import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.OptionalLong;

/**
 * {@link KernelProfile#LINUX_7_2}: the numbers recorded on Debian unstable's 7.2.13
 * ({@code shared/kernel-traces-7.2}, its README and {@code limits-sd-512e-ioopt448k}) and the rules its preset
 * documents.
 */
class Linux72BehaviourTest extends AbstractProfileBehaviourTest {
    @Override
    KernelProfile profile() {
        return KernelProfile.LINUX_7_2;
    }

    @Override
    long ahciMaxSectors() {
        // the 4 MiB default cap (8192 sectors) under the preset's max_hw 65535
        // (README: AHCI disks with force=max_sec_lba48 have max_sectors_kb 4096)
        return 8192;
    }

    @Override
    long ioOptDiskMaxSectors() {
        // sd does not lower max_sectors to io_opt (as 6.12); the 4 MiB cap
        // (limits-sd-512e-ioopt448k sdg: max_sectors_kb 4096)
        return 8192;
    }

    @Override
    long[] ioOptDiskIoMinAndIoOpt() {
        // limits-sd-512e-ioopt448k sdg: minimum_io_size 65536, optimal_io_size 458752
        return new long[] {65536, 458752};
    }

    @Override
    long[] stripedChunkSectorsAndIoOpt() {
        // stripe_io_hints sets chunk_sectors to the 128-sector chunk; io_opt = 2 x 64 KiB
        // (limits-sd-512e-ioopt448k dm-2, strdisks: chunk_sectors 128, optimal_io_size 131072)
        return new long[] {128, 131072};
    }

    @Override
    long[] pool1mMaxSectorsIoMinIoOpt() {
        // max_sectors 8192 is not below the 2048-sector block, so pool_io_hints keeps it; io_opt 458752 is no
        // multiple of 1 MiB, so io_min = io_opt = the block (limits-sd-512e-ioopt448k dm-10, pool1m:
        // max_sectors_kb 4096, minimum_io_size 1048576, optimal_io_size 1048576)
        return new long[] {8192, 1048576, 1048576};
    }

    @Override
    long[] thin64kDiscardGranularityAndMaxSectors() {
        // granularity the 64 KiB block; max BIO_PRISON_MAX_RANGE 1024 x 128 = 131072 sectors
        // (limits-sd-512e-ioopt448k dm-7, thin64k: 65536, discard_max_bytes 67108864 = 131072 x 512)
        return new long[] {65536, 131072};
    }

    @Override
    List<String> oneMibDirectWriteAtDm() {
        // split on entry, built up to BIO_MAX_VECS (256 pages = 2048 sectors): the whole MiB reaches dm-0
        return List.of("0+2048");
    }

    @Override
    List<String> readaheadBiosWith512ByteBuffers() {
        // the AHCI disk has no io_opt, so read_ahead_kb is twice max_sectors_kb, 8192 (README), and dm-linear
        // takes it from below: ra_pages 2048. The first 8 KiB read (2 pages) opens get_init_ra_size(2, 2048):
        // roundup_pow_of_two(2) = 2 <= 2048 / 32, so x 4 = 8 pages (0+64), with async_size 8 - 2 = 6: the mark on
        // page 2. The second read hits it: get_next_ra_size(8, 2048) = 8 x 4 = 32 pages from page 8 (64+256) in
        // order-2 folios (the marked folio's order 0 + 2), its end 40 on a 4-page boundary. Pages 4-7 are cached.
        // (mr-xfs512-mounted on 7.2: "10 bios of 64 ... 16384 sectors", the first two 64 and 256)
        return List.of("0+64", "64+256");
    }

    @Override
    List<Integer> plugIssueBatches() {
        // O_DIRECT writes are not plugged (since 6.5), and since 9cbbac29d752 (7.2) __submit_bio holds no plug
        // either: each 256-sector piece's request goes into the disk's mq-deadline and waits for kblockd, which
        // runs when dd sleeps for the write: the eight full requests (none can merge: max_sectors 256) are made
        // first and issued back to back
        return List.of(8);
    }

    @Override
    OptionalLong emptyFlushSectorOnTheDisk() {
        // dm sends the empty flush of a linear table straight to the device (flush_bypasses_map, 6.10+), at
        // sector 0 (README: "an empty flush that dm-linear remaps stays at sector 0")
        return OptionalLong.of(0);
    }
}
