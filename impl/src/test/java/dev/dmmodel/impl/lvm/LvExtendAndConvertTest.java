package dev.dmmodel.impl.lvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.ExtentRange;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvExtendRequest;
import dev.dmmodel.lvm.LvRole;
import dev.dmmodel.lvm.LvSegment;
import dev.dmmodel.lvm.SegmentType;
import dev.dmmodel.lvm.StripeArea;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolConvertRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code lvextend} and {@code lvconvert --type thin-pool} through the layout builder. Disks of 1 GiB
 * (2,097,152 sectors) with default PVs: pe_start 2048, and with 4 MiB extents pe_count
 * (2097152 - 2048) / 8192 = 255.
 */
class LvExtendAndConvertTest {

    private static LayoutBuilder twoDisks() {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .pvcreate("/dev/sda").pvcreate("/dev/sdb")
                .vgcreate("vg", "/dev/sda", "/dev/sdb");
    }

    private static LvCreateRequest linear(String name, long extents, ExtentRange... ranges) {
        return LvCreateRequest.builder(name).extents(extents).onRanges(List.of(ranges)).build();
    }

    @Test
    void lvextendAddsASegmentAndMergesOneThatContinuesTheLast() {
        Layout l = twoDisks()
                .lvcreate("vg", linear("lv", 10, new ExtentRange("/dev/sda", 0, 10)))
                .lvextend("vg", LvExtendRequest.onRanges("lv", 5, List.of(new ExtentRange("/dev/sdb", 20, 5))))
                .lvextend("vg", LvExtendRequest.onRanges("lv", 5, List.of(new ExtentRange("/dev/sdb", 25, 5))))
                .build();
        LogicalVolume lv = l.logicalVolume("vg", "lv").orElseThrow();
        assertThat(lv.segments()).containsExactly(
                new LvSegment(0, 10, Sectors.ZERO, List.of(new StripeArea("sda", 0))),
                new LvSegment(10, 10, Sectors.ZERO, List.of(new StripeArea("sdb", 20))));
        // the dm table is reloaded: 10 extents of 8192 sectors at pe_start 2048, then 10 at 2048 + 20 * 8192
        assertThat(l.dmsetupTable()).isEqualTo("vg-lv: 0 81920 linear 8:0 2048\n"
                + "vg-lv: 81920 81920 linear 8:16 165888\n");
    }

    @Test
    void lvextendKeepsTheLastSegmentsStripesUnlessToldOtherwise() {
        Layout l = twoDisks()
                .lvcreate("vg", LvCreateRequest.builder("st").extents(4).stripes(2).stripeSize(Bytes.kib(64))
                        .onRanges(List.of(new ExtentRange("/dev/sda", 0, 2), new ExtentRange("/dev/sdb", 0, 2)))
                        .build())
                .lvextend("vg", LvExtendRequest.onRanges("st", 4, List.of(new ExtentRange("/dev/sda", 10, 2),
                        new ExtentRange("/dev/sdb", 10, 2))))
                .lvextend("vg", new LvExtendRequest("st", 1, 1, null, AllocationPolicy.INHERIT, List.of(),
                        List.of(new ExtentRange("/dev/sdb", 50, 1))))
                .build();
        assertThat(l.logicalVolume("vg", "st").orElseThrow().segments()).containsExactly(
                new LvSegment(0, 4, Sectors.of(128), List.of(new StripeArea("sda", 0), new StripeArea("sdb", 0))),
                new LvSegment(4, 4, Sectors.of(128), List.of(new StripeArea("sda", 10), new StripeArea("sdb", 10))),
                new LvSegment(8, 1, Sectors.ZERO, List.of(new StripeArea("sdb", 50))));
    }

    @Test
    void lvextendRefusesAnUnknownLvAPoolAndTooManyExtents() {
        assertThatThrownBy(() -> twoDisks().lvextend("vg", LvExtendRequest.onRanges("nope", 1, List.of())).build())
                .isInstanceOf(LayoutException.class).hasMessageContaining("Failed to find logical volume \"vg/nope\"");
        assertThatThrownBy(() -> twoDisks()
                .lvcreateThinPool("vg", ThinPoolRequest.builder("pool").extents(4).build())
                .lvextend("vg", LvExtendRequest.onRanges("pool", 1, List.of())).build())
                .isInstanceOf(LayoutException.class).hasMessageContaining("THIN_POOL");
        // 2 x 255 extents in the VG, 10 used: 501 more do not fit
        assertThatThrownBy(() -> twoDisks().lvcreate("vg", linear("lv", 10, new ExtentRange("/dev/sda", 0, 10)))
                .lvextend("vg", LvExtendRequest.onRanges("lv", 501, List.of())).build())
                .isInstanceOf(LayoutException.class).hasMessageContaining("only 500 available");
    }

    @Test
    void lvconvertMakesAPoolOfTwoLvsAndPlacesTheSpareOnTheNamedRange() {
        Layout l = twoDisks()
                .lvcreate("vg", linear("pool", 64, new ExtentRange("/dev/sda", 1, 64)))
                .lvcreate("vg", linear("meta", 1, new ExtentRange("/dev/sda", 65, 1)))
                .lvconvertThinPool("vg", new ThinPoolConvertRequest("pool", "meta", Bytes.mib(1), true, null, false,
                        ThinPoolRequest.ChunkPolicy.GENERIC, true, List.of(), List.of(new ExtentRange("/dev/sda", 0, 1))))
                .lvcreateThin("vg", ThinLvRequest.of("thin", "64M", "pool"))
                .build();
        var vg = l.volumeGroup("vg").orElseThrow();
        LogicalVolume pool = vg.logicalVolume("pool").orElseThrow();
        assertThat(pool.role()).isEqualTo(LvRole.THIN_POOL);
        SegmentType.ThinPool p = pool.thinPool().orElseThrow();
        assertThat(p.chunkSize()).isEqualTo(Sectors.of(2048));
        assertThat(p.transactionId()).isEqualTo(1);
        assertThat(vg.logicalVolume("pool_tdata").orElseThrow().segments())
                .containsExactly(new LvSegment(0, 64, Sectors.ZERO, List.of(new StripeArea("sda", 1))));
        assertThat(vg.logicalVolume("pool_tmeta").orElseThrow().segments())
                .containsExactly(new LvSegment(0, 1, Sectors.ZERO, List.of(new StripeArea("sda", 65))));
        assertThat(vg.logicalVolume("lvol0_pmspare").orElseThrow().segments())
                .containsExactly(new LvSegment(0, 1, Sectors.ZERO, List.of(new StripeArea("sda", 0))));
        assertThat(vg.logicalVolume("meta")).isEmpty();
        assertThat(vg.logicalVolume("thin").orElseThrow().thin().orElseThrow().deviceId()).isEqualTo(1);
        // the old LVs' devices became the pool's sub-LVs; /dev/vg/meta names nothing any more
        assertThat(l.find("/dev/mapper/vg-pool_tdata")).isPresent();
        assertThat(l.find("/dev/mapper/vg-pool_tmeta")).isPresent();
        assertThat(l.find("/dev/vg/meta")).isEmpty();
        assertThat(l.dmsetupTable()).contains("vg-pool-tpool: 0 524288 thin-pool ");
    }

    @Test
    void lvconvertWithoutAChunkSizeEstimatesItFromDataAndMetadata() {
        // 64 extents = 524288 sectors of data, 8192 of metadata: 524288 / (8192 * 8) = 8, below 64 KiB: 128 sectors
        Layout l = twoDisks()
                .lvcreate("vg", linear("pool", 64, new ExtentRange("/dev/sda", 1, 64)))
                .lvcreate("vg", linear("meta", 1, new ExtentRange("/dev/sda", 65, 1)))
                .lvconvertThinPool("vg", ThinPoolConvertRequest.of("pool", "meta"))
                .build();
        assertThat(l.logicalVolume("vg", "pool").orElseThrow().thinPool().orElseThrow().chunkSize())
                .isEqualTo(Sectors.of(128));
    }

    @Test
    void lvconvertRefusesTheSameLvTwiceAndASmallMetadataLv() {
        assertThatThrownBy(() -> twoDisks().lvcreate("vg", linear("pool", 4, new ExtentRange("/dev/sda", 0, 4)))
                .lvconvertThinPool("vg", ThinPoolConvertRequest.of("pool", "pool")).build())
                .isInstanceOf(LayoutException.class).hasMessageContaining("Can't use same LV");
        // 1 MiB extents: a one-extent metadata LV has 2048 sectors, below the 4096 minimum
        assertThatThrownBy(() -> Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1))).pvcreate("/dev/sda")
                .vgcreate("vg", VgCreateOptions.DEFAULTS.withExtentSize(Sectors.of(2048)), "/dev/sda")
                .lvcreate("vg", linear("pool", 8, new ExtentRange("/dev/sda", 0, 8)))
                .lvcreate("vg", linear("meta", 1, new ExtentRange("/dev/sda", 8, 1)))
                .lvconvertThinPool("vg", ThinPoolConvertRequest.of("pool", "meta")).build())
                .isInstanceOf(LayoutException.class).hasMessageContaining("too small").hasMessageContaining("for metadata");
    }
}
