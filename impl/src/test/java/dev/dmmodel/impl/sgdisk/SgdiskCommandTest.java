package dev.dmmodel.impl.sgdisk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.device.Partition;
import dev.dmmodel.device.RaidLevel;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.plan.PlanException;
import dev.dmmodel.plan.PlanResult;
import dev.dmmodel.units.Bytes;
import java.util.List;
import org.junit.jupiter.api.Test;

/** sgdisk's options applied in order with gdisk's alignment; every number is worked out by hand in the comment. */
class SgdiskCommandTest {

    static PlanResult run(String plan, DiskSpec spec) {
        return Plan.parse(plan, "x.sh").applyTo(Layout.builder(KernelProfile.LINUX_6_1).disk("sda", spec).build()
                .spec().orElseThrow());
    }

    static List<long[]> parts(PlanResult r) {
        return r.layout().partitions().stream().filter(p -> p.disk().equals("sda"))
                .sorted((a, b) -> Integer.compare(a.number(), b.number()))
                .map((Partition p) -> new long[] {p.number(), p.start().count(), p.size().count()}).toList();
    }

    @Test
    void clearNewTypecodeInOneCall() {
        PlanResult r = run("sgdisk -o -n 1:0:+512M -t 1:ef00 -n 2:0:0 -t 2:8e00 /dev/sda\n", DiskPresets.ahciSata());
        assertThat(r.failure()).isEmpty();
        // 16 GiB = 33554432 sectors; 128 entries = 32 sectors: usable 34 .. 33554432 - 34 = 33554398; alignment 2048
        // 1: low = 34, Align: 0 is before 34, so up to 2048; "+512M" as an end (default = high): 512 * 2048 - 1 +
        //    2048 = 1050623: size 1048576
        // 2: the largest free block starts at 1050624 (= 513 * 2048, aligned); end 0 = high = 33554398:
        //    size 33554398 - 1050624 + 1 = 32503775
        assertThat(parts(r)).containsExactly(new long[] {1, 2048, 1048576}, new long[] {2, 1050624, 32503775});
        assertThat(r.entries().get(0).results()).containsExactly(
                "Creating new GPT entries in memory: usable sectors 34-33554398, alignment 2048 sectors",
                "-o: new GPT: usable sectors 34-33554398, alignment 2048 sectors",
                "partition 1: start 2048, end 1050623, size 1048576", "partition 1 type ef00",
                "partition 2: start 1050624, end 33554398, size 32503775", "partition 2 type 8e00");
    }

    @Test
    void anUnalignedStartMovesToTheAlignment() {
        PlanResult r = run("sgdisk -n 1:63:+1G /dev/sda\nsgdisk -Z /dev/sda\nsgdisk -n 1:3000:0 /dev/sda\n",
                DiskPresets.ahciSata());
        assertThat(r.failure()).isEmpty();
        // 63: 0 is before the first usable 34, so up to 2048 (64..2048 free); the end was computed from 63:
        // 2097152 - 1 + 63 = 2097214, kept: size 2097214 - 2048 + 1 = 2095167
        assertThat(r.entries().get(0).results().get(1)).isEqualTo("partition 1: start 2048, end 2097214, size "
                + "2095167; start 63 moved to 2048 (2048-sector alignment)");
        // 3000: 2048 is usable and 2048..2999 free, so it moves DOWN to 2048; end 0 = 33554398
        assertThat(r.entries().get(2).results().get(1)).isEqualTo("partition 1: start 2048, end 33554398, size "
                + "33552351; start 3000 moved to 2048 (2048-sector alignment)");
        assertThat(parts(r)).containsExactly(new long[] {1, 2048, 33552351});
    }

    @Test
    void a4knDiskAlignsTo256Sectors() {
        PlanResult r = run("sgdisk -n 1:0:+1G -n 2:0:0 /dev/sda\n", DiskPresets.scsiDebug(4096, 4096, 0));
        assertThat(r.failure()).isEmpty();
        // 4194304 sectors of 4096: entries 128 * 128 / 4096 = 4 sectors, usable 6 .. 4194304 - 6 = 4194298;
        // alignment 2048 * 512 / 4096 = 256. 1: 256 .. 262144 - 1 + 256 = 262399. 2: 262400 .. 4194298 =
        // 3931899 sectors. In 512-byte sectors (x8): 2048 + 2097152, 2099200 + 31455192
        assertThat(parts(r)).containsExactly(new long[] {1, 2048, 2097152}, new long[] {2, 2099200, 31455192});
    }

    @Test
    void theRaid5VolumeGetsTheDefaultAlignmentUnlessToldOtherwise() {
        DiskSpec raid = DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4));
        PlanResult r = run("sgdisk -n 1:0:0 /dev/sda\n", raid);
        // gdisk reads no I/O hints: 2048, which is 128 KiB off the 448 KiB stripe (1048576 mod 458752 = 131072)
        assertThat(r.entries().get(0).results().get(1)).isEqualTo("partition 1: start 2048, end 8388574, size "
                + "8386527 (start not aligned to the 448KiB optimal I/O: offset 128KiB)");
        PlanResult a = run("sgdisk -o -a 896 -n 1:0:0 /dev/sda\n", raid);
        // -a 896: low 34 goes up to 896; end 8388608 - 34 = 8388574: size 8387679, on the stripe
        assertThat(parts(a)).containsExactly(new long[] {1, 896, 8387679});
        assertThat(a.entries().get(0).results()).contains("alignment 896 sectors",
                "partition 1: start 896, end 8388574, size 8387679");
    }

    @Test
    void failuresAreSgdisksOwnWords() {
        // the second -n 1: partition 1 is in use; its start and end as computed: 2099200 (the largest block's
        // start, aligned) and 2097152 - 1 + 2099200 = 4196351
        assertThat(run("sgdisk -n 1:0:+1G -n 1:0:+1G /dev/sda\n", DiskPresets.ahciSata()).failure())
                .hasValueSatisfying(f -> assertThat(f.message()).isEqualTo("Could not create partition 1 from "
                        + "2099200 to 4196351; Error encountered; not saving changes."));
        assertThat(run("echo ',1G' | sfdisk /dev/sda\nsgdisk -n 2:0:0 /dev/sda\n", DiskPresets.ahciSata())
                .failure()).hasValueSatisfying(f -> assertThat(f.toString()).isEqualTo(
                "x.sh:2: sgdisk: Non-GPT disk; not saving changes. Use -g to override."));
        PlanResult g = run("echo ',1G' | sfdisk /dev/sda\nsgdisk -g -n 2:0:0 /dev/sda\n", DiskPresets.ahciSata());
        assertThat(g.failure()).isEmpty();
    }

    @Test
    void zapAllRemovesTheTable() {
        PlanResult r = run("sgdisk -n 0:0:+1G -n 0:0:0 /dev/sda\nsgdisk --zap-all /dev/sda\n",
                DiskPresets.ahciSata());
        assertThat(r.failure()).isEmpty();
        assertThat(parts(r)).isEmpty();
    }

    @Test
    void badInputNamesLineColumnAndWhatWasExpected() {
        assertThatThrownBy(() -> Plan.parse("sgdisk -n 1:abc:0 /dev/sda\n", "b.sh")).isInstanceOf(PlanException.class)
                .hasMessageStartingWith("b.sh:1:11: sgdisk --new \"1:abc:0\": expected PARTNUM:START:END");
        assertThatThrownBy(() -> Plan.parse("sgdisk --bogus /dev/sda\n", "b.sh")).isInstanceOf(PlanException.class)
                .hasMessageStartingWith("b.sh:1:8: sgdisk option \"--bogus\": expected an sgdisk option");
        assertThatThrownBy(() -> Plan.parse("sgdisk -t 1 /dev/sda\n", "b.sh")).isInstanceOf(PlanException.class)
                .hasMessageStartingWith("b.sh:1:11: sgdisk --typecode \"1\": expected PARTNUM:CODE");
        assertThatThrownBy(() -> Plan.parse("sgdisk -n\n", "b.sh")).isInstanceOf(PlanException.class)
                .hasMessage("b.sh:1:8: sgdisk option -n without its value: expected -n VALUE");
        assertThatThrownBy(() -> Plan.parse("sgdisk -o\n", "b.sh")).isInstanceOf(PlanException.class)
                .hasMessage("b.sh:1:1: sgdisk without a device: expected sgdisk [options] DEVICE");
    }

    @Test
    void ieeeToIntReadsSizesAsGdiskDoes() {
        // as an end (default = high, within one alignment of it): +N counts from low, less one
        assertThat(Gdisk.ieeeToInt("+1M", 512, 2048, 100000, 2048, 100000)).isEqualTo(2048 + 2048 - 1);
        // as a start (default = low, far from high): +N counts from the default
        assertThat(Gdisk.ieeeToInt("+1M", 512, 2048, 100000, 2048, 2048)).isEqualTo(2048 + 2048);
        // -N counts back from high; 0 and nothing are the default
        assertThat(Gdisk.ieeeToInt("-1M", 512, 2048, 100000, 2048, 100000)).isEqualTo(100000 - 2048);
        assertThat(Gdisk.ieeeToInt("0", 512, 2048, 100000, 2048, 777)).isEqualTo(777);
        assertThat(Gdisk.ieeeToInt("", 512, 2048, 100000, 2048, 777)).isEqualTo(777);
        // "1.5G": the '.' is no suffix, '5' neither, 'G' is: 1 GiB = 2097152 sectors
        assertThat(Gdisk.ieeeToInt("1.5G", 512, 0, 1L << 40, 2048, 0)).isEqualTo(2097152);
        // "1.5g": after the first character the suffix is searched as written, and 'g' is not found: 1 sector
        assertThat(Gdisk.ieeeToInt("1.5g", 512, 0, 1L << 40, 2048, 0)).isEqualTo(1);
        // 4096-byte sectors: K is a quarter sector, 8K two
        assertThat(Gdisk.ieeeToInt("8K", 4096, 0, 1L << 40, 256, 0)).isEqualTo(2);
    }
}
