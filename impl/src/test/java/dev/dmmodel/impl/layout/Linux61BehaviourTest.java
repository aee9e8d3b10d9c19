package dev.dmmodel.impl.layout;

import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.OptionalLong;

/**
 * {@link KernelProfile#LINUX_6_1}: the numbers recorded on Debian 12's 6.1.192 ({@code shared/kernel-traces})
 * and the rules its preset documents.
 */
class Linux61BehaviourTest extends AbstractProfileBehaviourTest {
    @Override
    KernelProfile profile() {
        return KernelProfile.LINUX_6_1;
    }

    @Override
    long ahciMaxSectors() {
        // min(max_hw 65535, cap 2560); limits-ahci-lba48 sda: max_sectors_kb 1280
        return 2560;
    }

    @Override
    long ioOptDiskMaxSectors() {
        // sd lowers max_sectors to the optimal transfer length: 458752 / 512 = 896
        // (limits-sd-512e-ioopt448k sdg: max_sectors_kb 448)
        return 896;
    }

    @Override
    long[] ioOptDiskIoMinAndIoOpt() {
        // recorded minimum_io_size 65536, optimal_io_size 458752
        return new long[] {65536, 458752};
    }

    @Override
    long[] stripedChunkSectorsAndIoOpt() {
        // dm-striped leaves chunk_sectors 0; io_opt = 2 x 64 KiB (recorded strdisks: 0, 131072)
        return new long[] {0, 131072};
    }

    @Override
    long[] pool1mMaxSectorsIoMinIoOpt() {
        // stacked max_sectors 896 < block 2048: cut to the largest power of two dividing 2048 below 896, 512;
        // io_opt 458752 is no multiple of 1 MiB and 512 divides the block, so io_min = 512 x 512 = 262144 and
        // io_opt = 1048576 (recorded pool1m: max_sectors_kb 256, 262144, 1048576)
        return new long[] {512, 262144, 1048576};
    }

    @Override
    long[] thin64kDiscardGranularityAndMaxSectors() {
        // granularity = the 64 KiB block; a fixed 16 GiB = 33554432 sectors
        // (recorded thin64k: discard_granularity 65536, discard_max_bytes 17179869184)
        return new long[] {65536, 33554432};
    }

    @Override
    List<String> oneMibDirectWriteAtDm() {
        // built up to BIO_MAX_VECS and split on entry: the whole MiB reaches dm (README: "a 1 MiB O_DIRECT
        // write reaches dm-thin whole (2048 sectors)")
        return List.of("0+2048");
    }

    @Override
    List<String> readaheadBiosWith512ByteBuffers() {
        // mr-xfs512-mounted: with XFS (512-byte sectors) mounted the readahead bios are still multi-page; the
        // trace starts 0+32, 32+64, 96+128 (224 sectors cover the 32 KiB read's window)
        return List.of("0+32", "32+64", "96+128");
    }

    @Override
    List<Integer> plugIssueBatches() {
        // O_DIRECT writes run under the writer's plug, flushed once its newest request reaches 128 KiB: every
        // 256-sector (128 KiB) request sends the one before it; the 7th goes when the 8th is added and the 8th
        // at blk_finish_plug, back to back (README: 6.1 flushes the plug once a request reaches 128 KiB)
        return List.of(1, 1, 1, 1, 1, 1, 2);
    }

    @Override
    OptionalLong emptyFlushSectorOnTheDisk() {
        // linear_map adds the target's offset to every bio, an empty flush too: 8192
        // (kernel-traces-5.10 README: "6.1 adds the linear target's offset (e.g. 8192 for tdata)")
        return OptionalLong.of(8192);
    }
}
