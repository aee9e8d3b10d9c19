package dev.dmmodel.impl.parted;

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

/** parted's fuzzy locations and its alignment; every number is worked out by hand in the comment. */
class PartedCommandTest {

    static PlanResult run(String plan, String disk, DiskSpec spec) {
        return Plan.parse(plan, "x.sh").applyTo(Layout.builder(KernelProfile.LINUX_6_1).disk(disk, spec).build()
                .spec().orElseThrow());
    }

    static List<long[]> parts(PlanResult r, String disk) {
        return r.layout().partitions().stream().filter(p -> p.disk().equals(disk))
                .sorted((a, b) -> Integer.compare(a.number(), b.number()))
                .map((Partition p) -> new long[] {p.number(), p.start().count(), p.size().count()}).toList();
    }

    @Test
    void ansiblesPartedLineWorks() {
        PlanResult r = run("parted -s -m -a optimal /dev/sdb -- unit KiB mklabel gpt mkpart primary 0% 100% set 1 "
                + "lvm on\n", "sdb", DiskPresets.ahciSata());
        assertThat(r.failure()).isEmpty();
        // io_opt 0, io_min 512 divides 1 MiB: optimal = 2048 sectors, offset 0. gpt: usable 34 .. 33554432 - 34.
        // 1% = 33554432 * 512 / 100 = 171798691 bytes; radius ceil(171798691 / 512) / 2 - 1 = 335545 / 2 - 1 =
        // 167771. 0% = sector 0, range 0..167771: the nearest start = 0 mod 2048 at or after 34 is 2048.
        // 100% = 100 * 171798691 / 512 = 33554431 (towards zero), range 33386660..33554431; the end must be
        // 2047 mod 2048 and at most 33554398: 33552383. Size 33552383 - 2048 + 1 = 33550336
        assertThat(parts(r, "sdb")).containsExactly(new long[] {1, 2048, 33550336});
        assertThat(r.entries().get(0).results()).containsExactly("new gpt label; usable sectors 34-33554398",
                "partition 1: start 2048, end 33552383, size 33550336 (START 0% is sectors 0-167771, END 100% "
                        + "33386660-33554431; optimal alignment 2048s)",
                "partition 1: set lvm on (no change to the layout)");
    }

    @Test
    void onTheRaid5VolumeAnExactMibStartIsNotOnTheStripeAndWarns() {
        DiskSpec raid = DiskPresets.hardwareRaid(RaidLevel.RAID5, 8, Bytes.kib(64)).withSize(Bytes.gib(4));
        PlanResult r = run("parted -s /dev/sda mklabel gpt mkpart primary 1MiB 100%\n", "sda", raid);
        assertThat(r.failure()).isEmpty();
        // io_opt 448 KiB does not divide 1 MiB: optimal = 896 sectors. 1MiB is exact (an IEC unit): 2048, and
        // 2048 mod 896 = 256, so no aligned start: placed without the alignment at 2048; 100% of 8388608
        // sectors: 1% = 42949672 bytes, 100 * 42949672 / 512 = 8388607, range 8346665..8388607 (radius 41942);
        // the last usable sector 8388608 - 34 = 8388574 lies in it: size 8388574 - 2048 + 1 = 8386527
        assertThat(parts(r, "sda")).containsExactly(new long[] {1, 2048, 8386527});
        assertThat(r.entries().get(0).results().get(1)).endsWith("; Warning: The resulting partition is not properly "
                + "aligned for best performance: 2048s % 896s != 0s");
        PlanResult pct = run("parted -s /dev/sda mklabel gpt mkpart primary 0% 100%\n", "sda", raid);
        // 0%: range 0..41942, nearest multiple of 896 at or after 34: 896; end = 895 mod 896 nearest 8388607 but
        // at most 8388574: 9362 * 896 - 1 = 8388351. Size 8388351 - 896 + 1 = 8387456 = 9361 * 896
        assertThat(parts(pct, "sda")).containsExactly(new long[] {1, 896, 8387456});
    }

    @Test
    void minimalAlignmentOnA512eDisk() {
        PlanResult r = run("parted -s -a minimal /dev/sda mklabel msdos mkpart primary ext4 1s 100MB\n", "sda",
                DiskPresets.sasDisk());
        assertThat(r.failure()).isEmpty();
        // minimal = io_min 4096 = 8 sectors. 1s is exact: no multiple of 8 -> placed at 1 without the alignment.
        // 100MB = 100000000 / 512 = 195312 (towards zero), radius ceil(1000000 / 512) / 2 - 1 = 976: kept
        assertThat(parts(r, "sda")).containsExactly(new long[] {1, 1, 195312});
        assertThat(r.entries().get(0).results().get(1)).endsWith("Warning: The resulting partition is not properly "
                + "aligned for best performance: 1s % 8s != 0s");
    }

    @Test
    void theAlignmentOffsetShiftsTheGrid() {
        DiskSpec offset = DiskPresets.sasDisk().toBuilder().alignmentOffset(3584).build();
        PlanResult r = run("parted -s /dev/sda mklabel gpt mkpart p 0% 100%\n", "sda", offset);
        assertThat(r.failure()).isEmpty();
        // optimal: io_min 4096 divides 1 MiB: grain 2048, offset 3584 / 512 = 7. Start 7 mod 2048 at or after 34:
        // 2055. End 6 mod 2048 at most 33554398: 33552390. Size 33552390 - 2055 + 1 = 33550336
        assertThat(parts(r, "sda")).containsExactly(new long[] {1, 2055, 33550336});
    }

    @Test
    void a4knDiskCountsIn4096ByteSectors() {
        PlanResult r = run("parted -s /dev/sda mklabel gpt mkpart data xfs 1MiB 100%\n", "sda",
                DiskPresets.scsiDebug(4096, 4096, 0));
        assertThat(r.failure()).isEmpty();
        // 4194304 sectors; entries 4 sectors: usable 6 .. 4194298; optimal 1 MiB = 256 sectors; 1MiB = 256 exact.
        // 1% = 4194304 * 4096 / 100 = 171798691 bytes; 100% = 171798691 * 100 / 4096 = 4194303; the end 255 mod
        // 256 at most 4194298: 4194047. Size 4194047 - 256 + 1 = 4193792; x8: 2048 and 33550336
        assertThat(parts(r, "sda")).containsExactly(new long[] {1, 2048, 33550336});
    }

    @Test
    void aBareNumberIsMegabytes() {
        PlanResult r = run("parted --script /dev/sda mklabel msdos mkpart primary ext4 1 100%\n", "sda",
                DiskPresets.ahciSata());
        // 1 = 1MB = 1000000 / 512 = 1953, range 977..2929: the multiple of 2048 in it, 2048. 100% = 33554431 =
        // 2047 mod 2048 and msdos's last sector: size 33554431 - 2048 + 1 = 33552384
        assertThat(parts(r, "sda")).containsExactly(new long[] {1, 2048, 33552384});
    }

    @Test
    void failuresAreParteds() {
        // 0s is exact; gpt's first usable sector is 34: outside the range
        assertThat(run("parted -s /dev/sda mklabel gpt mkpart p 0s 100s\n", "sda", DiskPresets.ahciSata()).failure())
                .hasValueSatisfying(f -> assertThat(f.message()).isEqualTo("Error: You requested a partition from "
                        + "0s to 100s (sectors 0..100). The closest location we can manage is 34s to 100s (sectors "
                        + "34..100)."));
        assertThat(run("parted -s /dev/sda mkpart primary 1MiB 100%\n", "sda", DiskPresets.ahciSata()).failure())
                .hasValueSatisfying(f -> assertThat(f.message()).isEqualTo("Error: /dev/sda: unrecognised disk "
                        + "label"));
    }

    @Test
    void badInputNamesLineColumnAndWhatWasExpected() {
        assertThatThrownBy(() -> Plan.parse("parted -s /dev/sda mklabel gpt mkpart p 1MiB -1s\n", "b.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("b.sh:1:46: parted option \"-1s\": expected -- before a negative location");
        assertThatThrownBy(() -> Plan.parse("parted -s /dev/sda mklabel bsd\n", "b.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("b.sh:1:28: parted label \"bsd\": expected gpt or msdos");
        assertThatThrownBy(() -> Plan.parse("parted -s /dev/sda -- mklabel gpt mkpart p 1MiB 10XB\n", "b.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("b.sh:1:49: parted location \"10XB\": expected a unit parted knows");
        assertThatThrownBy(() -> Plan.parse("parted -s /dev/sda frobnicate\n", "b.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("b.sh:1:20: parted command \"frobnicate\": expected a parted command");
        assertThatThrownBy(() -> Plan.parse("parted -s /dev/sda -- mkpart p 0.5GB 1GB\n", "b.sh"))
                .isInstanceOf(PlanException.class)
                .hasMessageContaining("Use a smaller unit instead of a value < 1");
    }

    @Test
    void negativeLocationsCountFromTheEnd() {
        PlanResult r = run("parted -s /dev/sda -- mklabel gpt mkpart p 1MiB -34s\n", "sda", DiskPresets.ahciSata());
        // -34s = 33554432 - 34 = 33554398, exact; 1MiB = 2048 exact and aligned; the end must be 2047 mod 2048 in
        // 33554398..33554398: none, so placed without alignment (start aligned: no warning): size 33552351
        assertThat(parts(r, "sda")).containsExactly(new long[] {1, 2048, 33552351});
        assertThat(r.entries().get(0).results().get(1)).doesNotContain("Warning");
    }
}
