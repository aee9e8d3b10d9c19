package dev.dmmodel.impl.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.MdDevice;
import dev.dmmodel.impl.format.snapshot.Snapshot;
import dev.dmmodel.impl.lvm.cmd.VolumeGroupDiff;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.plan.PlanFormat;
import dev.dmmodel.plan.PlanResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The setups the recordings describe in their READMEs — LVM on a hardware-RAID disk (6.1); mdadm, pvcreate,
 * vgcreate, lvcreate of RAID LVs and classic snapshots, cryptsetup (6.12 stacks) — written as provisioning plans and dry-run on the recorded disks: the md arrays
 * (size, level, chunk, layout, members and data offsets, queue limits), the VGs (every PV, LV, segment and area)
 * and the dm tables (devices named, keys masked) are the recorded ones. Without the shared folder: one skipped
 * test saying so.
 */
class RecordedSetupPlansTest {

    private static final String MD = "mdadm --create /dev/md0 --run --metadata=1.2 --homehost=oracle ";

    /** Case folder under the shared folder, and the plan its README describes. */
    private static final Map<String, String> CASES = new TreeMap<>(Map.ofEntries(
            // lp-pe-start-summary.txt: raid-whole-4M pe_start=2688 (3 x 896, io_opt 448 KiB), vg-lv at 2688
            Map.entry("kernel-traces/lp-raid-whole-4M-lv-direct64k", """
                    pvcreate /dev/sda
                    vgcreate -s 4M vg /dev/sda
                    lvcreate -L 1G -n lv vg
                    """),
            Map.entry("kernel-traces-6.12-stacks/md-raid0-4x64k-w1M-at0", MD + "--level=0 --raid-devices=4 --chunk=64 /dev/vda /dev/vdb "
                    + "/dev/vdc /dev/vdd\n"),
            Map.entry("kernel-traces-6.12-stacks/md-raid1-2-w4k-at1M", MD + "--level=1 --raid-devices=2 --assume-clean --bitmap=none /dev/vda "
                    + "/dev/vdb\n"),
            Map.entry("kernel-traces-6.12-stacks/md-raid10-4x64k-w4k-at62k", MD + "--level=10 --layout=n2 --raid-devices=4 --chunk=64 "
                    + "--assume-clean --bitmap=none /dev/vda /dev/vdb /dev/vdc /dev/vdd\n"),
            Map.entry("kernel-traces-6.12-stacks/md-raid5-3x64k-w4k-at0", MD + "--level=5 --layout=left-symmetric --raid-devices=3 --chunk=64 "
                    + "--assume-clean --bitmap=none /dev/vda /dev/vdb /dev/vdc\n"),
            Map.entry("kernel-traces-6.12-stacks/md-raid5-4x64k-lvm-lv-w4k-at0", MD + "--level=5 --layout=left-symmetric --raid-devices=4 "
                    + "--chunk=64 --assume-clean --bitmap=none /dev/vda /dev/vdb /dev/vdc /dev/vdd\n"
                    + "pvcreate /dev/md0\nvgcreate vgm /dev/md0\nlvcreate -L 256M -n lv vgm\n"),
            Map.entry("kernel-traces-6.12-stacks/lvmraid-r5-w4k-at1M", """
                    pvcreate /dev/vda /dev/vdb /dev/vdc
                    vgcreate vgr /dev/vda /dev/vdb /dev/vdc
                    lvcreate --type raid1 -m1 --nosync -L 64M -n r1 vgr /dev/vda /dev/vdb
                    lvcreate --type raid5 -i2 -I64k --nosync -L 64M -n r5 vgr /dev/vda /dev/vdb /dev/vdc
                    """),
            Map.entry("kernel-traces-6.12-stacks/snap-c4k-origin-w4k-at0", """
                    pvcreate /dev/vda
                    vgcreate vgs /dev/vda
                    lvcreate -L 64M -n origin vgs
                    lvcreate -s -L 32M -c 4k -n snap vgs/origin
                    """),
            Map.entry("kernel-traces-6.12-stacks/snap-c64k-origin-w4k-at0", """
                    pvcreate /dev/vda
                    vgcreate vgs /dev/vda
                    lvcreate -L 64M -n origin vgs
                    lvcreate -s -L 32M -c 64k -n snap vgs/origin
                    """),
            Map.entry("kernel-traces-6.12-stacks/crypt-luks4k-lv-w4k-at1M", """
                    pvcreate /dev/vdb
                    vgcreate vgc /dev/vdb
                    lvcreate -L 256M -n lv vgc
                    cryptsetup luksFormat --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 --hash sha256 \\
                        --cipher aes-xts-plain64 --key-size 512 --sector-size 4096 --key-file /tmp/key.bin /dev/vgc/lv
                    cryptsetup open --type luks2 --key-file /tmp/key.bin /dev/vgc/lv cluks
                    """),
            Map.entry("kernel-traces-6.12-stacks/crypt-luks512-lv-dis-w4k-at1M", """
                    pvcreate /dev/vdb
                    vgcreate vgc /dev/vdb
                    lvcreate -L 256M -n lv vgc
                    cryptsetup luksFormat --type luks2 --cipher aes-xts-plain64 --key-size 512 --sector-size 512 \\
                        --key-file /tmp/key.bin /dev/vgc/lv
                    cryptsetup open --type luks2 --allow-discards --key-file /tmp/key.bin /dev/vgc/lv cluks
                    """),
            Map.entry("kernel-traces-6.12-stacks/crypt-plain512-w4k-at1M", "cryptsetup open --type plain --cipher aes-xts-plain64 "
                    + "--key-size 256 --key-file /tmp/key.bin --sector-size 512 /dev/vda cplain\n"),
            Map.entry("kernel-traces-6.12-stacks/crypt-plain4k-dis-w1M-at0", "cryptsetup open --type plain --cipher aes-xts-plain64 "
                    + "--key-size 256 --key-file /tmp/key.bin --sector-size 4096 --allow-discards /dev/vda cplain\n")));

    @TestFactory
    Stream<DynamicTest> everyDescribedSetupIsWhatWasRecorded() {
        String property = System.getProperty("dmmodel.shared.dir");
        Path root = property == null || property.isBlank() ? null : Path.of(property).toAbsolutePath().normalize();
        if (root == null || !Files.isDirectory(root.resolve("kernel-traces-6.12-stacks"))) {
            return Stream.of(dynamicTest("recorded setups as plans", () -> Assumptions.assumeTrue(false,
                    "shared folder with kernel-traces-6.12-stacks not found at " + root
                            + ": recorded setup plans skipped")));
        }
        return CASES.entrySet().stream().map(e -> dynamicTest(e.getKey(),
                () -> check(root.resolve(e.getKey()).resolve("snapshot"), e.getKey().substring(e.getKey().indexOf('/') + 1), e.getValue())));
    }

    private static void check(Path snapshotDir, String name, String plan) {
        LayoutSpec recorded = Snapshot.read(snapshotDir).toLayoutSpec();
        Layout expected = Layout.of(recorded);
        List<LayoutStep> disks = recorded.steps().stream().filter(s -> s instanceof LayoutStep.AddDisk).toList();
        PlanResult r = Plan.parse(plan, name + ".sh", PlanFormat.SHELL)
                .applyTo(new LayoutSpec(recorded.profile(), disks));
        assertThat(r.failure()).as(plan).isEmpty();
        Layout actual = r.layout();
        for (MdDevice md : expected.mdDevices()) {
            MdDevice got = (MdDevice) actual.device(md.name());
            assertThat(got.size()).as(md.name() + " size").isEqualTo(md.size());
            assertThat(got.spec()).as(md.name() + " spec").isEqualTo(md.spec());
            assertThat(got.limits()).as(md.name() + " limits").isEqualTo(md.limits());
        }
        for (VolumeGroup vg : expected.volumeGroups()) {
            VolumeGroup got = actual.volumeGroup(vg.name()).orElseThrow(() -> new AssertionError("no VG " + vg.name()));
            assertThat(VolumeGroupDiff.differences(vg, got)).as(vg.name()).isEmpty();
        }
        assertThat(tables(actual)).as("dm tables").isEqualTo(tables(expected));
    }

    /** Every dm device's table with devices by name and keys masked. */
    private static Map<String, String> tables(Layout layout) {
        Map<String, String> out = new TreeMap<>();
        for (DmDevice dm : layout.dmDevices()) {
            String line = layout.dmsetupTable().lines().filter(l -> l.startsWith(dm.dmName() + ": ")).findFirst()
                    .orElseThrow();
            StringBuilder b = new StringBuilder();
            for (String w : line.substring(dm.dmName().length() + 2).split(" ")) {
                BlockDevice d = w.matches("\\d+:\\d+") ? layout.find(w).orElse(null) : null;
                b.append(b.length() == 0 ? "" : " ").append(d == null ? w.replaceAll("^:\\d+:logon:.*", "KEY")
                        .replaceAll("^[0-9a-f]{32,}$", "HEXKEY") : d instanceof DmDevice x ? x.dmName() : d.name());
            }
            out.put(dm.dmName(), b.toString());
        }
        return out;
    }
}
