package dev.dmmodel.impl.layout;

import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.OptionalLong;

/** {@link KernelProfile#LINUX_3_10}: no recordings; the rules its preset documents (seed 004's era). */
class Linux310BehaviourTest extends AbstractProfileBehaviourTest {
    @Override
    KernelProfile profile() {
        return KernelProfile.LINUX_3_10;
    }

    @Override
    long ahciMaxSectors() {
        // BLK_DEF_MAX_SECTORS 1024 caps max_hw 65535
        return 1024;
    }

    @Override
    long ioOptDiskMaxSectors() {
        // sd does not use the optimal transfer length yet: min(max_hw, 1024)
        return 1024;
    }

    @Override
    long[] ioOptDiskIoMinAndIoOpt() {
        // I/O topology (2.6.31+) passes the disk's 65536 / 458752 through
        return new long[] {65536, 458752};
    }

    @Override
    long[] stripedChunkSectorsAndIoOpt() {
        // no chunk_sectors before 3.16; stripe_io_hints: io_opt = 2 x 64 KiB
        return new long[] {0, 131072};
    }

    @Override
    long[] pool1mMaxSectorsIoMinIoOpt() {
        // pool_io_hints only resets io_min (to the 4 KiB physical block) and sets io_opt to the block
        // (1048576); max_sectors stays the stacked 1024
        return new long[] {1024, 4096, 1048576};
    }

    @Override
    long[] thin64kDiscardGranularityAndMaxSectors() {
        // set_discard_limits: one pool block per discard, 128 sectors; granularity the block (no passdown:
        // the data disk has no discard)
        return new long[] {65536, 128};
    }

    @Override
    List<String> oneMibDirectWriteAtDm() {
        // bios are built to fit the top queue: max_sectors 1024 stops bio_add_page at 128 pages
        // (nr_vecs = min(168, 1024 / 8 + 1, 256) = 129), so two bios of 1024
        return List.of("0+1024", "1024+1024");
    }

    @Override
    List<String> readaheadBiosWith512ByteBuffers() {
        // block_read_full_page: one bio per 512-byte buffer over the same 224-sector window (32 + 64 + 128)
        return oneSectorBios(224);
    }

    @Override
    List<Integer> plugIssueBatches() {
        // a plug holds 16 requests (BLK_MAX_REQUEST_COUNT) and has no 128 KiB rule: all 8 go at unplug
        return List.of(8);
    }

    @Override
    OptionalLong emptyFlushSectorOnTheDisk() {
        // linear_map_bio remaps only bios with data (if (bio_sectors(bio))): the flush stays at 0
        return OptionalLong.of(0);
    }
}
