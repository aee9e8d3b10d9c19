package dev.dmmodel.impl.plan.kickstart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.device.Partition;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.plan.PlanFormat;
import dev.dmmodel.plan.PlanResult;
import dev.dmmodel.units.Bytes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kickstart plans on a 20 GiB disk: partitions, VGs and LVs as anaconda/blivet size them, worked by hand from
 * blivet/partitioning.py, blivet/devices/lvm.py and libparted's alignment. A 20 GiB 512e disk has 41943040
 * sectors; its GPT free region is 34..41943006; libparted's optimal grain is 2048 sectors (1 MiB).
 */
class KickstartPlanTest {

    static LayoutSpec host(DiskSpec disk) {
        return Layout.builder(KernelProfile.LINUX_6_12).disk("sda", disk).build().spec().orElseThrow();
    }

    static LayoutSpec sata20() {
        return host(DiskPresets.ahciSata().withSize(Bytes.gib(20)));
    }

    static PlanResult apply(String ks, LayoutSpec host) {
        Plan plan = Plan.parse(ks, "ks.cfg");
        assertThat(plan.format()).isEqualTo(PlanFormat.KICKSTART);
        PlanResult r = plan.applyTo(host);
        assertThat(r.failure()).as("failure").isEmpty();
        return r;
    }

    static Partition part(PlanResult r, String name) {
        return r.layout().partitions().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    static long lvExtents(PlanResult r, String vg, String lv) {
        return r.layout().logicalVolume(vg, lv).orElseThrow().extentCount();
    }

    private static final String STANDARD = """
            # a typical anaconda kickstart
            lang en_US.UTF-8
            rootpw --plaintext secret
            bootloader --location=mbr
            clearpart --all --initlabel
            part /boot --size=1024
            part pv.01 --size=1 --grow
            volgroup vg pv.01
            logvol / --vgname=vg --name=root --size=10240
            logvol swap --vgname=vg --name=swap --size=2048
            logvol /home --vgname=vg --name=home --size=1 --grow
            %packages
            @core
            %end
            %post
            part /nonsense --size=1
            %end
            """;

    @Test
    void standardLayoutOnA20GibDisk() {
        PlanResult r = apply(STANDARD, sata20());
        // partition_compare: /boot (weight 2000) first. It goes in the first region that fits, 34..41943006:
        // the start aligned to the nearest 2048-multiple inside it is 2048; 1 GiB = 2097152 sectors -> 2048-2099199.
        // pv.01 (1 MiB, grow) in the largest region 2099200..41943006: 2099200-2101247.
        // grow_partitions: the chunk is the free region aligned, 2048..41940991 (41943039 is the last sector
        // one before a grain boundary; minus 2048 to fit), 41938944 sectors; pool = 41938944 - 2097152 - 2048 =
        // 39839744, all to pv.01: 2048 + 39839744 = 39841792 sectors, 2099200-41940991 (19454 MiB)
        assertThat(part(r, "sda1").start().count()).isEqualTo(2048);
        assertThat(part(r, "sda1").size().count()).isEqualTo(2097152);
        assertThat(part(r, "sda2").start().count()).isEqualTo(2099200);
        assertThat(part(r, "sda2").size().count()).isEqualTo(39841792);
        assertThat(r.entries().get(1).results()).contains("/boot on sda1: sectors 2048-2099199 (1024 MiB)",
                "mkfs.ext4 /dev/sda1: /dev/sda1: ext4, sector size 512 (the device's logical_block_size)");
        assertThat(r.entries().get(2).results()).contains("pv.01 on sda2: sectors 2099200-41940991 (19454 MiB)");
        // blivet's VG: 19454 MiB - 1 MiB pe_start = 19453, down to 4 MiB: 19452 MiB = 4863 extents; LVM agrees:
        // (39841792 - 2048) / 8192 = 4863
        assertThat(r.entries().get(3).results()).containsExactly(
                "blivet: 4863 extents of 4 MiB (each PV less its 1 MiB pe_start)",
                "vgcreate -s 4096K vg /dev/sda2: VG vg: extent size 4MiB, 4863 extents (sda2 4863), 4863 free");
        // grow_lvm: root 2560 + swap 512 fixed, home base 1 extent (1 MiB rounded up); pool 4863 - 3073 = 1790
        // all to home: 1791 extents = 7164 MiB = 7335936 KiB (libblockdev passes -L in KiB)
        assertThat(r.entries().get(4).results().get(1)).startsWith("lvcreate -n root -L 10485760K -y vg: ");
        assertThat(r.entries().get(5).results().get(1)).startsWith("lvcreate -n swap -L 2097152K -y vg: ");
        assertThat(r.entries().get(6).results().get(1)).startsWith("lvcreate -n home -L 7335936K -y vg: ");
        assertThat(lvExtents(r, "vg", "root")).isEqualTo(2560);
        assertThat(lvExtents(r, "vg", "home")).isEqualTo(1791);
        assertThat(r.layout().volumeGroup("vg").orElseThrow().freeCount()).isZero();
        // lines in anaconda's order; %post's "part" line is not read
        assertThat(r.entries()).extracting(e -> e.line()).containsExactly(5, 6, 7, 8, 9, 10, 11);
    }

    @Test
    void twoGrowPartitionsShareTheSpaceByTheirBaseSizes() {
        PlanResult r = apply("""
                clearpart --all
                part /a --size=1000 --grow
                part /b --size=3000 --grow
                """, sata20());
        // partition_compare(/a, /b): the larger request first (+50), mount /a < /b (-10): /b is placed first:
        // /b 2048-6146047 (3000 MiB = 6144000 sectors), /a 6146048-8194047 (2048000 sectors).
        // chunk 2048..41940991 (41938944): pool = 41938944 - 8192000 = 33746944; shares 6144000/8192000 = 0.75
        // and 0.25 of it: /b +25310208, /a +8436736.
        // /b: 2048 + 6144000 + 25310208 - 1 = 31456255 is no grain end: down to 31455231 (15358 MiB);
        // /a from 31455232: + 2048000 + 8436736 - 1 = 41939967, down to 41938943 (10483712 sectors, 5119 MiB)
        assertThat(part(r, "sda1").start().count()).isEqualTo(2048);
        assertThat(part(r, "sda1").size().count()).isEqualTo(31453184);
        assertThat(part(r, "sda2").start().count()).isEqualTo(31455232);
        assertThat(part(r, "sda2").size().count()).isEqualTo(10483712);
        // the first part line places both; each line reports its own partition
        assertThat(r.entries().get(1).results()).contains("/a on sda2: sectors 31455232-41938943 (5119 MiB)");
        assertThat(r.entries().get(2).results()).contains("/b on sda1: sectors 2048-31455231 (15358 MiB)");
    }

    @Test
    void maxsizeCapsAGrowPartitionAndTheRestGoesToTheOther() {
        PlanResult r = apply("""
                clearpart --all
                part /a --size=1000 --grow --maxsize=2000
                part /b --size=1000 --grow
                """, sata20());
        // equal sizes; a capped grow request after an uncapped one (+25), /a < /b (-10): /b first at 2048,
        // /a at 2050048. pool 41938944 - 4096000 = 37842944, halves of 18921472; /a's max growth is
        // 4096000 - 2048000 = 2048000, so 16873472 goes back and all of it to /b on the next pass:
        // /b 2048000 + 35794944 = 37842944 sectors (2048-37844991, 18478 MiB), /a 4096000 (2000 MiB) to 41940991
        assertThat(part(r, "sda1").size().count()).isEqualTo(37842944);
        assertThat(part(r, "sda2").start().count()).isEqualTo(37844992);
        assertThat(part(r, "sda2").size().count()).isEqualTo(4096000);
    }

    @Test
    void percentIsOfTheFreeExtentsBlivetCounts() {
        PlanResult r = apply("""
                clearpart --all
                part pv.01 --size=1 --grow
                volgroup vg pv.01
                logvol / --vgname=vg --name=root --size=4096
                logvol /var --vgname=vg --name=var --percent=50
                """, sata20());
        // pv.01 alone: 2048-41940991 = 41938944 sectors = 20478 MiB; VG (20478 - 1) down to 4 MiB = 20476 MiB =
        // 5119 extents; free after root: 20476 - 4096 = 16380 MiB = 4095 extents; int(50 * 0.01 * 4095) = 2047
        // extents = 8188 MiB = 8384512 KiB
        assertThat(r.entries().get(4).results().get(1)).startsWith("lvcreate -n var -L 8384512K -y vg: ");
        assertThat(lvExtents(r, "vg", "var")).isEqualTo(2047);
    }

    @Test
    void aThinPoolGrowsThenGivesUpItsMetadataAndThePmspare() {
        PlanResult r = apply("""
                clearpart --all
                part pv.01 --size=1 --grow
                volgroup vg pv.01
                logvol none --vgname=vg --name=pool --thinpool --size=1000 --grow
                logvol / --vgname=vg --name=root --thin --poolname=pool --size=8192
                """, sata20());
        // VG 5119 extents; the pool (base 250 extents) grows to all 5119 = 20476 MiB; autoset_md_size: chunk
        // 64 KiB (below 15.88 TiB), metadata 64 * 21470642176 / 65536 = 20967424 bytes, up to 4 MiB: 20 MiB;
        // the pool gives up its metadata and the new pmspare: 20476 - 20 - 20 = 20436 MiB = 20926464 KiB
        assertThat(r.entries().get(3).results().get(0)).isEqualTo("blivet: 20436 MiB, metadata 20 MiB, chunk 64 KiB");
        assertThat(r.entries().get(3).results().get(1)).startsWith(
                "lvcreate -T -L 20926464K --poolmetadatasize=20480K --chunksize=64K vg/pool: ");
        assertThat(r.entries().get(4).results().get(1)).startsWith("lvcreate -T vg/pool -V 8388608K -n root: ");
        assertThat(r.layout().logicalVolume("vg", "root")).isPresent();
    }

    @Test
    void a4knDiskCountsInItsOwnSectors() {
        PlanResult r = apply(STANDARD, host(DiskPresets.scsiDebug(4096, 4096, 0).withSize(Bytes.gib(20))));
        // 5242880 logical sectors; GPT free 6..5242874 (2 + 16 KiB of entries at each end); grain 256 (1 MiB).
        // /boot 256 + 262144; pv.01 grows in the chunk 256..5242623 to 5242623: in 512-byte sectors the same
        // 2048-2099199 and 2099200-41940991 as the 512e disk
        assertThat(part(r, "sda1").start().count()).isEqualTo(2048);
        assertThat(part(r, "sda2").start().count()).isEqualTo(2099200);
        assertThat(part(r, "sda2").size().count()).isEqualTo(39841792);
        assertThat(lvExtents(r, "vg", "home")).isEqualTo(1791);
    }

    @Test
    void optimalIoSize448KibMovesEveryBoundaryTo896Sectors() {
        PlanResult r = apply(STANDARD, host(DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64))
                .withSize(Bytes.gib(20))));
        // io_opt 448 KiB does not divide 1 MiB: libparted's grain is 896 sectors. align_size_for_disklabel
        // rounds 1 GiB up to 896 *bytes*: 1073742208, 2097152 sectors; /boot starts at 896 and its end
        // 2098047 is moved up to 2098431 (one before a multiple of 896): 2097536 sectors.
        // pv.01: 1 MiB -> 1049216 bytes, 2049 sectors from 2098432, end up to 2101119; the chunk is
        // 896..41942655 (41941760 sectors); pool 41941760 - 2097536 - 2688 = 39841536: pv.01 = 39844224 sectors
        assertThat(part(r, "sda1").start().count()).isEqualTo(896);
        assertThat(part(r, "sda1").size().count()).isEqualTo(2097536);
        assertThat(part(r, "sda2").start().count()).isEqualTo(2098432);
        assertThat(part(r, "sda2").size().count()).isEqualTo(39844224);
        // LVM's pe_start is 3 * 896 = 2688 (the 1 MiB default rounded up to io_opt): (39844224 - 2688) / 8192
        // = 4863 extents; blivet's (20400242688 - 1 MiB) / 4 MiB = 4863 too
        assertThat(r.entries().get(2).results().get(1)).isEqualTo(
                "pvcreate /dev/sda2 -y: /dev/sda2: pe_start 2688s, data alignment 448KiB from optimal_io_size (2688 = a "
                        + "multiple of it)");
        assertThat(lvExtents(r, "vg", "home")).isEqualTo(1791);
    }

    @Test
    void theRhelDocumentationLayout() {
        // the layout anaconda writes to anaconda-ks.cfg (RHEL installation guide's kickstart example)
        PlanResult r = apply("""
                ignoredisk --only-use=sda
                clearpart --none --initlabel
                part /boot --fstype="xfs" --ondisk=sda --size=512
                part pv.01 --fstype="lvmpv" --ondisk=sda --size=1 --grow
                volgroup rhel --pesize=4096 pv.01
                logvol / --fstype="xfs" --grow --maxsize=51200 --size=1024 --name=root --vgname=rhel
                logvol swap --fstype="swap" --size=2047 --name=swap --vgname=rhel
                """, sata20());
        // /boot 2048-1050623 (512 MiB); pv.01 1050624-41940991 = 40890368 sectors = 19966 MiB;
        // VG (19966 - 1) down to 4 MiB = 19964 MiB = 4991 extents. swap 2047 MiB uses 512 extents (rounded up);
        // root base 256, max 12800 (51200 MiB): pool 4991 - 768 = 4223 -> root 4479 extents = 17916 MiB
        assertThat(part(r, "sda2").size().count()).isEqualTo(40890368);
        assertThat(r.entries().get(5).results().get(1)).startsWith("lvcreate -n root -L 18345984K -y rhel: ");
        assertThat(r.entries().get(6).results().get(1)).startsWith("lvcreate -n swap -L 2096128K -y rhel: ");
        assertThat(lvExtents(r, "rhel", "swap")).isEqualTo(512);
        assertThat(lvExtents(r, "rhel", "root")).isEqualTo(4479);
        assertThat(r.setup().toString()).contains("mkfs.xfs");
    }

    @Test
    void msdosMakesAnExtendedPartitionForTheFourth() {
        PlanResult r = apply("""
                clearpart --all --initlabel --disklabel=msdos
                part /boot --size=1024
                part swap --size=1024
                part /a --size=1024
                part /b --size=1024
                """, sata20());
        // get_next_partition_type: with 3 primaries and no extended, the next is EXTENDED. msdos free space is
        // 63..41943038; /boot 2048, swap 2099200, /a 4196352 (1 GiB each). The extended takes the largest region
        // from 6293504; its end 41943038 aligned up has no room, so parted aligns it down: 41940991. Inside it
        // libparted keeps a track (63 sectors) for its table: the logical's start 6293567 goes to the nearest
        // grain, 6295552, plus one grain for its EBR (add_partition): 6297600
        assertThat(part(r, "sda4").start().count()).isEqualTo(6293504);
        assertThat(part(r, "sda4").size().count()).isEqualTo(2);
        assertThat(part(r, "sda5").start().count()).isEqualTo(6297600);
        assertThat(part(r, "sda5").size().count()).isEqualTo(2097152);
    }

    @Test
    void failuresInBlivetsWords() {
        PlanResult tooBig = Plan.parse("clearpart --all\npart /data --size=30000\n", "big.ks").applyTo(sata20());
        assertThat(tooBig.failure()).hasValueSatisfying(f -> assertThat(f.toString())
                .isEqualTo("big.ks:2: part: Unable to allocate requested partition scheme."));
        PlanResult lv = Plan.parse("clearpart --all\npart pv.01 --size=1 --grow\nvolgroup vg pv.01\n"
                + "logvol / --vgname=vg --name=root --size=30000\n", "lv.ks").applyTo(sata20());
        // the VG has 5119 extents = 20476 MiB
        assertThat(lv.failure()).hasValueSatisfying(f -> assertThat(f.toString())
                .isEqualTo("lv.ks:3: volgroup: new lv is too large to fit in free space: volume group vg has "
                        + "20476 MiB free, logvol root needs 30000 MiB"));
        PlanResult noDisk = Plan.parse("part / --size=100 --ondisk=sdz\n", "d.ks").applyTo(sata20());
        assertThat(noDisk.failure()).hasValueSatisfying(f -> assertThat(f.message())
                .isEqualTo("Disk \"sdz\" given in part command does not exist."));
        assertThat(List.of(tooBig.entries().size())).containsExactly(1);
    }
}
