package dev.dmmodel.impl.lvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.lvm.LvmVersion;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.units.Sectors;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * pe_start and mda sizes: the rows of lvm2-semantics.md §1.4 and §1.5. Sizes in the notes are in KiB;
 * each expectation is also given in sectors (1 KiB = 2 sectors).
 */
class PvCreateTest {

    /** 1 GiB, the device size §9 names for the verified --pvmetadatacopies 2 case; pe_start does not depend on it. */
    static final Sectors ONE_GIB = Sectors.of(2_097_152);

    static final PvCreateOptions DEFAULTS = PvCreateOptions.DEFAULTS;

    static PhysicalVolume create(PvTopology topo, PvCreateOptions opts) {
        return PvCreate.pvcreate("sdb", ONE_GIB, topo, opts);
    }

    static PhysicalVolume create(PvCreateOptions opts) {
        return create(PvTopology.PLAIN, opts);
    }

    static PvTopology hints(long ioMin, long ioOpt, long alignmentOffset) {
        return new PvTopology(ioMin, ioOpt, alignmentOffset, 512, 4096, 0);
    }

    @Nested
    class Lvm203TableRows {

        @Test
        void defaultsGiveOneMibAndA1020KibMetadataArea() {
            PhysicalVolume pv = create(DEFAULTS);
            assertThat(pv.peStart()).isEqualTo(Sectors.of(2048)); // 1 MiB
            assertThat(pv.mdaSize()).isEqualTo(Sectors.of(2040)); // 1020 KiB
            assertThat(pv.mda1Size()).isEqualTo(Sectors.ZERO);
        }

        @Test
        void returnsAnOrphan() {
            PhysicalVolume pv = create(DEFAULTS);
            assertThat(pv.device()).isEqualTo("sdb");
            assertThat(pv.devSize()).isEqualTo(ONE_GIB);
            assertThat(pv.isOrphan()).isTrue();
            assertThat(pv.vgName()).isEmpty();
            assertThat(pv.peCount()).isZero();
            assertThat(pv.extentSize()).isEqualTo(Sectors.ZERO);
        }

        @Test
        void metadataSize100kIsRoundedUpToTheMib() {
            PhysicalVolume pv = create(DEFAULTS.withMetadataSize(Sectors.of(200))); // 100 KiB
            assertThat(pv.peStart()).isEqualTo(Sectors.of(2048)); // 1 MiB
            assertThat(pv.mdaSize()).isEqualTo(Sectors.of(2040)); // 1020 KiB
        }

        @Test
        void metadataSize2044kEndsExactlyAtTwoMib() {
            PhysicalVolume pv = create(DEFAULTS.withMetadataSize(Sectors.of(4088))); // 2044 KiB
            assertThat(pv.peStart()).isEqualTo(Sectors.of(4096)); // 2048 KiB
            assertThat(pv.mdaSize()).isEqualTo(Sectors.of(4088)); // 2044 KiB
        }

        @Test
        void metadataSize2048kSpillsIntoTheThirdMib() {
            PhysicalVolume pv = create(DEFAULTS.withMetadataSize(Sectors.of(4096))); // 2048 KiB
            assertThat(pv.peStart()).isEqualTo(Sectors.of(6144)); // 3072 KiB
            assertThat(pv.mdaSize()).isEqualTo(Sectors.of(6136)); // 3068 KiB
        }

        @Test
        void defaultDataAlignmentTwoMib() {
            PhysicalVolume pv = create(DEFAULTS.withMetadataSize(Sectors.of(4096)).withDefaultDataAlignmentMib(2));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(8192)); // 4 MiB
            assertThat(pv.mdaSize()).isEqualTo(Sectors.of(8184)); // 4092 KiB
        }

        @Test
        void defaultDataAlignmentZeroIsTreatedAsOneMib() {
            PhysicalVolume pv = create(DEFAULTS.withDefaultDataAlignmentMib(0));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(2048)); // 1 MiB (since 2.03.03)
        }

        @Test
        void dataAlignment128kWithMetadata2048k() {
            PhysicalVolume pv = create(DEFAULTS.withMetadataSize(Sectors.of(4096)).withDataAlignment(Sectors.of(256)));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(4352)); // 2176 KiB
            assertThat(pv.mdaSize()).isEqualTo(Sectors.of(4344)); // 2172 KiB
        }

        @Test
        void dataAlignment128kMetadata2048kAndOffset2k() {
            PhysicalVolume pv = create(DEFAULTS.withMetadataSize(Sectors.of(4096)).withDataAlignment(Sectors.of(256))
                    .withDataAlignmentOffset(Sectors.of(4)));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(4356)); // 2178 KiB
            assertThat(pv.mdaSize()).isEqualTo(Sectors.of(4348)); // 2174 KiB
        }

        @Test
        void dataAlignment128kWithMetadata256k() {
            PhysicalVolume pv = create(DEFAULTS.withDataAlignment(Sectors.of(256)).withMetadataSize(Sectors.of(512)));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(768)); // 384 KiB
            assertThat(pv.mdaSize()).isEqualTo(Sectors.of(760)); // 380 KiB
        }

        @Test
        void dataAlignment64kWithMetadata128k() {
            PhysicalVolume pv = create(DEFAULTS.withDataAlignment(Sectors.of(128)).withMetadataSize(Sectors.of(256)));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(384)); // 192 KiB
            assertThat(pv.mdaSize()).isEqualTo(Sectors.of(376)); // 188 KiB
        }

        @Test
        void metadataAndDataAlignment100k() {
            PhysicalVolume pv = create(DEFAULTS.withMetadataSize(Sectors.of(200)).withDataAlignment(Sectors.of(200)));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(400)); // 200 KiB
        }

        @Test
        void dataAlignmentThreeAndAHalfKib() {
            // 4096 + 128 KiB = 135168 B; the next multiple of 3584 B is 38 x 3584 = 136192 B = 133 KiB
            PhysicalVolume pv = create(DEFAULTS.withMetadataSize(Sectors.of(256)).withDataAlignment(Sectors.of(7)));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(266)); // 133 KiB
        }

        @Test
        void dataAlignmentOffsetSevenSectors() {
            PhysicalVolume pv = create(DEFAULTS.withMetadataSize(Sectors.of(256)).withDataAlignmentOffset(Sectors.of(7)));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(2055)); // 1 MiB + 3584 B
        }

        @Test
        void noMetadataCopyStartsAtAlignPlusOffset() {
            PhysicalVolume pv = create(DEFAULTS.withMetadataCopies(0));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(2048)); // align + offset = 1 MiB
            assertThat(pv.mdaSize()).isEqualTo(Sectors.ZERO);
            assertThat(pv.mda1Size()).isEqualTo(Sectors.ZERO);
        }

        @Test
        void optimalIoSize768kWithMetadata255s() {
            // io_opt 768 KiB = 1536 s does not divide 2048 s, so it replaces the alignment; 4096 + 255 x 512 B
            // rounds up to 786432 B
            PhysicalVolume pv = create(hints(0, 786_432, 0), DEFAULTS.withMetadataSize(Sectors.of(255)));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(1536)); // 768 KiB
        }

        @Test
        void oddOptimalIoSizeIsIgnored() {
            // 32767 sectors is not a multiple of 8: it becomes 8 sectors, which divides 1 MiB
            PhysicalVolume pv = create(hints(0, 32_767L * 512, 0), DEFAULTS);
            assertThat(pv.peStart()).isEqualTo(Sectors.of(2048)); // 1 MiB
        }

        @Test
        void mdRaid0OfTwoOneMibChunks() {
            // stripe width 2 x 1 MiB = 4096 s does not divide 2048 s; io_min (chunk) and io_opt divide 4096 s
            PvTopology md = new PvTopology(1_048_576, 2_097_152, 0, 512, 4096, 4096);
            assertThat(create(md, DEFAULTS).peStart()).isEqualTo(Sectors.of(4096)); // 2 MiB
        }

        @Test
        void partitionAlignmentOffsetIsAdded() {
            // 1 MiB + X with X = 33280 B = 65 s (the value recorded for a partition at sector 63)
            PhysicalVolume pv = create(hints(0, 0, 33_280), DEFAULTS);
            assertThat(pv.peStart()).isEqualTo(Sectors.of(2113));
            assertThat(pv.mdaSize()).isEqualTo(Sectors.of(2105)); // 2113 - 8 (mda0 starts at 4096 B)
        }

        @Test
        void twoCopiesPutMda1AtTheEndAlignedDownToTheMib() {
            // §9: on 1 GiB the second area is {1072693248, 1048576}: start 1 GiB - 1 MiB, size 1 MiB = 2048 s
            PhysicalVolume pv = create(DEFAULTS.withMetadataCopies(2));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(2048));
            assertThat(pv.mdaSize()).isEqualTo(Sectors.of(2040));
            assertThat(pv.mda1Size()).isEqualTo(Sectors.of(2048));
        }
    }

    @Nested
    class Detection {

        @Test
        void misalignedAlignmentOffsetCountsAsZero() {
            assertThat(create(hints(0, 0, -1), DEFAULTS).peStart()).isEqualTo(Sectors.of(2048));
        }

        @Test
        void alignmentDetectionOffIgnoresOptimalIoSize() {
            PhysicalVolume pv = create(hints(0, 786_432, 0), DEFAULTS.withMetadataSize(Sectors.of(255))
                    .withDetection(false, true));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(2048)); // the default 1 MiB stays
        }

        @Test
        void offsetDetectionOffIgnoresAlignmentOffset() {
            PhysicalVolume pv = create(hints(0, 0, 33_280), DEFAULTS.withDetection(true, false));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(2048));
        }

        @Test
        void explicitDataAlignmentReplacesDetection() {
            // --dataalignment 1m on the recorded RAID disk: no detection, so 2048 and not 2688
            PhysicalVolume pv = create(hints(65_536, 458_752, 0), DEFAULTS.withDataAlignment(Sectors.of(2048)));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(2048));
        }

        @Test
        void explicitDataAlignmentOffsetReplacesTheDetectedOne() {
            // 1 MiB + --dataalignmentoffset 7s, whatever sysfs says
            PhysicalVolume pv = create(hints(0, 0, 33_280), DEFAULTS.withDataAlignmentOffset(Sectors.of(7)));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(2055));
        }

        @Test
        void minimumIoSizeReplacesTheDefaultNotLcm() {
            // io_min 64 KiB divides 1 MiB and stays out; io_opt 448 KiB = 896 s does not and replaces 2048:
            // 4096 + 1044480 = 1048576 B rounds up to 3 x 458752 = 1376256 B = 2688 s (not lcm(2048, 896))
            assertThat(create(hints(65_536, 458_752, 0), DEFAULTS).peStart()).isEqualTo(Sectors.of(2688));
        }

        @Test
        void largerPagesShrinkTheDefaultMetadataSize() {
            // 64 KiB pages: default metadata 1 MiB - 64 KiB = 1920 s, starting at 65536 B, ending at 1 MiB
            PvTopology arm64k = new PvTopology(0, 0, 0, 512, 65_536, 0);
            PhysicalVolume pv = create(arm64k, DEFAULTS);
            assertThat(pv.mdaSize()).isEqualTo(Sectors.of(1920));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(2048));
        }
    }

    @Nested
    class Legacy200 {

        static final PvCreateOptions LEGACY = PvCreateOptions.LEGACY_2_00;

        @Test
        void defaultIs384Sectors() {
            // 2048 + 255 x 512 = 132608 B, rounded up to 64 KiB: 196608 B = 384 s; mda0 194560 B = 380 s
            PhysicalVolume pv = create(LEGACY);
            assertThat(pv.peStart()).isEqualTo(Sectors.of(384));
            assertThat(pv.mdaSize()).isEqualTo(Sectors.of(380));
            assertThat(pv.isOrphan()).isTrue();
        }

        @Test
        void noMetadataCopyStartsAtPeAlign() {
            PhysicalVolume pv = create(LEGACY.withMetadataCopies(0));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(128)); // PE_ALIGN, 64 KiB
            assertThat(pv.mdaSize()).isEqualTo(Sectors.ZERO);
        }

        @Test
        void topologyIsNotDetected() {
            assertThat(create(hints(65_536, 458_752, 33_280), LEGACY).peStart()).isEqualTo(Sectors.of(384));
        }

        @Test
        void secondCopyStartsOnA64KibBoundary() {
            // 255 s = 130560 B at the end of 1 GiB starts 512 B past a 64 KiB boundary; grown by 512 B: 256 s
            PhysicalVolume pv = create(LEGACY.withMetadataCopies(2));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(384));
            assertThat(pv.mda1Size()).isEqualTo(Sectors.of(256));
        }

        @Test
        void metadataSizeRoundsUpTo64Kib() {
            // 2048 + 128 KiB = 133120 B -> 196608 B = 384 s
            assertThat(create(LEGACY.withMetadataSize(Sectors.of(256))).peStart()).isEqualTo(Sectors.of(384));
        }

        @Test
        void minimumSizeIs512Kib() {
            // LVM2 2.00: PV_MIN_SIZE = 512 KiB = 1024 s
            assertThatThrownBy(() -> PvCreate.pvcreate("sdb", Sectors.of(1023), PvTopology.PLAIN, LEGACY))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("sdb: Size must exceed minimum of 1024 sectors.");
            assertThat(PvCreate.pvcreate("sdb", Sectors.of(1024), PvTopology.PLAIN, LEGACY).peStart())
                    .isEqualTo(Sectors.of(384));
        }

        @Test
        void hasNoDataAlignmentOption() {
            assertThatThrownBy(() -> create(LEGACY.withDataAlignment(Sectors.of(128))))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("LVM2 2.00 pvcreate has no --dataalignment or --dataalignmentoffset option.");
        }

        @Test
        void metadataThatCannotFitIsRefused() {
            // 1024 s device, 1023 s metadata: 2048 + 523776 B rounds up to 589824 B, past the 524288 B device
            assertThatThrownBy(() -> PvCreate.pvcreate("sdb", Sectors.of(1024), PvTopology.PLAIN,
                    LEGACY.withMetadataSize(Sectors.of(1023))))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("Not enough space available for metadata area with index 0 on PV sdb.");
        }

        @Test
        void noRoomLeftForTheSecondCopy() {
            // 1024 s device, 1020 s metadata: mda0 ends at 2048 + 522240 = 524288 B, the device end
            assertThatThrownBy(() -> PvCreate.pvcreate("sdb", Sectors.of(1024), PvTopology.PLAIN,
                    LEGACY.withMetadataSize(Sectors.of(1020)).withMetadataCopies(2)))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("Not enough space available for metadata area with index 1 on PV sdb.");
        }

        @Test
        void metadataLargerThanTheDiskShrinksToOneCopy() {
            // 2.00 _mda_setup: a 1 MiB area on a 512 KiB device becomes 524288 - 2048 - 2 x 65536 = 391168 B,
            // ending at 393216 B = 768 s (a 64 KiB multiple), and only one copy is made
            PhysicalVolume pv = PvCreate.pvcreate("sdb", Sectors.of(1024), PvTopology.PLAIN,
                    LEGACY.withMetadataSize(Sectors.of(2048)).withMetadataCopies(2));
            assertThat(pv.peStart()).isEqualTo(Sectors.of(768));
            assertThat(pv.mdaSize()).isEqualTo(Sectors.of(764));
            assertThat(pv.mda1Size()).isEqualTo(Sectors.ZERO);
        }

        @Test
        void versionSwitchUsesTheLegacyRules() {
            assertThat(create(DEFAULTS.withVersion(LvmVersion.LVM2_2_00)).peStart()).isEqualTo(Sectors.of(384));
        }
    }

    @Nested
    class Refusals {

        @Test
        void deviceBelowTheMinimumSize() {
            assertThatThrownBy(() -> PvCreate.pvcreate("sdb", Sectors.of(4095), PvTopology.PLAIN, DEFAULTS))
                    .isInstanceOfSatisfying(LayoutException.class, e -> {
                        assertThat(e).hasMessage("sdb: Size must exceed minimum of 4096 sectors.");
                        assertThat(e.device()).isEqualTo("sdb");
                        assertThat(e.field()).isEqualTo("dev_size");
                        assertThat(e.value()).isEqualTo("4095s");
                    });
        }

        @Test
        void deviceOfExactlyTheMinimumSizeIsAccepted() {
            assertThat(PvCreate.pvcreate("sdb", Sectors.of(4096), PvTopology.PLAIN, DEFAULTS).peStart())
                    .isEqualTo(Sectors.of(2048));
        }

        @Test
        void dataAlignmentBeyondTheDevice() {
            // --dataalignment 4m = 8192 s on a 4096 s device
            assertThatThrownBy(() -> PvCreate.pvcreate("sdb", Sectors.of(4096), PvTopology.PLAIN,
                    DEFAULTS.withDataAlignment(Sectors.of(8192))))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("sdb: Data alignment must not exceed device size.");
        }

        @Test
        void offsetLargerThanAlignment() {
            assertThatThrownBy(() -> create(DEFAULTS.withDataAlignment(Sectors.of(128))
                    .withDataAlignmentOffset(Sectors.of(256))))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("sdb: pe_align (128 sectors) must not be less than pe_align_offset (256 sectors)");
        }

        @Test
        void metadataAreaBelow32Kib() {
            // --dataalignment 4k --metadatasize 16k: 4096 + 16384 B is already 4 KiB-aligned, so the area stays
            // 16384 B, under MDA_SIZE_MIN = 8 pages = 32768 B
            assertThatThrownBy(() -> create(DEFAULTS.withDataAlignment(Sectors.of(8)).withMetadataSize(Sectors.of(32))))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("Metadata area size too small: 16384 bytes. It must be at least 32768 bytes.");
        }

        @Test
        void smallMetadataSizeIsGrownByAlignmentAndAccepted() {
            // --metadatasize 16k with the default 1 MiB alignment: the end rounds up to 1 MiB, 1020 KiB
            assertThat(create(DEFAULTS.withMetadataSize(Sectors.of(32))).mdaSize()).isEqualTo(Sectors.of(2040));
        }

        @Test
        void noRoomForTheSecondMetadataArea() {
            // 4096 s device, --metadatasize 2044k: mda0 ends at 2 MiB = the device end, so mda1 has no room
            assertThatThrownBy(() -> PvCreate.pvcreate("sdb", Sectors.of(4096), PvTopology.PLAIN,
                    DEFAULTS.withMetadataSize(Sectors.of(4088)).withMetadataCopies(2)))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("Not enough space available for metadata area with index 1 on PV sdb.");
        }
    }

    @Nested
    class Topology {

        @Test
        void rejectsNegativeIoSizes() {
            assertThatThrownBy(() -> new PvTopology(-1, 0, 0, 512, 4096, 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("must not be negative");
        }

        @Test
        void rejectsAlignmentOffsetBelowMinusOne() {
            assertThatThrownBy(() -> new PvTopology(0, 0, -2, 512, 4096, 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("alignment_offset (-2) must be -1 (misaligned) or a byte offset");
        }

        @Test
        void rejectsOddBlockAndPageSizes() {
            assertThatThrownBy(() -> new PvTopology(0, 0, 0, 1000, 4096, 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("logical_block_size (1000) must be a power of two of at least 512 bytes");
            assertThatThrownBy(() -> new PvTopology(0, 0, 0, 512, 2048, 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("page size (2048) must be a power of two of at least 4096 bytes");
            assertThatThrownBy(() -> new PvTopology(0, 0, 0, 512, 4096, -8))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("MD stripe width (-8) must not be negative");
        }
    }
}
