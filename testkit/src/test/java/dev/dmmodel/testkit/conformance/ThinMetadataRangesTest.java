package dev.dmmodel.testkit.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link KernelConformance#thinPoolMetadataRanges}: where a pool's metadata lies on every device below its
 * metadata device, worked out by hand from the tables (dm-linear: {@code offset + (sector - target start)};
 * dm-striped: chunk {@code c} of the target is chunk {@code c / n} of stripe {@code c % n}; a partition's
 * sector {@code s} is disk sector {@code start + s}).
 */
class ThinMetadataRangesTest {

    private static LayoutBuilder disks() {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .disk("sdc", DiskPresets.qemuAhci().withSize(Bytes.gib(1)));
    }

    private static LayoutBuilder pool(LayoutBuilder b, String metadata) {
        return b.dmsetupCreate("tdata", t -> t.linear(Sectors.of(262144), "sdc", Sectors.ZERO))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.of(262144), metadata, "tdata", 128, 0));
    }

    @Test
    void theThinCasesLayoutTmetaAtTheStartOfTheDisk() {
        // thin-*: tmeta = linear sdX 0 8192, tdata = linear sdX 8192 ...
        Layout l = Layout.builder(KernelProfile.LINUX_6_1)
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(8192), "sdb", Sectors.ZERO))
                .dmsetupCreate("tdata", t -> t.linear(Sectors.of(524288), "sdb", Sectors.of(8192)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.of(524288), "tmeta", "tdata", 2048, 0))
                .build();

        assertThat(KernelConformance.thinPoolMetadataRanges(l)).containsExactly(
                new DeviceRange("dm-0", 0, 8192), new DeviceRange("sdb", 0, 8192));
    }

    @Test
    void aMetadataDeviceOfTwoSegmentsOnAPartitionAndADisk() {
        // sda1 starts at 2048; tmeta = linear sda1 100 (4096 sectors) + linear sdb 0 (4096 sectors):
        // sda1 100..4196, so sda 2148..6244; sdb 0..4096
        Layout l = pool(disks().partitionTable("sda", PartitionTableType.MSDOS,
                        PartitionSpec.at(Sectors.of(2048), Sectors.of(1 << 20)))
                .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(4096), "sda1", Sectors.of(100))
                        .linear(Sectors.of(4096), "sdb", Sectors.ZERO)), "tmeta").build();

        assertThat(KernelConformance.thinPoolMetadataRanges(l)).containsExactly(
                new DeviceRange("dm-0", 0, 8192), new DeviceRange("sda", 2148, 4096),
                new DeviceRange("sda1", 100, 4096), new DeviceRange("sdb", 0, 4096));
    }

    @Test
    void aMetadataDeviceOnPartOfAStripedDevice() {
        // base = striped 2 x 128-sector chunks over sda 0 and sdb 1000; tmeta = linear base 64 (256 sectors):
        // base 64..320 = chunk 0 from 64 (sda 64..128), chunk 1 (sdb 1000..1128), chunk 2 to 320 (sda 128..192)
        Layout l = pool(disks()
                .dmsetupCreate("base", t -> t.striped(Sectors.of(1024), 128, List.of(
                        new StripedTarget.Stripe("sda", Sectors.ZERO), new StripedTarget.Stripe("sdb", Sectors.of(1000)))))
                .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(256), "base", Sectors.of(64))), "tmeta").build();

        assertThat(KernelConformance.thinPoolMetadataRanges(l)).containsExactly(
                new DeviceRange("dm-0", 64, 256), new DeviceRange("dm-1", 0, 256),
                new DeviceRange("sda", 64, 128), new DeviceRange("sdb", 1000, 128));
    }

    @Test
    void theWholeOfAStripedMetadataDeviceIsAnEqualShareOfEachStripe() {
        // tmeta = striped 3 x 64-sector chunks, 3 * 640 sectors: 640 sectors (10 chunks) of each stripe
        Layout l = pool(disks().dmsetupCreate("tmeta", t -> t.striped(Sectors.of(1920), 64, List.of(
                new StripedTarget.Stripe("sda", Sectors.of(2048)), new StripedTarget.Stripe("sdb", Sectors.of(2048)),
                new StripedTarget.Stripe("sdc", Sectors.of(300000))))), "tmeta").build();

        assertThat(KernelConformance.thinPoolMetadataRanges(l)).containsExactly(
                new DeviceRange("dm-0", 0, 1920), new DeviceRange("sda", 2048, 640),
                new DeviceRange("sdb", 2048, 640), new DeviceRange("sdc", 300000, 640));
    }

    @Test
    void aStackWithoutThinPoolsHasNoMetadata() {
        Layout l = disks().dmsetupCreate("lin", t -> t.linear(Sectors.of(4096), "sda", Sectors.ZERO)).build();

        assertThat(KernelConformance.thinPoolMetadataRanges(l)).isEmpty();
    }
}
