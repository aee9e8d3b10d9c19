package dev.dmmodel.impl.sfdisk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.device.Partition;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.plan.PlanException;
import dev.dmmodel.plan.PlanResult;
import dev.dmmodel.units.Bytes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** sfdisk scripts placed as libfdisk places them; every expected number is worked out by hand in the comment. */
class SfdiskCommandTest {

    static LayoutSpec host(DiskSpec spec) {
        return Layout.builder(KernelProfile.LINUX_6_1).disk("sda", spec).build().spec().orElseThrow();
    }

    static PlanResult run(String plan, DiskSpec spec) {
        return Plan.parse(plan, "x.sh").applyTo(host(spec));
    }

    static List<long[]> parts(PlanResult r) {
        return r.layout().partitions().stream().filter(p -> p.disk().equals("sda"))
                .sorted((a, b) -> Integer.compare(a.number(), b.number()))
                .map((Partition p) -> new long[] {p.number(), p.start().count(), p.size().count()}).toList();
    }

    @Test
    void gptOnA512eDiskAlignsTheEndOfASizeWithAUnit() {
        PlanResult r = run("""
                sfdisk /dev/sda <<EOF
                label: gpt
                size=1G, type=L
                size=+, type=V
                EOF
                """, DiskPresets.sasDisk());
        assertThat(r.failure()).isEmpty();
        // 16 GiB = 33554432 sectors of 512 bytes, 4 KiB physical, io_min 4096, no io_opt: io_size 4096 < 1 MiB, so
        // the grain is 1 MiB (2048 sectors); no topology (no io_opt, no offset, io_min a power of 2): first LBA 2048.
        // GPT: UEFI range 34..33554432-34 = 33554398; the first usable LBA becomes the topology's 2048.
        // 1: start 2048; 1G = 2097152 sectors, end 2048 + 2097152 - 1 = 2099199, nearest grain 2099200, minus 1
        // 2: start 2099200; the default end is the last usable LBA aligned: 33554398 down to 16383 * 2048 = 33552384,
        //    minus 1 = 33552383: size 33552383 - 2099200 + 1 = 31453184
        assertThat(parts(r)).containsExactly(new long[] {1, 2048, 2097152}, new long[] {2, 2099200, 31453184});
        assertThat(r.entries().get(0).results()).containsExactly(
                "new gpt label; grain 1MiB, first LBA 2048, usable LBAs 2048-33554398",
                "partition 1: start 2048, size 2097152, end 2099199 (default start, size from 1073741824 bytes, end "
                        + "aligned)",
                "partition 2: start 2099200, size 31453184, end 33552383 (default start, to the end of the free area)");
    }

    @Test
    void dosOnA4knDiskCountsIn4096ByteSectors() {
        PlanResult r = run("""
                sfdisk /dev/sda <<EOF
                label: dos
                ,1GiB
                ,+
                EOF
                """, DiskPresets.scsiDebug(4096, 4096, 0));
        assertThat(r.failure()).isEmpty();
        // 16 GiB = 4194304 sectors of 4096 bytes; grain 1 MiB = 256 sectors; first LBA 1 MiB / 4096 = 256.
        // 1: start 256; 1GiB / 4096 = 262144; dos: end = 256 + 262144 = 262400 (a size with a unit: no -1 before
        //    aligning), aligned already, minus 1 = 262399: size 262144
        // 2: start 262400, to the last sector 4194303: size 3931904
        // in 512-byte sectors (the model's): x8 = 2048 + 2097152, 2099200 + 31455232
        assertThat(parts(r)).containsExactly(new long[] {1, 2048, 2097152}, new long[] {2, 2099200, 31455232});
        assertThat(r.entries().get(0).results().get(0)).isEqualTo("new dos label; grain 1MiB, first LBA 256");
    }

    @Test
    void anExplicitStartAt63IsKeptOnTheRaid5Volume() {
        PlanResult r = run("""
                sfdisk /dev/sda <<EOF
                label: dos
                start=63, type=8e
                EOF
                """, DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4)));
        assertThat(r.failure()).isEmpty();
        // 4 GiB = 8388608 sectors; io_opt 448 KiB < 1 MiB: grain 1 MiB, first LBA 2048 (io_size not above 1 MiB).
        // start=63 lies below the first LBA: libfdisk lowers the first LBA to 1 and keeps 63; to the end: 8388607,
        // size 8388608 - 63 = 8388545. 63 * 512 = 32256 bytes: off the 64 KiB chunk (io_min) by 32256 = 31.5 KiB
        assertThat(parts(r)).containsExactly(new long[] {1, 63, 8388545});
        assertThat(r.entries().get(0).results()).contains("partition 1: start 63, size 8388545, end 8388607 (start "
                + "as given, to the end of the free area) (start not aligned to the 64KiB minimum I/O: offset "
                + "31.5KiB)");
    }

    @Test
    void theDefaultStartOnTheRaid5VolumeIsTheMiBGrainNotTheStripe() {
        PlanResult r = run("echo ',,8e' | sfdisk /dev/sda\n",
                DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4)));
        assertThat(r.failure()).isEmpty();
        // first LBA 2048 = 1 MiB: a multiple of the 64 KiB chunk, but 1048576 mod 458752 = 131072 = 128 KiB off
        // the 448 KiB stripe; size 8388608 - 2048 = 8386560
        assertThat(parts(r)).containsExactly(new long[] {1, 2048, 8386560});
        assertThat(r.entries().get(0).results()).containsExactly("new dos label; grain 1MiB, first LBA 2048",
                "partition 1: start 2048, size 8386560, end 8388607 (default start, to the end of the free area) "
                        + "(start not aligned to the 448KiB optimal I/O: offset 128KiB)");
    }

    @Test
    void aDiskWithAnAlignmentOffsetStartsAtIt() {
        DiskSpec offset = DiskPresets.sasDisk().toBuilder().alignmentOffset(3584).build();
        PlanResult r = run("printf ',1GiB\\n,,\\n' | sfdisk /dev/sda\n", offset);
        assertThat(r.failure()).isEmpty();
        // alignment_offset 3584 (physical blocks start at LBA 7): topology, so the first LBA is 3584 / 512 = 7;
        // 7 is aligned (7 * 512 = 3584 = the offset, modulo the 1 MiB grain)
        // 1: end 7 + 2097152 = 2097159, aligned (2097159 mod 2048 = 7), minus 1 = 2097158: size 2097152
        // 2: start 2097159 to 33554431: size 33554432 - 2097159 = 31457273
        assertThat(parts(r)).containsExactly(new long[] {1, 7, 2097152}, new long[] {2, 2097159, 31457273});
        assertThat(r.entries().get(0).results().get(0)).isEqualTo(
                "new dos label; grain 1MiB, first LBA 7 (first LBA from alignment_offset 3.5KiB)");
    }

    @Test
    void aSmallSizeWithAUnitIsNotAlignedAndKeepsOneMoreSector() {
        PlanResult r = run("sfdisk /dev/sda <<EOF\n,512K\n,1M\nEOF\n", DiskPresets.ahciSata());
        assertThat(r.failure()).isEmpty();
        // 512K = 1024 sectors, below the 2048-sector grain: dos add_partition leaves end = start + size (no -1)
        // 1: 2048 .. 3072: 1025 sectors
        // 2: the default start after 3072 is aligned up to 4096; 1M = 2048 sectors is not below the grain: end 4096
        //    + 2048 = 6144, aligned, minus 1 = 6143: 2048 sectors
        assertThat(parts(r)).containsExactly(new long[] {1, 2048, 1025}, new long[] {2, 4096, 2048});
    }

    @Test
    void theDumpFormatRestoresExactly() {
        PlanResult r = run("""
                sfdisk /dev/sda <<'EOF'
                label: dos
                label-id: 0x7e34ba37
                device: /dev/sda
                unit: sectors

                /dev/sda1 : start=        2048, size=     2097152, type=83, bootable
                /dev/sda2 : start=     2099200, size=    10000000, type=8e
                EOF
                """, DiskPresets.ahciSata());
        assertThat(r.failure()).isEmpty();
        // sizes in sectors are explicit: kept as written (end = start + size - 1)
        assertThat(parts(r)).containsExactly(new long[] {1, 2048, 2097152}, new long[] {2, 2099200, 10000000});
    }

    @Test
    void appendAddsAfterTheLastPartition() {
        PlanResult r = run("""
                echo ',1G' | sfdisk /dev/sda
                echo ',1G' | sfdisk --append /dev/sda
                """, DiskPresets.ahciSata());
        assertThat(r.failure()).isEmpty();
        // 1: 2048 + 2097152; appended 2: start 2099200, 1G -> 2097152
        assertThat(parts(r)).containsExactly(new long[] {1, 2048, 2097152}, new long[] {2, 2099200, 2097152});
    }

    @Test
    void failuresAreSfdisksOwnWords() {
        // gpt: the first usable LBA is 2048; 63 is not free (find_first_available(63) = 2048): -ERANGE, no warning
        assertThat(run("printf 'label: gpt\\nstart=63\\n' | sfdisk /dev/sda\n", DiskPresets.ahciSata()).failure())
                .hasValueSatisfying(f -> assertThat(f.toString()).isEqualTo(
                        "x.sh:1: sfdisk: Failed to add #1 partition: Numerical result out of range"));
        // dos: the last sector is 33554431
        assertThat(run("echo 'start=99999999' | sfdisk /dev/sda\n", DiskPresets.ahciSata()).failure())
                .hasValueSatisfying(f -> assertThat(f.message()).isEqualTo("Start sector 99999999 out of range.; "
                        + "Failed to add #1 partition: Numerical result out of range"));
        // the first partition takes the whole disk: no room for a second primary
        assertThat(run("sfdisk /dev/sda <<EOF\n,,\n,,\nEOF\n", DiskPresets.ahciSata()).failure())
                .hasValueSatisfying(f -> assertThat(f.message()).isEqualTo("All space for primary partitions is in "
                        + "use.; Failed to add #2 partition: Invalid argument"));
        assertThat(run("sfdisk /dev/sda <<EOF\n,1G\n,1G\n,1G\n,1G\n,1G\nEOF\n", DiskPresets.ahciSata()).failure())
                .hasValueSatisfying(f -> assertThat(f.message()).isEqualTo("To create more partitions, first "
                        + "replace a primary with an extended partition.; Failed to add #5 partition: Invalid "
                        + "argument"));
        // an explicit size larger than the free area: -ENOSPC
        assertThat(run("echo 'start=2048, size=40000000' | sfdisk /dev/sda\n", DiskPresets.ahciSata()).failure())
                .hasValueSatisfying(f -> assertThat(f.message()).isEqualTo("No free sectors available.; Failed to "
                        + "add #1 partition: No space left on device"));
    }

    @Test
    void badInputNamesLineColumnAndWhatWasExpected() {
        assertThatThrownBy(() -> Plan.parse("sfdisk /dev/sda <<EOF\nlabel: sun\nEOF\n", "b.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessage("b.sh:2:8: sfdisk label \"sun\": expected dos or gpt (the labels dmmodel models)");
        assertThatThrownBy(() -> Plan.parse("sfdisk /dev/sda <<EOF\nstart=2048, size=1X\nEOF\n", "b.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("b.sh:2:18: sfdisk size \"1X\": expected a number of sectors or a size");
        assertThatThrownBy(() -> Plan.parse("sfdisk /dev/sda <<EOF\nstart=2048, colour=red\nEOF\n", "b.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("b.sh:2:13: sfdisk field \"colour=red\": expected start=");
        assertThatThrownBy(() -> Plan.parse("sfdisk /dev/sda <<EOF\n,,E\nEOF\n", "b.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("an extended partition");
        assertThatThrownBy(() -> Plan.parse("sfdisk /dev/sda\n", "b.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("b.sh:1:1: sfdisk /dev/sda without a script");
        assertThatThrownBy(() -> Plan.parse("echo ,, | sfdisk --wipe sometimes /dev/sda\n", "b.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessage("b.sh:1:25: sfdisk wipe mode \"sometimes\": expected always, never or auto");
        assertThatThrownBy(() -> Plan.parse("echo ,, | sfdisk -N x /dev/sda\n", "b.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("b.sh:1:21: sfdisk partition number \"x\"");
    }

    @Test
    void aNewLabelOnABusyDiskIsRefused() {
        PlanResult r = run("""
                echo ',,8e' | sfdisk /dev/sda
                pvcreate /dev/sda1
                echo ',,' | sfdisk --force /dev/sda
                """, DiskPresets.ahciSata());
        assertThat(r.failure()).hasValueSatisfying(f -> assertThat(f.message()).startsWith(
                "/dev/sda: Device or resource busy"));
        assertThat(run("""
                echo ',,8e' | sfdisk /dev/sda
                pvcreate /dev/sda1
                echo ',,' | sfdisk /dev/sda
                """, DiskPresets.ahciSata()).failure()).hasValueSatisfying(f -> assertThat(f.message()).startsWith(
                "This disk is currently in use - repartitioning is probably a bad idea."));
    }

    @Test
    void deleteRemovesPartitions() {
        PlanResult r = run("""
                sfdisk /dev/sda <<EOF
                ,1G
                ,1G
                EOF
                sfdisk --delete /dev/sda 2
                """, DiskPresets.ahciSata());
        assertThat(r.failure()).isEmpty();
        assertThat(parts(r)).containsExactly(new long[] {1, 2048, 2097152});
        assertThat(r.entries().get(1).results()).containsExactly("partition 2 deleted");
    }
}
