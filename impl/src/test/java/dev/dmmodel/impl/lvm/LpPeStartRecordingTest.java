package dev.dmmodel.impl.lvm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The eight combinations recorded with LVM 2.03.16 on Linux 6.1
 * ({@code shared/kernel-traces/lp-pe-start-summary.txt}, setup in {@code lp-*}/README.txt): 4 GiB disks,
 * "raid" with io_min 65536 and io_opt 458752, "plain" without hints; PV on the whole disk or on a partition
 * at sector 63 (alignment_offset 33280 on the raid disk, 0 on the plain one); then
 * {@code vgcreate -s 4M|1G vg PV} and {@code lvcreate -L 1G -n lv vg}.
 */
class LpPeStartRecordingTest {

    /** 4 GiB in sectors (README.txt: "4 GiB sparse files", 512-byte sectors). */
    static final long DISK_SECTORS = 8_388_608;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // combo,           part start, io_min, io_opt, align_off, pe_start, lv_start_on_disk
        "raid-part63-4M,    63, 65536, 458752, 33280, 2753, 2816",
        "raid-part63-1G,    63, 65536, 458752, 33280, 2753, 2816",
        "raid-whole-4M,      0, 65536, 458752,     0, 2688, 2688",
        "raid-whole-1G,      0, 65536, 458752,     0, 2688, 2688",
        "plain-part63-4M,   63,     0,      0,     0, 2048, 2111",
        "plain-part63-1G,   63,     0,      0,     0, 2048, 2111",
        "plain-whole-4M,     0,     0,      0,     0, 2048, 2048",
        "plain-whole-1G,     0,     0,      0,     0, 2048, 2048",
    })
    void peStartAndLvStart(String combo, long partitionStart, long ioMin, long ioOpt, long alignmentOffset,
                           long peStart, long lvStartOnDisk) {
        // the partition runs from its start to the end of the disk
        Sectors devSize = Sectors.of(DISK_SECTORS - partitionStart);
        PvTopology topo = new PvTopology(ioMin, ioOpt, alignmentOffset, 512, 4096, 0);
        PhysicalVolume pv = PvCreate.pvcreate("sda1", devSize, topo, PvCreateOptions.DEFAULTS);
        assertThat(pv.peStart()).isEqualTo(Sectors.of(peStart));

        Sectors extent = combo.endsWith("4M") ? Sectors.of(8192) : Sectors.of(2_097_152);
        VolumeGroup vg = VgCreate.vgcreate("vg", VgCreateOptions.DEFAULTS.withExtentSize(extent), List.of(pv),
                Map.of("sda1", 512L));
        vg = LvAllocator.lvcreate(vg, LvCreateRequest.builder("lv").size("1G").build(), "dm-0");
        LogicalVolume lv = vg.logicalVolume("lv").orElseThrow();
        DmTable table = LvTables.table(vg, lv);

        // lv_table_offset = pe_start; lv_start_on_disk = partition_start + lv_table_offset
        LinearTarget first = (LinearTarget) table.targets().get(0);
        assertThat(first.offset()).isEqualTo(Sectors.of(peStart));
        assertThat(partitionStart + first.offset().count()).isEqualTo(lvStartOnDisk);
        assertThat(table.size()).isEqualTo(Sectors.of(2_097_152)); // -L 1G
    }

    @Test
    void raidPart63MetadataAreaAndVgMatchTheRecordedReports() {
        // lp-raid-part63-4M-lv-direct64k/snapshot/lvm: dev_size 8388545S, pe_start 2753S, pv_mda_size 2745S,
        // pv_pe_count 1023, vg_free_count 767, dmsetup table "vg-lv: 0 2097152 linear 8:1 2753"
        PhysicalVolume pv = PvCreate.pvcreate("sda1", Sectors.of(8_388_545),
                new PvTopology(65_536, 458_752, 33_280, 512, 4096, 0), PvCreateOptions.DEFAULTS);
        assertThat(pv.mdaSize()).isEqualTo(Sectors.of(2745)); // 2753 - 8 (mda0 starts at 4096 B)

        VolumeGroup vg = VgCreate.vgcreate("vg", VgCreateOptions.DEFAULTS, List.of(pv), Map.of("sda1", 512L));
        assertThat(vg.physicalVolumes().get(0).peCount()).isEqualTo(1023);
        vg = LvAllocator.lvcreate(vg, LvCreateRequest.builder("lv").size("1G").build(), "dm-0");
        assertThat(vg.freeCount()).isEqualTo(767);
        String line = LvTables.table(vg, vg.logicalVolume("lv").orElseThrow())
                .format(d -> Map.of("sda1", "8:1").get(d));
        assertThat(line).isEqualTo("0 2097152 linear 8:1 2753\n");
    }
}
