package dev.dmmodel.impl.lvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.lvm.AllocationPolicy;
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
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** dm tables of linear and striped LVs: lvm2-semantics.md §7 and its example for §4.5. */
class LvTablesTest {

    /** §4.5: /dev/sdb is 8:16, /dev/sdc is 8:32. */
    static final Function<String, String> NUMBERS = Map.of("sdb", "8:16", "sdc", "8:32")::get;

    /** §4.5 up to the striped LV: two 10 GiB disks, vg0, root -L 5G, data -i 2 -I 64k -L 2G. */
    static VolumeGroup section45() {
        Sectors tenGib = Sectors.of(20_971_520);
        PhysicalVolume sdb = PvCreate.pvcreate("sdb", tenGib, PvTopology.PLAIN, PvCreateOptions.DEFAULTS);
        PhysicalVolume sdc = PvCreate.pvcreate("sdc", tenGib, PvTopology.PLAIN, PvCreateOptions.DEFAULTS);
        VolumeGroup vg = VgCreate.vgcreate("vg0", VgCreateOptions.DEFAULTS, List.of(sdb, sdc),
                Map.of("sdb", 512L, "sdc", 512L));
        vg = LvAllocator.lvcreate(vg, LvCreateRequest.builder("root").size("5G").build(), "dm-0");
        return LvAllocator.lvcreate(vg, LvCreateRequest.builder("data").stripes(2).stripeSize(Bytes.kib(64))
                .size("2G").build(), "dm-1");
    }

    @Test
    void rootIsOneLinearTarget() {
        VolumeGroup vg = section45();
        DmTable table = LvTables.table(vg, vg.logicalVolume("root").orElseThrow());
        assertThat(table.format(NUMBERS)).isEqualTo("0 10485760 linear 8:16 2048\n");
        assertThat(table.targets()).containsExactly(
                new LinearTarget(Sectors.ZERO, Sectors.of(10_485_760), "sdb", Sectors.of(2048)));
    }

    @Test
    void dataIsOneStripedTarget() {
        // pv0 PE 1280: 2048 + 1280 x 8192 = 10487808; pv1 PE 0: 2048
        VolumeGroup vg = section45();
        DmTable table = LvTables.table(vg, vg.logicalVolume("data").orElseThrow());
        assertThat(table.format(NUMBERS)).isEqualTo("0 4194304 striped 2 128 8:16 10487808 8:32 2048\n");
        assertThat(table.targets()).containsExactly(new StripedTarget(Sectors.ZERO, Sectors.of(4_194_304), 128,
                List.of(new StripedTarget.Stripe("sdb", Sectors.of(10_487_808)),
                        new StripedTarget.Stripe("sdc", Sectors.of(2048)))));
    }

    @Test
    void oneTargetPerSegment() {
        // §3.4's two PVs of 100 extents, -l 150: 100 extents (819200 s) on sdb, then 50 (409600 s) on sdc,
        // each from pe_start 2048
        PhysicalVolume sdb = new PhysicalVolume("sdb", Sectors.of(2048 + 100 * 8192), Sectors.of(2048),
                Sectors.of(2040), Sectors.ZERO, "vg", 100, Sectors.of(8192));
        PhysicalVolume sdc = new PhysicalVolume("sdc", Sectors.of(2048 + 100 * 8192), Sectors.of(2048),
                Sectors.of(2040), Sectors.ZERO, "vg", 100, Sectors.of(8192));
        VolumeGroup vg = new VolumeGroup("vg", Sectors.of(8192), List.of(sdb, sdc), List.of(),
                AllocationPolicy.NORMAL);
        vg = LvAllocator.lvcreate(vg, LvCreateRequest.builder("lv").extents(150).build(), "dm-0");
        DmTable table = LvTables.table(vg, vg.logicalVolume("lv").orElseThrow());
        assertThat(table.format(NUMBERS)).isEqualTo("0 819200 linear 8:16 2048\n819200 409600 linear 8:32 2048\n");
    }

    @Test
    void offsetsUseTheVgExtentSize() {
        // 1 GiB extents (2097152 s): LE 1 on PE 2 of a PV with pe_start 2753 starts at 2753 + 2 x 2097152
        Sectors gib = Sectors.of(2_097_152);
        PhysicalVolume pv = new PhysicalVolume("sda1", Sectors.of(8_388_545), Sectors.of(2753), Sectors.of(2745),
                Sectors.ZERO, "vg", 3, gib);
        LogicalVolume lv = new LogicalVolume("vg", "lv", List.of(
                new LvSegment(0, 1, Sectors.ZERO, List.of(new StripeArea("sda1", 0))),
                new LvSegment(1, 1, Sectors.ZERO, List.of(new StripeArea("sda1", 2)))), "dm-0");
        VolumeGroup vg = new VolumeGroup("vg", gib, List.of(pv), List.of(lv), AllocationPolicy.NORMAL);
        assertThat(LvTables.table(vg, lv).format(Function.identity()))
                .isEqualTo("0 2097152 linear sda1 2753\n2097152 2097152 linear sda1 4197057\n");
    }

    @Test
    void lvOfAnotherVg() {
        VolumeGroup vg = section45();
        LogicalVolume foreign = new LogicalVolume("vg1", "root", vg.logicalVolume("root").orElseThrow().segments(),
                "dm-7");
        assertThatThrownBy(() -> LvTables.table(vg, foreign))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("LV root belongs to VG vg1, not vg0");
    }

    @Test
    void lvOnAPvTheVgDoesNotHave() {
        VolumeGroup vg = section45();
        LogicalVolume stray = new LogicalVolume("vg0", "stray", List.of(new LvSegment(0, 1, Sectors.ZERO,
                List.of(new StripeArea("sdz", 0)))), "dm-7");
        assertThatThrownBy(() -> LvTables.table(vg, stray))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("LV stray uses PV sdz, which is not in VG vg0");
    }
}
