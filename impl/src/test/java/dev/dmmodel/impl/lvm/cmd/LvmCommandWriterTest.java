package dev.dmmodel.impl.lvm.cmd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.impl.lvm.text.VgMetadataReader;
import dev.dmmodel.impl.format.snapshot.Snapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.ThinDiscards;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@link LvmCommandWriter} writes, with expected commands worked out from the recorded files and LVM's
 * pvcreate rules, and what it says it cannot express.
 */
class LvmCommandWriterTest {

    private static Path snapshot(String name) {
        try {
            return Path.of(LvmCommandWriterTest.class.getResource("/snapshots/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String resource(String name) {
        try (InputStream in = LvmCommandWriterTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> commands(String script) {
        return script.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    }

    private static LayoutBuilder oneDisk() {
        return Layout.builder(KernelProfile.LINUX_6_12).disk("sda", DiskPresets.qemuAhci().withSize(Bytes.gib(1)));
    }

    @Test
    void sizesAreWrittenInTheLargestExactUnit() {
        assertThat(LvmCommandWriter.size(8192)).isEqualTo("4m");
        assertThat(LvmCommandWriter.size(128)).isEqualTo("64k");
        assertThat(LvmCommandWriter.size(2753)).isEqualTo("2753s");
        assertThat(LvmCommandWriter.size(2097152)).isEqualTo("1g");
        assertThat(LvmCommandWriter.size(2049)).isEqualTo("2049s");
        assertThat(LvmCommandWriter.size(3)).isEqualTo("3s");
    }

    /** vgt.vg: data 64 extents at PE 1, metadata 1 at PE 65, the spare 1 at PE 0, chunk 2048 sectors, zeroing. */
    @Test
    void aRecordedThinPoolIsTwoLvsAndAnLvconvertWithTheSpareOnItsExtent() {
        Layout l = Layout.of(Snapshot.read(snapshot("thin-lvm-zy-direct1M")).toLayoutSpec());
        LvmCommandWriter.Result r = LvmCommandWriter.write(l);
        assertThat(r.warnings()).isEmpty();
        assertThat(commands(r.script())).containsExactly(
                "set -e",
                "pvcreate /dev/sda",
                "vgcreate -s 4m vgt /dev/sda",
                "lvcreate --yes -l 64 -n pool vgt /dev/sda:1-64",
                "lvcreate --yes -l 1 -n poolmeta vgt /dev/sda:65-65",
                "lvconvert --yes --type thin-pool --poolmetadata vgt/poolmeta --chunksize 1m --zero y vgt/pool"
                        + " /dev/sda:0-0",
                "lvcreate --yes -V 64m -T vgt/pool -n thin");
    }

    /** pe_start 2753 on sda1 (RAID 5, io_opt 448 KiB = 896 sectors, alignment_offset 33280 B = 65 sectors). */
    @Test
    void aPeStartTheDefaultRuleGivesNeedsNoOption() {
        Layout l = Layout.of(Snapshot.read(snapshot("lp-raid-part63-4M-lv-direct64k")).toLayoutSpec());
        assertThat(l.physicalVolume("sda1").orElseThrow().peStart()).isEqualTo(Sectors.of(3 * 896 + 65));
        assertThat(commands(LvmCommandWriter.write(l).script())).contains("pvcreate /dev/sda1");
    }

    /** --dataalignment 3m: mda0 from 4096 B, 1044480 B long, its end rounded up to 3 MiB: pe_start 6144. */
    @Test
    void anotherPeStartIsADataAlignmentInSectors() {
        Layout l = oneDisk().pvcreate("/dev/sda", PvCreateOptions.DEFAULTS.withDataAlignment(Sectors.of(6144)))
                .vgcreate("vg", "/dev/sda").build();
        assertThat(l.physicalVolume("sda").orElseThrow().peStart()).isEqualTo(Sectors.of(6144));
        LvmCommandWriter.Result r = LvmCommandWriter.write(l);
        assertThat(r.warnings()).isEmpty();
        assertThat(commands(r.script())).contains("pvcreate --dataalignment 6144s /dev/sda");
    }

    /**
     * LVM2 2.00's 384-sector pe_start: --dataalignment 384s alone rounds 2048 up to 2304; with --metadatasize
     * 376s the area ends at 8 + 376 = 384. 2.00's 380-sector area (from 2048 bytes) cannot be had from 2.03.
     */
    @Test
    void aLegacyPeStartNeedsASmallerMetadataArea() {
        Layout l = oneDisk().pvcreate("/dev/sda", PvCreateOptions.LEGACY_2_00).vgcreate("vg", "/dev/sda").build();
        assertThat(l.physicalVolume("sda").orElseThrow().peStart()).isEqualTo(Sectors.of(384));
        LvmCommandWriter.Result r = LvmCommandWriter.write(l);
        assertThat(commands(r.script())).contains("pvcreate --dataalignment 384s --metadatasize 376s /dev/sda");
        assertThat(r.warnings()).singleElement().asString().contains("pe_start 384").contains("380s");
    }

    @Test
    void twoMetadataCopiesAreAskedFor() {
        Layout l = oneDisk().pvcreate("/dev/sda", PvCreateOptions.DEFAULTS.withMetadataCopies(2))
                .vgcreate("vg", "/dev/sda").build();
        LvmCommandWriter.Result r = LvmCommandWriter.write(l);
        assertThat(r.warnings()).isEmpty();
        assertThat(commands(r.script())).contains("pvcreate --pvmetadatacopies 2 /dev/sda");
    }

    @Test
    void poolOptionsThinVolumesAndSnapshotsInDeviceIdOrder() {
        Layout l = oneDisk().pvcreate("/dev/sda").vgcreate("vg", "/dev/sda")
                .lvcreateThinPool("vg", ThinPoolRequest.builder("pool").extents(16).chunkSize("128k").zero(false)
                        .discards(ThinDiscards.IGNORE).errorWhenFull(true).poolMetadataSpare(false).build())
                .lvcreateThin("vg", ThinLvRequest.of("a", "1G", "pool"))
                .lvcreateThin("vg", ThinLvRequest.of("b", "8M", "pool"))
                .lvcreateSnapshot("vg", new ThinSnapshotRequest("a", "snap"))
                .build();
        LvmCommandWriter.Result r = LvmCommandWriter.write(l);
        assertThat(r.warnings()).isEmpty();
        List<String> c = commands(r.script());
        assertThat(c).filteredOn(x -> x.startsWith("lvconvert")).singleElement().asString()
                .contains(" --chunksize 128k --zero n --discards ignore --errorwhenfull y --poolmetadataspare n vg/pool");
        assertThat(c.subList(c.size() - 3, c.size())).containsExactly(
                "lvcreate --yes -V 1g -T vg/pool -n a",
                "lvcreate --yes -V 8m -T vg/pool -n b",
                "lvcreate --yes -s vg/a -n snap");
    }

    @Test
    void aClassicSnapshotIsOneLvcreateWithItsCowRangeAndChunkAndParsesBackToTheSameLayout() {
        // 64 MiB origin = 16 extents at PE 0; a 32 MiB COW store = 8 extents = 65536 sectors at PE 16-23; chunk 64k
        Layout l = oneDisk().pvcreate("/dev/sda").vgcreate("vg", "/dev/sda")
                .lvcreate("vg", LvCreateRequest.builder("origin").size("64M").build())
                .lvcreateCowSnapshot("vg", new dev.dmmodel.lvm.CowSnapshotRequest("origin", "snap", Bytes.mib(32),
                        Sectors.of(128), List.of()))
                .build();
        LvmCommandWriter.Result r = LvmCommandWriter.write(l);
        assertThat(r.warnings()).isEmpty();
        assertThat(commands(r.script())).endsWith("lvcreate --yes -s -L 32m -c 64k -n snap vg/origin /dev/sda:16-23");
        LayoutBuilder b = oneDisk();
        LvmCommandParser.parse(r.script(), "w.sh").forEach(b::step);
        Layout again = b.build();
        assertThat(again.dmsetupTable()).isEqualTo(l.dmsetupTable());
        assertThat(again.volumeGroups()).isEqualTo(l.volumeGroups());
    }

    @Test
    void aDmDeviceThatIsNoLvIsNotExpressible() {
        Layout l = oneDisk().disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.gib(1)))
                .pvcreate("/dev/sda").vgcreate("vg", "/dev/sda")
                .dmsetupCreate("plain", t -> t.add(new LinearTarget(Sectors.ZERO, Sectors.of(8), "/dev/sdb",
                        Sectors.ZERO)))
                .build();
        LvmCommandWriter.Result r = LvmCommandWriter.write(l);
        assertThat(r.warnings()).singleElement().asString().contains("dm device plain");
        assertThat(r.script()).contains("\n# not expressible: dm device plain (dm-0)")
                .contains("# 1 thing(s) are not expressible");
    }

    /** A thin LV whose id is not the next one (an LV removed before) cannot be had from lvcreate. */
    @Test
    void aThinDeviceIdWithAGapIsNotExpressible() {
        String text = resource("/lvmtext/thin-lvm-zy-direct1M.vg").replace("device_id = 1", "device_id = 5");
        VolumeGroup vg = VgMetadataReader.read(text, "gap.vg");
        Layout l = oneDisk().importVolumeGroup(vg).build();
        LvmCommandWriter.Result r = LvmCommandWriter.write(l);
        assertThat(r.warnings()).singleElement().asString().contains("device_id 5").contains("gives it 1");
        assertThat(r.script()).contains("# not expressible: thin LV vgt/thin has device_id 5");
    }

    /** Stripes listed in another order than their PVs' (pv1 first) keep that order through the commands. */
    @Test
    void stripesOutOfPvOrderKeepTheirOrder() {
        String text = resource("/lvmtext/ss-str-1M-at0.vg").replace("\"pv0\", 0,\n\t\t\t\t\t\"pv1\", 0",
                "\"pv1\", 0,\n\t\t\t\t\t\"pv0\", 0");
        assertThat(text).contains("\"pv1\", 0,\n\t\t\t\t\t\"pv0\", 0");
        VolumeGroup vg = VgMetadataReader.read(text, "swapped.vg");
        LayoutBuilder disks = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.mib(256)))
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.mib(256)));
        Layout imported = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.qemuAhci().withSize(Bytes.mib(256)))
                .disk("sdb", DiskPresets.qemuAhci().withSize(Bytes.mib(256))).importVolumeGroup(vg).build();
        LvmCommandWriter.Result r = LvmCommandWriter.write(imported);
        assertThat(r.warnings()).isEmpty();
        assertThat(commands(r.script())).contains("lvcreate --yes -l 16 -n striped -i 2 -I 64k vg /dev/sdb:0-7"
                + " /dev/sda:0-7");
        LvmCommandParser.parse(r.script(), "swapped").forEach(disks::step);
        assertThat(VolumeGroupDiff.differences(vg, disks.build().volumeGroup("vg").orElseThrow())).isEmpty();
    }

    /** lvconvert names a new spare lvolN after the LVs that exist then: here lvol0_pmspare, not lvol3_pmspare. */
    @Test
    void aSpareNameLvconvertWouldNotGiveIsNotExpressible() {
        String text = resource("/lvmtext/thin-lvm-zy-direct1M.vg").replace("lvol0_pmspare", "lvol3_pmspare");
        Layout l = oneDisk().importVolumeGroup(VgMetadataReader.read(text, "spare.vg")).build();
        LvmCommandWriter.Result r = LvmCommandWriter.write(l);
        assertThat(r.warnings()).singleElement().asString().contains("vgt/lvol3_pmspare")
                .contains("lvconvert names it lvol0_pmspare");
    }
}
