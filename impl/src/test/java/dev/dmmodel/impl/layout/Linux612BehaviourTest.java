package dev.dmmodel.impl.layout;

import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.OptionalLong;

/**
 * {@link KernelProfile#LINUX_6_12}: the numbers recorded on Debian 12's 6.12.117
 * ({@code shared/kernel-traces-6.12}) and the rules its preset documents.
 */
class Linux612BehaviourTest extends AbstractProfileBehaviourTest {
    @Override
    KernelProfile profile() {
        return KernelProfile.LINUX_6_12;
    }

    @Override
    long ahciMaxSectors() {
        // min(max_hw 65535, cap 2560); limits-ahci-lba48 (6.12) sda: max_sectors_kb 1280
        return 2560;
    }

    @Override
    long ioOptDiskMaxSectors() {
        // sd no longer lowers max_sectors to io_opt: limits-sd-512e-ioopt448k (6.12) sdg: max_sectors_kb 1280
        return 2560;
    }

    @Override
    long[] ioOptDiskIoMinAndIoOpt() {
        // recorded minimum_io_size 65536, optimal_io_size 458752
        return new long[] {65536, 458752};
    }

    @Override
    long[] stripedChunkSectorsAndIoOpt() {
        // dm-striped sets chunk_sectors to its 128-sector chunk; io_opt = 2 stripes x 64 KiB = 131072
        // (limits-sd-512e-ioopt448k (6.12) strdisks: chunk_sectors 128, optimal_io_size 131072)
        return new long[] {128, 131072};
    }

    @Override
    long[] pool1mMaxSectorsIoMinIoOpt() {
        // max_sectors 2560 is not below the 2048-sector block, so pool_io_hints does not cut it (and
        // blk_validate_limits would recompute it anyway); io_opt 458752 is no multiple of 1 MiB, and 2560
        // does not divide 2048, so io_min = io_opt = the block, 1048576
        // (recorded pool1m: max_sectors_kb 1280, minimum_io_size 1048576, optimal_io_size 1048576)
        return new long[] {2560, 1048576, 1048576};
    }

    @Override
    long[] thin64kDiscardGranularityAndMaxSectors() {
        // granularity = the 64 KiB block; max = 1024 x 128 sectors = 131072 sectors
        // (recorded thin64k: discard_granularity 65536, discard_max_bytes 67108864 = 131072 x 512)
        return new long[] {65536, 131072};
    }

    @Override
    List<String> oneMibDirectWriteAtDm() {
        // since 4.3 a bio is built up to BIO_MAX_VECS (256 pages = 2048 sectors) and split only by the queues
        // it enters: dm-linear sees the whole MiB (the 6.12 thin-b2048 cases: 2048 sectors at the thin device)
        return List.of("0+2048");
    }

    @Override
    List<String> readaheadBiosWith512ByteBuffers() {
        // mpage readahead, multi-page bios whatever the soft block size: the ondemand window of a 2-page read
        // starts at 4 pages and doubles (32, 64, 128 sectors = 224 for the 32 KiB read); readahead is
        // unchanged from 6.1, whose mr-xfs512-mounted trace starts 0+32, 32+64, 96+128
        return List.of("0+32", "32+64", "96+128");
    }

    @Override
    List<Integer> plugIssueBatches() {
        // O_DIRECT writes are not plugged since 6.5: each 256-sector piece of the split bio is issued as soon
        // as its request is made (recorded: pieces below dm go out one request each)
        return List.of(1, 1, 1, 1, 1, 1, 1, 1);
    }

    @Override
    OptionalLong emptyFlushSectorOnTheDisk() {
        // 6.10+: dm sends the empty flush of a linear table straight to the device (flush_bypasses_map), at
        // sector 0 (kernel-traces-5.10 and -7.2 READMEs: "6.12 also shows 0")
        return OptionalLong.of(0);
    }
}
