package dev.dmmodel.impl.layout;

import dev.dmmodel.limits.KernelProfile;
import java.util.List;
import java.util.OptionalLong;

/** {@link KernelProfile#LINUX_2_6_0}: no recordings; the rules its preset documents (seeds 000 and 003). */
class Linux260BehaviourTest extends AbstractProfileBehaviourTest {
    @Override
    KernelProfile profile() {
        return KernelProfile.LINUX_2_6_0;
    }

    @Override
    long ahciMaxSectors() {
        // MAX_SECTORS 255 is the soft limit
        return 255;
    }

    @Override
    long ioOptDiskMaxSectors() {
        // min(max_hw, 255)
        return 255;
    }

    @Override
    long[] ioOptDiskIoMinAndIoOpt() {
        // no I/O topology: io_min is the 4 KiB physical block, no io_opt
        return new long[] {4096, 0};
    }

    @Override
    long[] stripedChunkSectorsAndIoOpt() {
        // no chunk_sectors and no topology hints
        return new long[] {0, 0};
    }

    @Override
    long[] pool1mMaxSectorsIoMinIoOpt() {
        // no dm-thin: the stacked 255, io_min 4096 (the physical block), no io_opt
        return new long[] {255, 4096, 0};
    }

    @Override
    long[] thin64kDiscardGranularityAndMaxSectors() {
        // no thin discard support
        return new long[] {0, 0};
    }

    @Override
    List<String> oneMibDirectWriteAtDm() {
        // built to fit max_sectors 255: bio_add_page refuses the 32nd page (256 > 255), so 31 pages = 248
        // sectors a bio; 2048 = 8 x 248 + 64
        return List.of("0+248", "248+248", "496+248", "744+248", "992+248", "1240+248", "1488+248", "1736+248",
                "1984+64");
    }

    @Override
    List<String> readaheadBiosWith512ByteBuffers() {
        // one bio per 512-byte buffer over the 224-sector window
        return oneSectorBios(224);
    }

    @Override
    List<Integer> plugIssueBatches() {
        // unplug_thresh 4: 4, then the last 4 at unplug (seed 000's era)
        return List.of(4, 4);
    }

    @Override
    OptionalLong emptyFlushSectorOnTheDisk() {
        // no empty flush bios: barriers rode on data bios
        return OptionalLong.empty();
    }
}
