package dev.dmmodel.impl.lvm.cmd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.ExtentRange;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.LvExtendRequest;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.ThinDiscards;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolConvertRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hand-written scripts in the forms LVM accepts, and the lines the parser refuses, with where and why. */
class LvmCommandParserTest {

    private static List<LayoutStep> parse(String script) {
        return LvmCommandParser.parse(script, "test.sh");
    }

    @Test
    void pvcreateAndVgcreateWithUnitsLongAndShortOptions() {
        assertThat(parse("""
                #!/bin/bash
                set -eu
                sudo pvcreate --dataalignment=3m --metadatasize 100k /dev/sda /dev/sdb  # two PVs
                pvcreate --pvmetadatacopies 2 --dataalignmentoffset 7s -y /dev/sdc
                /sbin/vgcreate -s 1G --alloc=anywhere vg \\
                    /dev/sda /dev/sdb
                vgcreate --physicalextentsize 8 vg2 /dev/sdc
                """)).containsExactly(
                new LayoutStep.PvCreate("/dev/sda", PvCreateOptions.DEFAULTS.withDataAlignment(Sectors.of(6144))
                        .withMetadataSize(Sectors.of(200))),
                new LayoutStep.PvCreate("/dev/sdb", PvCreateOptions.DEFAULTS.withDataAlignment(Sectors.of(6144))
                        .withMetadataSize(Sectors.of(200))),
                new LayoutStep.PvCreate("/dev/sdc", PvCreateOptions.DEFAULTS.withMetadataCopies(2)
                        .withDataAlignmentOffset(Sectors.of(7))),
                new LayoutStep.VgCreate("vg", VgCreateOptions.DEFAULTS.withExtentSize(Sectors.of(2_097_152))
                        .withAllocationPolicy(AllocationPolicy.ANYWHERE), List.of("/dev/sda", "/dev/sdb")),
                new LayoutStep.VgCreate("vg2", VgCreateOptions.DEFAULTS.withExtentSize(Sectors.of(16384)),
                        List.of("/dev/sdc")));
    }

    @Test
    void lvcreateAndLvextendWithRangesInEveryForm() {
        assertThat(parse("""
                vgcreate -s 4m vg /dev/sda /dev/sdb
                lvcreate --extents=10 --name lv vg /dev/sda:0-4:10+5
                lvcreate -L 64 -nst -i2 -I64 --alloc cling vg /dev/sda /dev/sdb:7
                lvextend -L +8m vg/lv /dev/sdb:30-31
                lvextend -l +3 -i 2 -I 128k /dev/vg/st
                """)).containsExactly(
                new LayoutStep.VgCreate("vg", VgCreateOptions.DEFAULTS, List.of("/dev/sda", "/dev/sdb")),
                new LayoutStep.LvCreate("vg", LvCreateRequest.builder("lv").extents(10).onRanges(List.of(
                        new ExtentRange("/dev/sda", 0, 5), new ExtentRange("/dev/sda", 10, 5))).build()),
                new LayoutStep.LvCreate("vg", LvCreateRequest.builder("st").size(Bytes.mib(64)).stripes(2)
                        .stripeSize(Bytes.kib(64)).policy(AllocationPolicy.CLING).onPvs("/dev/sda")
                        .onRanges(List.of(new ExtentRange("/dev/sdb", 7, 1))).build()),
                // +8 MiB of 4 MiB extents: 2 extents
                new LayoutStep.LvExtend("vg", new LvExtendRequest("lv", 2, 0, null, AllocationPolicy.INHERIT,
                        List.of(), List.of(new ExtentRange("/dev/sdb", 30, 2)))),
                new LayoutStep.LvExtend("vg", new LvExtendRequest("st", 3, 2, Bytes.kib(128),
                        AllocationPolicy.INHERIT, List.of(), List.of())));
    }

    @Test
    void thinPoolsThinVolumesSnapshotsAndConversions() {
        assertThat(parse("""
                lvcreate --type thin-pool -L 100m -n pool --chunksize 128 --zero n --discards nopassdown vg /dev/sda
                lvcreate -T vg/pool2 -l 20 --poolmetadataspare n --errorwhenfull y vg
                lvcreate -V 1G --thinpool pool vg -n thin
                lvcreate -V1g -T vg/pool
                lvcreate -s vg/thin -n snap
                lvconvert --thinpool vg/data --poolmetadata meta -c 64k --yes /dev/sdb:0-0
                lvconvert --type thin-pool --poolmetadata vg/meta2 -Zy vg/data2 /dev/sdb
                """)).containsExactly(
                new LayoutStep.ThinPoolCreate("vg", ThinPoolRequest.builder("pool").size(Bytes.mib(100))
                        .chunkSize(Bytes.kib(128)).zero(false).discards(ThinDiscards.NOPASSDOWN).onPvs("/dev/sda")
                        .build()),
                // -T vg/pool2 names the pool; the second positional "vg" would be a PV: here it is the VG again
                new LayoutStep.ThinPoolCreate("vg", ThinPoolRequest.builder("pool2").extents(20)
                        .poolMetadataSpare(false).errorWhenFull(true).onPvs("vg").build()),
                new LayoutStep.ThinLvCreate("vg", new ThinLvRequest("thin", Bytes.gib(1), "pool")),
                new LayoutStep.ThinLvCreate("vg", new ThinLvRequest("", Bytes.gib(1), "pool")),
                new LayoutStep.ThinSnapshotCreate("vg", new ThinSnapshotRequest("thin", "snap")),
                new LayoutStep.ThinPoolConvert("vg", new ThinPoolConvertRequest("data", "meta", Bytes.kib(64), null,
                        null, false, ThinPoolRequest.ChunkPolicy.GENERIC, true, List.of(),
                        List.of(new ExtentRange("/dev/sdb", 0, 1)))),
                new LayoutStep.ThinPoolConvert("vg", new ThinPoolConvertRequest("data2", "meta2", null, true, null,
                        false, ThinPoolRequest.ChunkPolicy.GENERIC, true, List.of("/dev/sdb"), List.of())));
    }

    @Test
    void aClassicSnapshotWithASize() {
        // the recorded 14-lvm-snapshot.sh: lvcreate -s -L 32M -c 64k -n snap vgs/origin (64 KiB = 128 sectors)
        assertThat(parse("lvcreate -s -L 32M -c 64k -n snap vgs/origin\n")).containsExactly(
                new LayoutStep.CowSnapshotCreate("vgs", new dev.dmmodel.lvm.CowSnapshotRequest("origin", "snap",
                        dev.dmmodel.units.Bytes.mib(32), dev.dmmodel.units.Sectors.of(128), List.of())));
        // without -c: LVM's 4 KiB; without -n: lvolN; PVs after the origin
        assertThat(parse("lvcreate --snapshot --size 1g vg/lv /dev/sdb\n")).containsExactly(
                new LayoutStep.CowSnapshotCreate("vg", new dev.dmmodel.lvm.CowSnapshotRequest("lv", "",
                        dev.dmmodel.units.Bytes.gib(1), dev.dmmodel.units.Sectors.of(8), List.of("/dev/sdb"))));
    }

    private static void refused(String script, int line, int column, String... inMessage) {
        assertThatThrownBy(() -> parse(script)).isInstanceOf(LvmCommandException.class)
                .satisfies(e -> {
                    LvmCommandException x = (LvmCommandException) e;
                    assertThat(x.lineNumber()).as("line in %s", x.getMessage()).isEqualTo(line);
                    assertThat(x.column()).as("column in %s", x.getMessage()).isEqualTo(column);
                    assertThat(x.source()).isEqualTo("test.sh");
                    for (String s : inMessage) {
                        assertThat(x.getMessage()).contains(s);
                    }
                });
    }

    @Test
    void fractionalSizesAreReadAsLvcreateReadsThem() {
        // _size_arg reads the number with strtod: 1.5G = 1.5 x 2^30 = 1610612736 bytes; 0.5m = 524288
        assertThat(parse("""
                lvcreate -L 1.5G -n a vg
                lvcreate -L 0.5m -n b vg
                """)).containsExactly(
                new LayoutStep.LvCreate("vg", LvCreateRequest.builder("a").size(Bytes.of(1_610_612_736L)).build()),
                new LayoutStep.LvCreate("vg", LvCreateRequest.builder("b").size(Bytes.of(524_288)).build()));
        // 0.3k = 307.2 bytes is no whole byte count; 1.1k = 1126.4 neither; 0.25k = 256 bytes is not a sector
        refused("lvcreate -L 0.3k -n x vg\n", 1, 13, "a whole number of bytes");
        refused("lvcreate -L 0.25k -n x vg\n", 1, 13, "a whole number of 512-byte sectors");
        // LVM's name rule (validate_name): "." and ".." are refused although their characters are allowed
        refused("lvcreate -L 4m -n .. vg\n", 1, 19, "Name starts with . or .. and has no following character(s).");
    }

    @Test
    void refusedLinesSayWhereWhatAndWhatWasExpected() {
        refused("pvcreate /dev/sda\nlvremove vg/lv\n", 2, 1, "test.sh:2:1: command: found 'lvremove'",
                "expected pvcreate, vgcreate");
        refused("lvcreate -l 99999999999999999999 -n x vg\n", 1, 13, "-l: found '99999999999999999999'");
        refused("lvcreate -l 10%VG -n x vg\n", 1, 13, "no % forms");
        refused("lvextend -l 5 vg/lv\n", 1, 13, "expected +N");
        refused("lvextend -L +8m vg/lv\n", 1, 13, "a vgcreate of vg earlier in the script");
        refused("pvcreate --dataalignment 1b /dev/sda\n", 1, 26, "a whole number of 512-byte sectors");
        refused("pvcreate --pvmetadatacopies 3 /dev/sda\n", 1, 29, "0, 1 or 2");
        refused("lvcreate -l 1 -n 'x vg\n", 1, 18, "a closing '");
        refused("lvcreate -l 1 -n x vg; rm -rf /\n", 1, 22, "one plain command a line");
        refused("lvcreate -l 1 -n x -i 129 vg\n", 1, 23, "1 to 128");
        refused("lvcreate -l 1 vg\n", 1, 15, "-n NAME");
        refused("lvcreate -l 1 -n x --bogus vg\n", 1, 20, "option: found '--bogus'");
        refused("lvcreate -l 1 -n x vg /dev/sda:5-2\n", 1, 23, "an end extent not below the start");
        refused("lvcreate -s -l 8 vg/x\n", 1, 16, "no -l for lvcreate -s -L of a classic snapshot");
        refused("lvcreate -s -L 1g -c 3k vg/x\n", 1, 22, "Chunk size 6 sectors must be a power of 2");
        refused("lvcreate -s -L 1g vg\n", 1, 19, "VG/ORIGIN");
        refused("lvconvert --type raid1 vg/x\n", 1, 18, "thin-pool");
        refused("lvconvert --type thin-pool vg/x\n", 1, 1, "--poolmetadata");
        refused("lvcreate -l 1 -n x vg \\", 1, 23, "a continued line");
        refused("lvcreate -l 1 -n x -a n vg\n", 1, 23, "y (the model activates every new LV)");
    }
}
