package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The geometry of {@code dmmodel show}'s picture, worked out from the sectors. */
class StackPictureTest {

    private static final double EPS = 1e-9;
    /** 8 GiB in sectors. */
    private static final long SDA = 16_777_216L;

    /** sda 8 GiB, 4 KiB physical blocks; sda1 at 63 to the end; lin0 = sda1 sectors 0-1984, lin = from 1985 on. */
    static Layout sector63() {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.sasDisk().withSize(Bytes.gib(8)))
                .partitionTable("sda", PartitionTableType.MSDOS, PartitionSpec.atToEnd(Sectors.of(63)))
                .dmsetupCreate("lin0", t -> t.linear(Sectors.of(1985), "sda1", Sectors.ZERO))
                .dmsetupCreate("lin", t -> t.linear(Sectors.of(8_388_608), "sda1", Sectors.of(1985)))
                .build();
    }

    @Test
    void sector63PartitionOnA4KiBPhysicalDisk() {
        StackPicture p = StackPicture.of(sector63(), 1000, 10, 5);
        assertThat(p.rows()).extracting(StackPicture.Row::title).containsExactly("disks", "partitions", "dm");

        StackPicture.Box sda = p.boxes("sda").get(0);
        assertThat(sda.row()).isZero();
        assertThat(sda.x0()).isZero();
        assertThat(sda.x1()).isEqualTo(1000.0); // the only disk: the whole width, no gap after the last
        assertThat(sda.misaligned()).isFalse();
        assertThat(p.boxes()).extracting(StackPicture.Box::kind).containsExactly("disk", "partition", "dm", "dm");

        // sda1: sectors 63 .. end of 16777216 -> x from 63/16777216 of the width to its end
        StackPicture.Box sda1 = p.boxes("sda1").get(0);
        assertThat(sda1.row()).isEqualTo(1);
        assertThat(sda1.x0()).isCloseTo(63.0 / SDA * 1000, within(EPS));
        assertThat(sda1.x1()).isCloseTo(1000.0, within(EPS));
        assertThat(sda1.below()).isEqualTo("sda");
        assertThat(sda1.startOnBelow()).isEqualTo(63);
        assertThat(sda1.sectors()).isEqualTo(SDA - 63);
        // 63 x 512 = 32256 = 7 x 4096 + 3584
        assertThat(sda1.mark()).isEqualTo(new StackPicture.Mark("sda", 63, 3584, 4096,
                List.of("align.partition.physical-block")));

        // lin0 on sda1 at 0 = sda sector 63: misaligned; 1985 sectors are 0.118 units wide, drawn 5 wide
        StackPicture.Box lin0 = p.boxes("dm-0").get(0);
        assertThat(lin0.row()).isEqualTo(2);
        assertThat(lin0.x0()).isCloseTo(63.0 / SDA * 1000, within(EPS));
        assertThat(lin0.x1()).isCloseTo(lin0.x0() + 5, within(EPS));
        assertThat(lin0.mark()).isEqualTo(new StackPicture.Mark("sda", 63, 3584, 4096, List.of("align.device.offset")));

        // lin on sda1 at 1985 = sda sector 2048 (1 MiB): aligned; 8388608 sectors = half of sda = 500 units
        StackPicture.Box lin = p.boxes("dm-1").get(0);
        assertThat(lin.x0()).isCloseTo(2048.0 / SDA * 1000, within(1e-6));
        assertThat(lin.x1()).isCloseTo((2048.0 + 8_388_608) / SDA * 1000, within(1e-6));
        assertThat(lin.startOnBelow()).isEqualTo(1985);
        assertThat(lin.misaligned()).isFalse();
        // lin0 is drawn over [0.0038, 5.0038), lin starts at 0.122: they share the row in two lanes
        assertThat(p.rows().get(2).lanes()).isEqualTo(2);
        assertThat(lin0.lane()).isZero();
        assertThat(lin.lane()).isEqualTo(1);

        assertThat(p.boxes()).filteredOn(StackPicture.Box::misaligned).extracting(StackPicture.Box::device)
                .containsExactly("sda1", "dm-0");
    }

    @Test
    void twoDisksShareTheWidthAndAStripedDeviceHasOneBoxOnEach() {
        // 2 disks of 1 GiB = 2097152 sectors; stripes at 2048 of 524288 sectors each (1048576 / 2)
        Layout l = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .dmsetupCreate("str", t -> t.striped(Sectors.of(1_048_576), 128, List.of(
                        new StripedTarget.Stripe("sda", Sectors.of(2048)), new StripedTarget.Stripe("sdb", Sectors.of(2048)))))
                .dmsetupCreate("top", t -> t.linear(Sectors.of(524_288), "str", Sectors.of(524_288)))
                .build();
        StackPicture p = StackPicture.of(l, 1000, 10, 5);
        // slots of 500: sda [0, 490) (a gap of 10 before sdb), sdb [500, 1000)
        assertThat(p.boxes("sda").get(0).x1()).isEqualTo(490.0);
        assertThat(p.boxes("sdb").get(0).x0()).isEqualTo(500.0);
        List<StackPicture.Box> str = p.boxes("dm-0");
        assertThat(str).hasSize(2);
        assertThat(str.get(0).x0()).isCloseTo(2048.0 / 2_097_152 * 490, within(EPS));
        assertThat(str.get(0).x1()).isCloseTo((2048.0 + 524_288) / 2_097_152 * 490, within(EPS));
        assertThat(str.get(1).x0()).isCloseTo(500 + 2048.0 / 2_097_152 * 500, within(EPS));
        assertThat(str.get(0).sectors()).isEqualTo(524_288);
        // top maps the second half of str: the second half of each stripe's box
        List<StackPicture.Box> top = p.boxes("dm-1");
        assertThat(top).hasSize(2);
        double mid = (str.get(0).x0() + str.get(0).x1()) / 2;
        assertThat(top.get(0).x0()).isCloseTo(mid, within(EPS));
        assertThat(top.get(0).x1()).isCloseTo(str.get(0).x1(), within(EPS));
        assertThat(top.get(0).row()).isEqualTo(2);
        // qemu disks have 512-byte blocks: nothing to misalign
        assertThat(p.boxes()).noneMatch(StackPicture.Box::misaligned);
    }

    @Test
    void thinDevicesShareTheirPoolsData() {
        Layout l = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .dmsetupCreate("tmeta", t -> t.linear(Sectors.of(8192), "sda", Sectors.ZERO))
                .dmsetupCreate("tdata", t -> t.linear(Sectors.of(1_048_576), "sda", Sectors.of(8192)))
                .dmsetupCreate("pool", t -> t.thinPool(Sectors.of(1_048_576), "tmeta", "tdata", 128, 0))
                .dmsetupCreate("thin1", t -> t.thin(Sectors.of(4_194_304), "pool", 1))
                .dmsetupCreate("thin2", t -> t.thin(Sectors.of(65_536), "pool", 2))
                .build();
        StackPicture p = StackPicture.of(l, 1000, 10, 5);
        StackPicture.Box tdata = p.boxes("dm-1").get(0);
        // tdata: sda 8192 .. 1056768 of 2097152
        assertThat(tdata.x0()).isCloseTo(8192.0 / 2_097_152 * 1000, within(EPS));
        assertThat(tdata.x1()).isCloseTo(1_056_768.0 / 2_097_152 * 1000, within(EPS));
        // the pool: a box over tmeta (whole) and one over tdata (whole), in row 2
        assertThat(p.boxes("dm-2")).extracting(StackPicture.Box::below).containsExactly("dm-0", "dm-1");
        StackPicture.Box poolData = p.boxes("dm-2").stream().filter(b -> b.below().equals("dm-1")).findFirst()
                .orElseThrow();
        assertThat(poolData.x0()).isCloseTo(tdata.x0(), within(EPS));
        // two thins: each half of the pool's data box, whatever their virtual sizes; row 3
        StackPicture.Box thin1 = p.boxes("dm-3").get(0);
        StackPicture.Box thin2 = p.boxes("dm-4").get(0);
        double half = (poolData.x1() - poolData.x0()) / 2;
        assertThat(thin1.x0()).isCloseTo(poolData.x0(), within(EPS));
        assertThat(thin1.x1()).isCloseTo(poolData.x0() + half, within(EPS));
        assertThat(thin2.x0()).isCloseTo(poolData.x0() + half, within(EPS));
        assertThat(thin1.row()).isEqualTo(3);
        assertThat(thin1.sectors()).isEqualTo(4_194_304);
        assertThat(thin1.below()).isEqualTo("dm-2");
    }

    @Test
    void recordedLimitsSd512e_theSector63SideIsMarked() {
        HostSnapshot s = HostSnapshot.read(Cli.snapshot("limits-sd-512e"));
        Layout l = Layout.of(s.toLayoutSpec(s.profile().orElseThrow()));
        StackPicture p = StackPicture.of(l, 1000, 10, 5);
        // sdg1 at 63 on 4 KiB physical blocks; lin63 and strparts' first stripe start there too; sdh1 at 2048 is clean
        assertThat(p.boxes()).filteredOn(StackPicture.Box::misaligned)
                .extracting(b -> b.device() + " on " + b.below() + " " + b.mark().findingIds())
                .containsExactly("sdg1 on sdg [align.partition.physical-block]", "dm-0 on sdg1 [align.device.offset]",
                        "dm-2 on sdg1 [align.device.misaligned]");
        assertThat(p.boxes("dm-2")).extracting(StackPicture.Box::below).containsExactly("sdg1", "sdh1");
        // 5 disks, 5 slots of 200
        assertThat(p.boxes("sdh").get(0).x0()).isEqualTo(200.0);
        // strparts: 129024 sectors on sdg1 (131009 sectors from sector 63 of sdg's 131072)
        StackPicture.Box strOnSdg1 = p.boxes("dm-2").get(0);
        assertThat(strOnSdg1.x0()).isCloseTo(63.0 / 131_072 * 190, within(EPS));
        assertThat(strOnSdg1.x1()).isCloseTo((63.0 + 129_024) / 131_072 * 190, within(1e-6));
    }
}
