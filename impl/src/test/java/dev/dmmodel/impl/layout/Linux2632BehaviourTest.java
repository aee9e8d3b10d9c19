package dev.dmmodel.impl.layout;

import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.OptionalLong;

/** {@link KernelProfile#LINUX_2_6_32}: no recordings; the rules its preset documents (seed 001's era). */
class Linux2632BehaviourTest extends AbstractProfileBehaviourTest {
    @Override
    KernelProfile profile() {
        return KernelProfile.LINUX_2_6_32;
    }

    @Override
    long ahciMaxSectors() {
        // cap 1024 (BLK_DEF_MAX_SECTORS)
        return 1024;
    }

    @Override
    long ioOptDiskMaxSectors() {
        // no optimal-transfer-length rule in sd: min(max_hw, 1024)
        return 1024;
    }

    @Override
    long[] ioOptDiskIoMinAndIoOpt() {
        // I/O topology arrived in 2.6.31: 65536 / 458752 pass through
        return new long[] {65536, 458752};
    }

    @Override
    long[] stripedChunkSectorsAndIoOpt() {
        // no chunk_sectors; stripe_io_hints (2.6.31+): io_opt = 2 x 64 KiB
        return new long[] {0, 131072};
    }

    @Override
    long[] pool1mMaxSectorsIoMinIoOpt() {
        // no dm-thin and so no pool_io_hints: the pool shows what is stacked from its data device,
        // max_sectors 1024, io_min 65536, io_opt 458752
        return new long[] {1024, 65536, 458752};
    }

    @Override
    long[] thin64kDiscardGranularityAndMaxSectors() {
        // no thin discard support (ThinDiscardLimit.NONE), and the disk has none to stack
        return new long[] {0, 0};
    }

    @Override
    List<String> oneMibDirectWriteAtDm() {
        // built to fit the top queue: max_sectors 1024 = 128 pages per bio
        return List.of("0+1024", "1024+1024");
    }

    @Override
    List<String> readaheadBiosWith512ByteBuffers() {
        // seed 001: one bio per 512-byte buffer (block_read_full_page), 224 of them for the 224-sector window
        return oneSectorBios(224);
    }

    @Override
    List<Integer> plugIssueBatches() {
        // the queue is unplugged at 4 requests (unplug_thresh): 4, then the last 4 at unplug
        return List.of(4, 4);
    }

    @Override
    OptionalLong emptyFlushSectorOnTheDisk() {
        // empty barriers are cloned to each target and linear_map_bio leaves bios without data at sector 0
        return OptionalLong.of(0);
    }
}
