package dev.dmmodel.impl.plan.shell;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.impl.fuzz.FuzzTally;
import dev.dmmodel.impl.fuzz.TextMutator;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.plan.Plan;
import dev.dmmodel.plan.PlanException;
import dev.dmmodel.plan.PlanFormat;
import dev.dmmodel.plan.PlanResult;
import dev.dmmodel.units.Bytes;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Mutated provisioning scripts: every input either reads to a plan or fails with a {@link PlanException} naming
 * the file and a line (never a NullPointerException, NumberFormatException, IndexOutOfBoundsException,
 * StackOverflowError ...), and every plan that reads also runs on a small host without any other exception: a
 * failing command is a result, not a throw.
 */
class ShellPlanFuzzTest {

    private static final long SEED = 0x5e11_9a7e_0014L;
    private static final int RANDOM_INPUTS_PER_FIXTURE = 21_000;
    private static final Pattern TOKEN = Pattern.compile("\"[^\"\\n]*\"|'[^'\\n]*'|[^\\s;&|<>()\"']+|<<-?|&&|\\|\\||[;&|<>()]");
    private static final String CHARS = "$`'\"\\#;&|<>(){}*?[]=\n\t -+%:/.0123456789abcxyz\0\u00e9";
    private static final List<String> REPLACEMENTS = List.of("99999999999999999999", "9223372036854775807", "-1",
            "0", "100%FREE", "150%VG", "0%PVS", "50%ORIGIN", "+100%FREE", "-L", "-l", "-n", "-s", "-i", "-I",
            "--type", "thin-pool", "raid5", "/dev/sdb", "/dev/sdz", "/dev/vg/lv", "vg", "$VG", "${VG}", "$(ls)",
            "`x`", "<<EOF", "EOF", "||", "&&", ";", "|", "for", "if", "done", "sudo", "lvm", "echo", "'", "\"", "\\",
            "pvcreate", "vgcreate", "vgextend", "lvcreate", "lvextend", "lvconvert", "wipefs", "mkfs.xfs", "mount",
            "dmsetup", "mdadm", "--create", "--level=5", "--raid-devices=3", "1G", "1e", "8M", "4k", "0x10");
    private static final TextMutator MUTATOR = TextMutator.of(TOKEN, CHARS, REPLACEMENTS);

    static final List<String> FIXTURES = List.of("""
            #!/bin/sh
            set -e
            VG=vg
            DISKS="/dev/sdb /dev/sdc"
            pvcreate $DISKS
            vgcreate -s 8M $VG $DISKS
            lvcreate -L 512M -n lv "$VG"
            lvcreate -l 50%FREE -i 2 -I 64k -n striped ${VG}
            lvcreate --type thin-pool -l 100%FREE -n pool $VG
            lvcreate -V 10G --thinpool pool -n thin $VG
            mkfs.xfs -f -s size=4096 /dev/$VG/lv
            mount /dev/$VG/lv /srv
            """, """
            wipefs -a /dev/sdb || true
            pvcreate --dataalignment 448k /dev/sdb && vgcreate vg0 /dev/sdb
            vgextend vg0 /dev/sdc
            lvcreate -n data -l 50%VG vg0 /dev/sdb /dev/sdc
            lvextend -L +512M vg0/data
            udevadm settle
            dmsetup create zero0 <<EOF
            0 2048 zero
            EOF
            """, """
            mdadm --create /dev/md0 --level=5 --raid-devices=3 --chunk=64 /dev/sdb /dev/sdc /dev/sdd
            pvcreate /dev/md0 /dev/sde
            vgcreate vg /dev/md0 /dev/sde
            lvcreate --type raid1 -m 1 -L 100M -n mirror vg
            lvcreate -L 200M -n origin vg
            lvcreate -s -L 100M -n snap vg/origin
            """, """
            set -eux
            lvm pvcreate /dev/sdb
            lvm vgcreate vg /dev/sdb
            lvcreate -L 64m -n meta vg
            lvcreate -L 512m -n data vg
            lvconvert -y --type thin-pool --poolmetadata vg/meta vg/data
            dmsetup create lin --table '0 1024 linear /dev/sdc 0'
            """, """
            export VG=vg; pvcreate /dev/sdb; vgcreate "$VG" /dev/sdb
            echo '0 8 zero' | dmsetup create z
            lvcreate -L 10M -n a $VG && lvcreate -L 20M -n b $VG
            blockdev --rereadpt /dev/sdc
            """);

    /** Four 1 GiB disks. */
    static LayoutSpec host() {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sdb", DiskPresets.ahciSata().withSize(Bytes.gib(1)))
                .disk("sdc", DiskPresets.ahciSata().withSize(Bytes.gib(1)))
                .disk("sdd", DiskPresets.ahciSata().withSize(Bytes.gib(1)))
                .disk("sde", DiskPresets.ahciSata().withSize(Bytes.gib(1)))
                .build().spec().orElseThrow();
    }

    @Test
    void fixturesReadAndApply() {
        for (String f : FIXTURES) {
            PlanResult r = Plan.parse(f, "fixture.sh", PlanFormat.SHELL).applyTo(host());
            assertThat(r.failure()).as(f).isEmpty();
        }
    }

    @Test
    void everyMutationReadsOrThrowsPlanExceptionAndEveryPlanRuns() {
        Random random = new Random(SEED);
        FuzzTally tally = new FuzzTally();
        LayoutSpec host = host();
        int[] applied = new int[1];
        for (String text : FIXTURES) {
            TextMutator.truncations(text, input -> run(input, host, tally, applied, random));
            for (int i = 0; i < RANDOM_INPUTS_PER_FIXTURE; i++) {
                run(MUTATOR.mutate(text, random), host, tally, applied, random);
            }
        }
        assertThat(tally.problems()).as("inputs that failed otherwise than with PlanException").isEmpty();
        assertThat(tally.total()).isGreaterThanOrEqualTo(100_000);
        assertThat(tally.parsed() + tally.rejected()).isEqualTo(tally.total());
        assertThat(tally.parsed()).isGreaterThan(1_000);
        assertThat(tally.rejected()).isGreaterThan(10_000);
        assertThat(applied[0]).isGreaterThan(100);
    }

    private static void run(String input, LayoutSpec host, FuzzTally tally, int[] applied, Random random) {
        tally.run(input, () -> {
            Plan plan = Plan.parse(input, "fuzz.sh", PlanFormat.SHELL);
            // running every plan that reads would take minutes: one in twenty, chosen by the seed
            if (random.nextInt(20) == 0) {
                PlanResult r = plan.applyTo(host);
                assertThat(r.entries().size()).isLessThanOrEqualTo(plan.commands().size());
                applied[0]++;
            }
            return FuzzTally.PARSED;
        }, PlanException.class, e -> e.line() >= 1 && e.column() >= 1 && e.getMessage() != null
                && e.getMessage().startsWith("fuzz.sh:"));
    }
}
