package dev.dmmodel.impl.lvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** vgcreate: lvm2-semantics.md §2 (names, extent size, pe_count, limits) and the §8 messages. */
class VgCreateTest {

    /** 10 GiB, the disks of §2's example and of §4.5. */
    static final Sectors TEN_GIB = Sectors.of(20_971_520);

    static final VgCreateOptions DEFAULTS = VgCreateOptions.DEFAULTS;

    static PhysicalVolume orphan(String device, Sectors size) {
        return PvCreate.pvcreate(device, size, PvTopology.PLAIN, PvCreateOptions.DEFAULTS);
    }

    static Map<String, Long> blocks512(String... devices) {
        Map<String, Long> m = new java.util.HashMap<>();
        for (String d : devices) {
            m.put(d, 512L);
        }
        return m;
    }

    static VolumeGroup vg(String name, VgCreateOptions opts, PhysicalVolume... pvs) {
        String[] devices = java.util.Arrays.stream(pvs).map(PhysicalVolume::device).toArray(String[]::new);
        return VgCreate.vgcreate(name, opts, List.of(pvs), blocks512(devices));
    }

    @Nested
    class Created {

        @Test
        void tenGibDiskHas2559FourMibExtents() {
            // (20971520 - 2048) / 8192 = 2559
            VolumeGroup vg = vg("vg0", DEFAULTS, orphan("sdb", TEN_GIB), orphan("sdc", TEN_GIB));
            assertThat(vg.name()).isEqualTo("vg0");
            assertThat(vg.extentSize()).isEqualTo(Sectors.of(8192));
            assertThat(vg.allocationPolicy()).isEqualTo(AllocationPolicy.NORMAL);
            assertThat(vg.logicalVolumes()).isEmpty();
            assertThat(vg.physicalVolumes()).extracting(PhysicalVolume::device).containsExactly("sdb", "sdc");
            for (PhysicalVolume pv : vg.physicalVolumes()) {
                assertThat(pv.vgName()).isEqualTo("vg0");
                assertThat(pv.peCount()).isEqualTo(2559);
                assertThat(pv.extentSize()).isEqualTo(Sectors.of(8192));
                assertThat(pv.peStart()).isEqualTo(Sectors.of(2048));
            }
            assertThat(vg.extentCount()).isEqualTo(5118); // §4.5: VG 5118 extents
            assertThat(vg.freeCount()).isEqualTo(5118);
        }

        @Test
        void secondMetadataAreaIsExcludedFromTheExtents() {
            // 1 GiB, 1 MiB extents: one copy (2097152 - 2048) / 2048 = 1023;
            // two copies also lose the 2048 s mda1: (2097152 - 2048 - 2048) / 2048 = 1022
            Sectors gib = Sectors.of(2_097_152);
            VgCreateOptions mib = DEFAULTS.withExtentSize(Sectors.of(2048));
            PhysicalVolume one = orphan("sdb", gib);
            PhysicalVolume two = PvCreate.pvcreate("sdc", gib, PvTopology.PLAIN,
                    PvCreateOptions.DEFAULTS.withMetadataCopies(2));
            VolumeGroup vg = vg("vg", mib, one, two);
            assertThat(vg.physicalVolumes()).extracting(PhysicalVolume::peCount).containsExactly(1023L, 1022L);
        }

        @Test
        void acceptedExtentSizes() {
            // powers of two (512 B, 4 KiB) and non-powers of two that are multiples of 128 KiB (384 KiB)
            PhysicalVolume pv = orphan("sdb", TEN_GIB);
            for (long extent : new long[] {1, 8, 768}) {
                VolumeGroup vg = vg("vg", DEFAULTS.withExtentSize(Sectors.of(extent)), pv);
                assertThat(vg.extentSize()).isEqualTo(Sectors.of(extent));
                assertThat(vg.physicalVolumes().get(0).peCount()).isEqualTo((20_971_520 - 2048) / extent);
            }
        }

        @Test
        void allocationPolicyIsKept() {
            VolumeGroup vg = vg("vg", DEFAULTS.withAllocationPolicy(AllocationPolicy.CONTIGUOUS), orphan("sdb", TEN_GIB));
            assertThat(vg.allocationPolicy()).isEqualTo(AllocationPolicy.CONTIGUOUS);
        }

        @Test
        void extentAsLargeAsTheLogicalBlockIsAccepted() {
            // 4Kn disk: extents of 8 s (4096 B) are allowed
            VolumeGroup vg = VgCreate.vgcreate("vg", DEFAULTS.withExtentSize(Sectors.of(8)),
                    List.of(orphan("sdb", TEN_GIB)), Map.of("sdb", 4096L));
            assertThat(vg.extentSize()).isEqualTo(Sectors.of(8));
        }

        @Test
        void longestValidNameIs127Characters() {
            String name = "v".repeat(127);
            assertThat(vg(name, DEFAULTS, orphan("sdb", TEN_GIB)).name()).isEqualTo(name);
        }

        @Test
        void nameCharsetIncludesDotUnderscorePlusAndInnerHyphen() {
            assertThat(vg("a.b_c+d-e", DEFAULTS, orphan("sdb", TEN_GIB)).name()).isEqualTo("a.b_c+d-e");
        }
    }

    @Nested
    class Names {

        void refused(String name, String reason) {
            assertThatThrownBy(() -> vg(name, DEFAULTS, orphan("sdb", TEN_GIB)))
                    .isInstanceOfSatisfying(LayoutException.class, e -> {
                        assertThat(e).hasMessage(reason + " New volume group name \"" + name + "\" is invalid.");
                        assertThat(e.field()).isEqualTo("vg_name");
                        assertThat(e.value()).isEqualTo(name);
                    });
        }

        @Test
        void empty() {
            refused("", "Name is zero length.");
        }

        @Test
        void leadingHyphen() {
            refused("-vg", "Name cannot start with hyphen.");
        }

        @Test
        void dotAndDotDot() {
            refused(".", "Name starts with . or .. and has no following character(s).");
            refused("..", "Name starts with . or .. and has no following character(s).");
        }

        @Test
        void invalidCharacters() {
            refused("vg/0", "Name contains invalid character, valid set includes: [a-zA-Z0-9.-_+].");
            refused("vg 0", "Name contains invalid character, valid set includes: [a-zA-Z0-9.-_+].");
            refused("vgé", "Name contains invalid character, valid set includes: [a-zA-Z0-9.-_+].");
        }

        @Test
        void tooLong() {
            refused("v".repeat(128), "Name length exceeds maximum limit of 127.");
        }
    }

    @Nested
    class ExtentSizes {

        void refused(long extent, String message) {
            assertThatThrownBy(() -> vg("vg", DEFAULTS.withExtentSize(Sectors.of(extent)), orphan("sdb", TEN_GIB)))
                    .isInstanceOfSatisfying(LayoutException.class, e -> {
                        assertThat(e).hasMessage(message);
                        assertThat(e.field()).isEqualTo("extent_size");
                    });
        }

        @Test
        void zero() {
            refused(0, "Physical extent size may not be zero");
        }

        @Test
        void notAPowerOfTwoNorA128KibMultiple() {
            refused(14, "Physical Extent size must be a multiple of 128.00 KiB when not a power of 2."); // 7 KiB
        }

        @Test
        void tooLarge() {
            // MAX_EXTENT_SIZE = 2^32 - 1 sectors = 2 TiB - 512 B, shown rounded up: "<2.00 TiB"
            refused(1L << 32, "Physical extent size must be smaller than <2.00 TiB.");
        }

        @Test
        void smallerThanTheLogicalBlockSize() {
            // 4Kn disk, 2 KiB extents (a power of two, otherwise valid)
            assertThatThrownBy(() -> VgCreate.vgcreate("vg", DEFAULTS.withExtentSize(Sectors.of(4)),
                    List.of(orphan("sdb", TEN_GIB)), Map.of("sdb", 4096L)))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("Physical extent size used for volume group vg is less than logical block size "
                            + "(4096 bytes) that sdb uses.");
        }
    }

    @Nested
    class PhysicalVolumes {

        @Test
        void inheritPolicy() {
            assertThatThrownBy(() -> vg("vg", DEFAULTS.withAllocationPolicy(AllocationPolicy.INHERIT),
                    orphan("sdb", TEN_GIB)))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("Volume Group allocation policy cannot inherit from anything");
        }

        @Test
        void noPhysicalVolume() {
            assertThatThrownBy(() -> VgCreate.vgcreate("vg", DEFAULTS, List.of(), Map.of()))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("Please enter physical volume name(s)");
        }

        @Test
        void alreadyInAnotherVg() {
            PhysicalVolume member = vg("vg0", DEFAULTS, orphan("sdb", TEN_GIB)).physicalVolumes().get(0);
            assertThatThrownBy(() -> vg("vg1", DEFAULTS, member))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("Physical volume 'sdb' is already in volume group 'vg0'");
        }

        @Test
        void listedTwice() {
            PhysicalVolume pv = orphan("sdb", TEN_GIB);
            assertThatThrownBy(() -> vg("vg", DEFAULTS, pv, pv))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("Physical volume 'sdb' listed more than once.");
        }

        @Test
        void missingLogicalBlockSize() {
            assertThatThrownBy(() -> VgCreate.vgcreate("vg", DEFAULTS, List.of(orphan("sdb", TEN_GIB)), Map.of()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .isNotInstanceOf(LayoutException.class)
                    .hasMessage("no logical block size given for PV device sdb");
        }

        @Test
        void tooManyExtentsOnOnePv() {
            // 4 KiB extents on 2^35 + 2048 sectors: (2^35 + 2048 - 2048) / 8 = 2^32 > 2^32 - 1
            PhysicalVolume pv = orphan("sdb", Sectors.of((1L << 35) + 2048));
            assertThatThrownBy(() -> vg("vg", DEFAULTS.withExtentSize(Sectors.of(8)), pv))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("PV sdb too large for extent size 4.00 KiB.");
        }

        @Test
        void onePvAtTheLimitIsAccepted() {
            // (2^35 + 2048 - 8 - 2048) / 8 = 2^32 - 1 extents exactly
            PhysicalVolume pv = orphan("sdb", Sectors.of((1L << 35) + 2048 - 8));
            VolumeGroup vg = vg("vg", DEFAULTS.withExtentSize(Sectors.of(8)), pv);
            assertThat(vg.extentCount()).isEqualTo(0xFFFF_FFFFL);
        }

        @Test
        void tooManyExtentsInTheVg() {
            // two PVs of 2^31 extents each: 2^32 > 2^32 - 1 when the second joins
            Sectors size = Sectors.of((1L << 34) + 2048);
            assertThatThrownBy(() -> vg("vg", DEFAULTS.withExtentSize(Sectors.of(8)), orphan("sdb", size),
                    orphan("sdc", size)))
                    .isInstanceOf(LayoutException.class)
                    .hasMessage("Unable to add sdc to vg: new extent count (4294967296) exceeds limit (4294967295).");
        }
    }
}
