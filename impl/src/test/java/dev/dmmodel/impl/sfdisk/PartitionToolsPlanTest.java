package dev.dmmodel.impl.sfdisk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.plan.PlanEntry;
import dev.dmmodel.plan.PlanResult;
import dev.dmmodel.units.Bytes;
import org.junit.jupiter.api.Test;

/** A plan of the three partitioning tools and LVM, end to end through {@link Plan}. */
class PartitionToolsPlanTest {

    @Test
    void aPlanOfTheThreeToolsShowsWhatEachDecided() {
        LayoutSpec host = Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.ahciSata().withSize(Bytes.gib(4)))
                .disk("sdb", DiskPresets.ahciSata().withSize(Bytes.gib(4)))
                .disk("sdc", DiskPresets.ahciSata().withSize(Bytes.gib(4)))
                .build().spec().orElseThrow();
        PlanResult r = Plan.parse("""
                set -e
                sfdisk /dev/sda <<EOF
                label: gpt
                size=1G, type=L
                EOF
                sgdisk -n 0:0:0 -t 0:8e00 /dev/sdb
                parted -s /dev/sdc -- mklabel gpt mkpart primary 1MiB 100%
                pvcreate /dev/sda1 /dev/sdb1 /dev/sdc1
                """, "x.sh").applyTo(host);
        assertThat(r.failure()).isEmpty();
        // 4 GiB = 8388608 sectors. sfdisk: 2048 + 1G = 2097152. sgdisk: 2048 .. 8388608 - 34 = 8388574 (size
        // 8386527). parted: 1MiB = 2048 exact and aligned; 100% = 8388607 (range 8346665..8388607, radius 41942)
        // down to the last usable 8388574, aligned to 2047 mod 2048: 8386559; size 8384512
        assertThat(r.entries()).extracting(PlanEntry::tool).containsExactly("set", "sfdisk", "sgdisk", "parted",
                "pvcreate");
        assertThat(r.entries().get(1).results()).contains("partition 1: start 2048, size 2097152, end 2099199 "
                + "(default start, size from 1073741824 bytes, end aligned)");
        assertThat(r.entries().get(2).results()).contains("partition 1: start 2048, end 8388574, size 8386527",
                "partition 1 type 8e00");
        assertThat(r.entries().get(3).results()).contains("partition 1: start 2048, end 8386559, size 8384512 "
                + "(START 1MiB is sectors 2048-2048, END 100% 8346665-8388607; optimal alignment 2048s)");
        assertThat(r.layout().find("sdc1").orElseThrow().size().count()).isEqualTo(8384512);
        assertThat(r.layout().physicalVolumes()).hasSize(3);
    }
}
