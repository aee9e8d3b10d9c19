package dev.dmmodel.impl.layout;

import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.OptionalLong;

/**
 * {@link KernelProfile#LINUX_5_10}: the numbers recorded on Debian 11's 5.10.223 ({@code shared/kernel-traces-5.10},
 * its README and {@code limits-sd-512e-ioopt448k}) and the rules its preset documents. Where the recordings
 * say "unchanged from 6.1", the numbers are 6.1's, and the comment says which recorded file shows them.
 */
class Linux510BehaviourTest extends AbstractProfileBehaviourTest {
    @Override
    KernelProfile profile() {
        return KernelProfile.LINUX_5_10;
    }

    @Override
    long ahciMaxSectors() {
        // BLK_DEF_MAX_SECTORS 2560 caps the preset's max_hw 65535 (an AHCI disk whose libata allows LBA48
        // transfers; the recorded 5.10 disks kept the 128 KiB bridge limit only because 5.10's libata does not
        // know force=max_sec_lba48, README)
        return 2560;
    }

    @Override
    long ioOptDiskMaxSectors() {
        // sd lowers max_sectors to the optimal transfer length, 458752 / 512 = 896
        // (limits-sd-512e-ioopt448k sdg: max_sectors_kb 448)
        return 896;
    }

    @Override
    long[] ioOptDiskIoMinAndIoOpt() {
        // limits-sd-512e-ioopt448k sdg: minimum_io_size 65536, optimal_io_size 458752
        return new long[] {65536, 458752};
    }

    @Override
    long[] stripedChunkSectorsAndIoOpt() {
        // stripe_io_hints sets no chunk_sectors before 6.12's backport; io_opt 2 x 64 KiB
        // (limits-sd-512e-ioopt448k dm-2, strdisks: chunk_sectors 0, optimal_io_size 131072)
        return new long[] {0, 131072};
    }

    @Override
    long[] pool1mMaxSectorsIoMinIoOpt() {
        // as 6.1: max_sectors 896 is cut to 512 (the largest power of two dividing the 2048-sector block below
        // it), io_min 512 x 512 = 262144, io_opt the block (limits-sd-512e-ioopt448k dm-10, pool1m:
        // max_sectors_kb 256, 262144, 1048576)
        return new long[] {512, 262144, 1048576};
    }

    @Override
    long[] thin64kDiscardGranularityAndMaxSectors() {
        // thin_io_hints: granularity the 64 KiB block, a fixed 16 GiB = 33554432 sectors (before 6.4's bio
        // prison range; limits-sd-512e-ioopt448k dm-7, thin64k: 65536, discard_max_bytes 17179869184)
        return new long[] {65536, 33554432};
    }

    @Override
    List<String> oneMibDirectWriteAtDm() {
        // split on entry since 4.3, built up to BIO_MAX_VECS (256 pages = 1 MiB): the whole MiB reaches dm-0
        return List.of("0+2048");
    }

    @Override
    List<String> readaheadBiosWith512ByteBuffers() {
        // README: mr-xfs512-mounted's bio sizes are unchanged from 6.1, whose trace starts 0+32, 32+64, 96+128
        return List.of("0+32", "32+64", "96+128");
    }

    @Override
    List<Integer> plugIssueBatches() {
        // O_DIRECT writes are plugged (blkdev_write_iter's plug is gone only in 6.5) and a request of
        // BLK_PLUG_FLUSH_SIZE (128 KiB, since 4.10) flushes the plug: each 256-sector request sends the one
        // before it, the 7th goes when the 8th is added and the 8th at blk_finish_plug (the 32-request cap,
        // BLK_MAX_REQUEST_COUNT, is never reached by 8)
        return List.of(1, 1, 1, 1, 1, 1, 2);
    }

    @Override
    OptionalLong emptyFlushSectorOnTheDisk() {
        // README: "Empty flush bios remapped by dm-linear keep sector 0 (FWS 0 + 0 <- (253,1) 0 on the disk)";
        // linear_map moves only bios with data before 5.19
        return OptionalLong.of(0);
    }
}
