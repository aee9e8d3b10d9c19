package dev.dmmodel.impl.lvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.impl.lvm.ExtentAllocator.Pass;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.ExtentRange;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** lvcreate and the extent allocator: lvm2-semantics.md §3.3, §3.4, §4.5 and the §8 messages. */
class LvAllocatorTest {

    static final Sectors EXTENT = Sectors.of(8192); // 4 MiB, the default

    /** A PV already in VG "vg" with {@code peCount} 4 MiB extents after a 1 MiB pe_start. */
    static PhysicalVolume member(String device, long peCount) {
        Sectors dev = Sectors.of(2048 + peCount * 8192);
        return new PhysicalVolume(device, dev, Sectors.of(2048), Sectors.of(2040), Sectors.ZERO, "vg", peCount, EXTENT);
    }

    static LogicalVolume linear(String name, String pv, long pe, long count) {
        return new LogicalVolume("vg", name, List.of(new LvSegment(0, count, Sectors.ZERO,
                List.of(new StripeArea(pv, pe)))), "dm-9");
    }

    static VolumeGroup vg(AllocationPolicy policy, List<LogicalVolume> lvs, PhysicalVolume... pvs) {
        return new VolumeGroup("vg", EXTENT, List.of(pvs), lvs, policy);
    }

    static VolumeGroup vg(PhysicalVolume... pvs) {
        return vg(AllocationPolicy.NORMAL, List.of(), pvs);
    }

    /** One PV of 255 extents whose free runs are PE 50-99 (50) and 150-254 (105), §3.4's example. */
    static VolumeGroup holes(AllocationPolicy policy) {
        return vg(policy, List.of(linear("a", "sdb", 0, 50), linear("b", "sdb", 100, 50)), member("sdb", 255));
    }

    static LogicalVolume create(VolumeGroup vg, LvCreateRequest req) {
        return LvAllocator.lvcreate(vg, req, "dm-5").logicalVolume(req.name()).orElseThrow();
    }

    static LvCreateRequest.Builder lv(String name) {
        return LvCreateRequest.builder(name);
    }

    static LvSegment seg(long le, long count, long stripeSize, StripeArea... areas) {
        return new LvSegment(le, count, Sectors.of(stripeSize), List.of(areas));
    }

    static StripeArea at(String pv, long pe) {
        return new StripeArea(pv, pe);
    }

    static void refused(VolumeGroup vg, LvCreateRequest req, String message) {
        assertThatThrownBy(() -> LvAllocator.lvcreate(vg, req, "dm-5"))
                .isInstanceOf(LayoutException.class)
                .hasMessage(message);
    }

    @Nested
    class WorkedAllocations {

        @Test
        void twoPvsOfOneHundredAndL150() {
            LogicalVolume lv = create(vg(member("sdb", 100), member("sdc", 100)), lv("lv").extents(150).build());
            assertThat(lv.segments()).containsExactly(seg(0, 100, 0, at("sdb", 0)), seg(100, 50, 0, at("sdc", 0)));
            assertThat(lv.vgName()).isEqualTo("vg");
            assertThat(lv.dmDevice()).isEqualTo("dm-5");
        }

        @Test
        void sixtyGoesToTheOnlyHoleThatFits() {
            LogicalVolume lv = create(holes(AllocationPolicy.NORMAL), lv("lv").extents(60).build());
            assertThat(lv.segments()).containsExactly(seg(0, 60, 0, at("sdb", 150))); // 150-209
        }

        @Test
        void fortyGoesToTheBestFit() {
            LogicalVolume lv = create(holes(AllocationPolicy.NORMAL), lv("lv").extents(40).build());
            assertThat(lv.segments()).containsExactly(seg(0, 40, 0, at("sdb", 50))); // 50-89
        }

        @Test
        void oneHundredThirtyTakesTheLargestThenTheRest() {
            LogicalVolume lv = create(holes(AllocationPolicy.NORMAL), lv("lv").extents(130).build());
            // 150-254, then 50-74
            assertThat(lv.segments()).containsExactly(seg(0, 105, 0, at("sdb", 150)), seg(105, 25, 0, at("sdb", 50)));
        }

        @Test
        void contiguousNeverSplits() {
            refused(holes(AllocationPolicy.NORMAL), lv("tc").extents(130).policy(AllocationPolicy.CONTIGUOUS).build(),
                    "Insufficient suitable contiguous allocatable extents for logical volume tc: 130 more required");
        }

        @Test
        void contiguousThatFitsIsPlaced() {
            LogicalVolume lv = create(holes(AllocationPolicy.NORMAL),
                    lv("tc").extents(60).policy(AllocationPolicy.CONTIGUOUS).build());
            assertThat(lv.segments()).containsExactly(seg(0, 60, 0, at("sdb", 150)));
        }

        @Test
        void inheritTakesTheVgPolicy() {
            refused(holes(AllocationPolicy.CONTIGUOUS), lv("tc").extents(130).build(),
                    "Insufficient suitable contiguous allocatable extents for logical volume tc: 130 more required");
        }

        @Test
        void section45RootAndStripedData() {
            // two 10 GiB disks, default pvcreate and vgcreate: 2559 extents each
            Sectors tenGib = Sectors.of(20_971_520);
            PhysicalVolume sdb = PvCreate.pvcreate("sdb", tenGib, PvTopology.PLAIN, PvCreateOptions.DEFAULTS);
            PhysicalVolume sdc = PvCreate.pvcreate("sdc", tenGib, PvTopology.PLAIN, PvCreateOptions.DEFAULTS);
            VolumeGroup vg = VgCreate.vgcreate("vg0", VgCreateOptions.DEFAULTS, List.of(sdb, sdc),
                    Map.of("sdb", 512L, "sdc", 512L));

            vg = LvAllocator.lvcreate(vg, lv("root").size("5G").build(), "dm-0");
            LogicalVolume root = vg.logicalVolume("root").orElseThrow();
            assertThat(root.segments()).containsExactly(seg(0, 1280, 0, at("sdb", 0))); // pv0:0-1279

            vg = LvAllocator.lvcreate(vg, lv("data").stripes(2).stripeSize(Bytes.kib(64)).size("2G").build(), "dm-1");
            LogicalVolume data = vg.logicalVolume("data").orElseThrow();
            // 2 GiB = 512 extents, 256 per stripe: pv0 from 1280, pv1 from 0; stripe size 64 KiB = 128 s
            assertThat(data.segments()).containsExactly(seg(0, 512, 128, at("sdb", 1280), at("sdc", 0)));
            assertThat(data.extentCount()).isEqualTo(512);
            assertThat(vg.logicalVolumes()).extracting(LogicalVolume::name).containsExactly("root", "data");
            assertThat(vg.freeCount()).isEqualTo(5118 - 1280 - 512);
        }
    }

    @Nested
    class Policies {

        @Test
        void pvOrderOnTheCommandLineBreaksTies() {
            // both PVs offer 100: the first listed wins, then the rest goes to the other
            LogicalVolume lv = create(vg(member("sdb", 100), member("sdc", 100)),
                    lv("lv").extents(150).onPvs("sdc", "sdb").build());
            assertThat(lv.segments()).containsExactly(seg(0, 100, 0, at("sdc", 0)), seg(100, 50, 0, at("sdb", 0)));
        }

        @Test
        void laterPassesPreferThePvsAlreadyUsed() {
            // sdc free 0-49 (50); sdb free 0-99 (100) and 200-229 (30). -l 120: the first pass takes the
            // largest run, sdb:0-99; the 20 left go to sdb's other run (maximise_cling) although sdc, first in
            // VG order, offers a run that fits as well
            VolumeGroup vg = vg(AllocationPolicy.NORMAL, List.of(linear("x", "sdb", 100, 100)),
                    member("sdc", 50), member("sdb", 230));
            LogicalVolume lv = create(vg, lv("lv").extents(120).build());
            assertThat(lv.segments()).containsExactly(seg(0, 100, 0, at("sdb", 0)), seg(100, 20, 0, at("sdb", 200)));
        }

        @Test
        void whenTheUsedPvsAreFullOtherPvsAreUsed() {
            // sdb free 0-49 and 150-199 (50 each), sdc free 0-69 (70); -l 120: sdc's 70 (largest) first; sdc is
            // then full, so the remaining 50 come from sdb, whose two equal runs both fit: the later one in the
            // list (after the reordering of the previous pass) replaces the earlier, which is PE 0
            VolumeGroup vg = vg(AllocationPolicy.NORMAL, List.of(linear("x", "sdb", 50, 100)),
                    member("sdb", 200), member("sdc", 70));
            LogicalVolume lv = create(vg, lv("lv").extents(120).build());
            assertThat(lv.segments()).containsExactly(seg(0, 70, 0, at("sdc", 0)), seg(70, 50, 0, at("sdb", 0)));
        }

        @Test
        void clingStaysOnUsedPvsAndFailsWhenTheyAreFull() {
            // cling: after sdb:0-99 only sdb may be used, and it is full
            refused(vg(member("sdb", 100), member("sdc", 100)),
                    lv("lv").extents(150).policy(AllocationPolicy.CLING).build(),
                    "Insufficient suitable allocatable extents for logical volume lv: 50 more required");
        }

        @Test
        void clingUsesFurtherRunsOfTheSamePv() {
            LogicalVolume lv = create(holes(AllocationPolicy.NORMAL),
                    lv("lv").extents(130).policy(AllocationPolicy.CLING).build());
            assertThat(lv.segments()).containsExactly(seg(0, 105, 0, at("sdb", 150)), seg(105, 25, 0, at("sdb", 50)));
        }

        @Test
        void anywherePutsTwoStripesOnOnePv() {
            // one PV, 100 free: no two PVs, so only --alloc anywhere can stripe; it reserves 50 of the run
            // for the first stripe, comes back for the other 50, and consumes them from the lowest PE up
            LogicalVolume lv = create(vg(member("sdb", 100)),
                    lv("lv").extents(100).stripes(2).policy(AllocationPolicy.ANYWHERE).build());
            assertThat(lv.segments()).containsExactly(seg(0, 100, 128, at("sdb", 0), at("sdb", 50)));
        }

        @Test
        void aFittingRunIsSkippedWhenTheLargestRunsRemainderIsSmallerThanIt() {
            // pv_map.c keeps a PV's runs largest first and re-files a partly reserved run by what is left of it.
            // sdb free 0-99 (100) and 200-259 (60), -l 50: the 100-run is reserved for 50 and its remaining 50
            // is re-filed after the 60-run, so the walk over sdb's runs ends there: the 60-run (the best fit) is
            // never looked at and the LV goes to PE 0. (Compare -l 40 on 105 + 50, where the remainder 65 stays
            // ahead of the 50-run and the best fit wins.)
            VolumeGroup vg = vg(AllocationPolicy.NORMAL, List.of(linear("x", "sdb", 100, 100)), member("sdb", 260));
            LogicalVolume lv = create(vg, lv("lv").extents(50).build());
            assertThat(lv.segments()).containsExactly(seg(0, 50, 0, at("sdb", 0)));
        }
    }

    @Nested
    class Sizes {

        @Test
        void sizeIsRoundedUpToWholeExtents() {
            // -L 5M with 4 MiB extents: 10240 s / 8192 rounded up = 2 extents
            assertThat(create(vg(member("sdb", 100)), lv("lv").size("5M").build()).extentCount()).isEqualTo(2);
        }

        @Test
        void stripedSizeIsRoundedUpToTheStripeCount() {
            // -i 2 -l 3: rounded up to 4 extents, 2 per stripe
            LogicalVolume lv = create(vg(member("sdb", 100), member("sdc", 100)),
                    lv("lv").extents(3).stripes(2).build());
            assertThat(lv.segments()).containsExactly(seg(0, 4, 128, at("sdb", 0), at("sdc", 0)));
        }

        @Test
        void sizeNotAMultipleOf512() {
            refused(vg(member("sdb", 100)), lv("lv").size(Bytes.of(1000)).build(),
                    "Size is not a multiple of 512. Try using 512 or 1024.");
        }

        @Test
        void zeroSize() {
            refused(vg(member("sdb", 100)), lv("lv").size(Bytes.ZERO).build(),
                    "Unable to create new logical volume with no extents.");
        }

        @Test
        void volumeTooLargeForTheExtentSize() {
            // 16 PiB > (2^32 - 1) x 4 MiB = 16 PiB - 4 MiB, shown rounded up as "<16.00 PiB"
            refused(vg(member("sdb", 100)), lv("lv").size("16P").build(),
                    "Volume too large (16.00 PiB) for extent size 4.00 MiB. Upper limit is less than <16.00 PiB.");
        }

        @Test
        void vgWithoutEnoughFreeSpace() {
            refused(vg(member("sdb", 100), member("sdc", 100)), lv("lv").extents(201).build(),
                    "Volume group \"vg\" has insufficient free space (200 extents): 201 required.");
        }

        @Test
        void vgFreeCountsOnlyFreeExtents() {
            refused(holes(AllocationPolicy.NORMAL), lv("lv").extents(156).build(),
                    "Volume group \"vg\" has insufficient free space (155 extents): 156 required.");
        }
    }

    @Nested
    class Stripes {

        VolumeGroup two() {
            return vg(member("sdb", 100), member("sdc", 100));
        }

        long stripeSize(LvCreateRequest req) {
            return create(two(), req).segments().get(0).stripeSize().count();
        }

        @Test
        void defaultStripeSizeIs64Kib() {
            assertThat(stripeSize(lv("lv").extents(2).stripes(2).build())).isEqualTo(128);
        }

        @Test
        void fourKibIsTheSmallest() {
            assertThat(stripeSize(lv("lv").extents(2).stripes(2).stripeSize(Bytes.kib(4)).build())).isEqualTo(8);
        }

        @Test
        void largerThanTheExtentIsReducedToIt() {
            // -I 8m with 4 MiB extents: 8192 s
            assertThat(stripeSize(lv("lv").extents(2).stripes(2).stripeSize(Bytes.mib(8)).build())).isEqualTo(8192);
        }

        @Test
        void ignoredForOneStripe() {
            LogicalVolume lv = create(two(), lv("lv").extents(2).stripeSize(Bytes.kib(2)).build());
            assertThat(lv.segments()).containsExactly(seg(0, 2, 0, at("sdb", 0)));
        }

        @Test
        void belowOnePage() {
            refused(two(), lv("lv").extents(2).stripes(2).stripeSize(Bytes.kib(2)).build(),
                    "Invalid stripe size 2.00 KiB.");
        }

        @Test
        void notAPowerOfTwo() {
            refused(two(), lv("lv").extents(2).stripes(2).stripeSize(Bytes.kib(48)).build(),
                    "Invalid stripe size 48.00 KiB.");
        }

        @Test
        void notWholeSectors() {
            refused(two(), lv("lv").extents(2).stripes(2).stripeSize(Bytes.of(4100)).build(),
                    "Invalid stripe size 4.00 KiB.");
        }

        @Test
        void aboveTheLimit() {
            // 2 TiB = 2^32 s > 2^31 s (1 TiB)
            refused(two(), lv("lv").extents(2).stripes(2).stripeSize(Bytes.tib(2)).build(),
                    "Stripe size cannot be larger than 1.00 TiB.");
        }

        @Test
        void moreStripesThanPvs() {
            refused(two(), lv("lv").extents(3).stripes(3).build(),
                    "Number of stripes (3) must not exceed number of physical volumes (2)");
        }

        @Test
        void moreStripesThanListedPvs() {
            refused(two(), lv("lv").extents(2).stripes(2).onPvs("sdb").build(),
                    "Number of stripes (2) must not exceed number of physical volumes (1)");
        }
    }

    @Nested
    class PvRestrictions {

        @Test
        void onlyTheListedPv() {
            LogicalVolume lv = create(vg(member("sdb", 100), member("sdc", 100)), lv("lv").extents(10).onPvs("sdc").build());
            assertThat(lv.segments()).containsExactly(seg(0, 10, 0, at("sdc", 0)));
        }

        @Test
        void listedPvsWithoutEnoughSpace() {
            refused(vg(member("sdb", 100), member("sdc", 100)), lv("lv").extents(150).onPvs("sdc").build(),
                    "Insufficient free space: 150 extents needed, but only 100 available");
        }

        @Test
        void extentRange() {
            LogicalVolume lv = create(vg(member("sdb", 100)),
                    lv("lv").extents(10).onRanges(List.of(new ExtentRange("sdb", 50, 10))).build());
            assertThat(lv.segments()).containsExactly(seg(0, 10, 0, at("sdb", 50)));
        }

        @Test
        void extentRangesSkipAllocatedExtents() {
            // sdb:0-199 with 50-149 taken: free within the range are 0-49 and 150-199; -l 60 takes one whole
            // 50-run (largest, first in PE order), then the next pass clings to sdb for the other 10
            VolumeGroup vg = vg(AllocationPolicy.NORMAL, List.of(linear("x", "sdb", 50, 100)), member("sdb", 255));
            LogicalVolume lv = create(vg, lv("lv").extents(60)
                    .onRanges(List.of(new ExtentRange("sdb", 0, 200))).build());
            assertThat(lv.segments()).containsExactly(seg(0, 50, 0, at("sdb", 0)), seg(50, 10, 0, at("sdb", 150)));
        }

        @Test
        void rangeBeyondThePv() {
            refused(vg(member("sdb", 100)), lv("lv").extents(10).onRanges(List.of(new ExtentRange("sdb", 90, 20))).build(),
                    "PE range error: start extent 90 to end extent 109.");
        }

        @Test
        void overlappingRanges() {
            refused(vg(member("sdb", 100)), lv("lv").extents(10).onRanges(List.of(new ExtentRange("sdb", 0, 10),
                    new ExtentRange("sdb", 5, 10))).build(),
                    "Overlapping PE ranges specified (5-14, 0-9) on sdb.");
        }

        @Test
        void wholePvListedTwice() {
            refused(vg(member("sdb", 100)), lv("lv").extents(10).onPvs("sdb", "sdb").build(),
                    "Overlapping PE ranges specified (0-99, 0-99) on sdb.");
        }

        @Test
        void unknownPv() {
            refused(vg(member("sdb", 100)), lv("lv").extents(10).onPvs("sdz").build(),
                    "Physical Volume \"sdz\" not found in Volume Group \"vg\".");
        }

        @Test
        void onlyFullPvsListed() {
            VolumeGroup vg = vg(AllocationPolicy.NORMAL, List.of(linear("x", "sdb", 0, 100)),
                    member("sdb", 100), member("sdc", 100));
            refused(vg, lv("lv").extents(10).onPvs("sdb").build(), "No specified PVs have space available.");
        }
    }

    @Nested
    class Names {

        VolumeGroup one() {
            return vg(AllocationPolicy.NORMAL, List.of(linear("root", "sdb", 0, 10)), member("sdb", 100));
        }

        @Test
        void invalidName() {
            refused(one(), lv("a/b").extents(1).build(), "Logical volume name \"a/b\" is invalid.");
            refused(one(), lv("-a").extents(1).build(), "Logical volume name \"-a\" is invalid.");
            refused(one(), lv("..").extents(1).build(), "Logical volume name \"..\" is invalid.");
        }

        @Test
        void reservedPrefixes() {
            refused(one(), lv("snapshot1").extents(1).build(),
                    "Names starting \"snapshot\" are reserved. Please choose a different LV name.");
            refused(one(), lv("pvmove0").extents(1).build(),
                    "Names starting \"pvmove\" are reserved. Please choose a different LV name.");
        }

        @Test
        void reservedSubstrings() {
            for (String part : List.of("_cdata", "_cmeta", "_corig", "_cpool", "_cvol", "_wcorig", "_mimage", "_mlog",
                    "_rimage", "_rmeta", "_tdata", "_tmeta", "_vdata", "_imeta", "_iorig", "_pmspare", "_vorigin")) {
                refused(one(), lv("pool" + part + "_0").extents(1).build(),
                        "Names including \"" + part + "\" are reserved. Please choose a different LV name.");
            }
        }

        @Test
        void nameTaken() {
            refused(one(), lv("root").extents(1).build(),
                    "Logical Volume \"root\" already exists in volume group \"vg\"");
        }

        @Test
        void nameTakenIsReportedWithTheFields() {
            assertThatThrownBy(() -> LvAllocator.lvcreate(one(), lv("root").extents(1).build(), "dm-5"))
                    .isInstanceOfSatisfying(LayoutException.class, e -> {
                        assertThat(e.device()).isEqualTo("vg/root");
                        assertThat(e.field()).isEqualTo("lv_name");
                        assertThat(e.value()).isEqualTo("root");
                    });
        }

        @Test
        void existingLvsAreKept() {
            VolumeGroup after = LvAllocator.lvcreate(one(), lv("home").extents(5).build(), "dm-5");
            assertThat(after.logicalVolumes()).extracting(LogicalVolume::name).containsExactly("root", "home");
            assertThat(after.logicalVolume("home").orElseThrow().segments()).containsExactly(seg(0, 5, 0, at("sdb", 10)));
        }
    }

    @Nested
    class Merging {

        @Test
        void adjacentPassesOnTheSamePvsMerge() {
            List<Pass> passes = new ArrayList<>();
            passes.add(new Pass(10, List.of(at("sdb", 0), at("sdc", 20))));
            passes.add(new Pass(5, List.of(at("sdb", 10), at("sdc", 30))));
            assertThat(LvAllocator.segments(passes, 128)).containsExactly(seg(0, 30, 128, at("sdb", 0), at("sdc", 20)));
        }

        @Test
        void aGapOnOneStripeKeepsTheSegmentsApart() {
            List<Pass> passes = List.of(new Pass(10, List.of(at("sdb", 0), at("sdc", 20))),
                    new Pass(5, List.of(at("sdb", 10), at("sdc", 31))));
            assertThat(LvAllocator.segments(passes, 128)).containsExactly(seg(0, 20, 128, at("sdb", 0), at("sdc", 20)),
                    seg(20, 10, 128, at("sdb", 10), at("sdc", 31)));
        }

        @Test
        void anotherPvKeepsTheSegmentsApart() {
            List<Pass> passes = List.of(new Pass(10, List.of(at("sdb", 0))), new Pass(5, List.of(at("sdc", 10))));
            assertThat(LvAllocator.segments(passes, 0)).containsExactly(seg(0, 10, 0, at("sdb", 0)),
                    seg(10, 5, 0, at("sdc", 10)));
        }
    }
}
