package dev.dmmodel.impl.plan.curtin;

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

/** Mutated curtin configs: each reads or is a PlanException with its place; one in twenty is run on a host. */
class CurtinPlanFuzzTest {

    private static final long SEED = 0xc0_7714_0014L;
    private static final int RANDOM_INPUTS_PER_FIXTURE = 34_000;
    private static final Pattern TOKEN = Pattern.compile("'[^'\\n]*'|\"[^\"\\n]*\"|[^\\s:,{}\\[\\]'\"]+|[:,{}\\[\\]]");
    private static final String CHARS = ":-,{}[]&*!|>#'\"%\n\t 0123456789.abcGMK\0\u00e9";
    private static final List<String> REPLACEMENTS = List.of("-1", "0", "99999999999999999999T", "9223372036854775807",
            "50%", "101%", "1.5", "0.3K", "10G", "512M", "1M", "disk", "partition", "lvm_volgroup", "lvm_partition",
            "format", "mount", "raid", "dm_crypt", "gpt", "msdos", "vtoc", "logical", "extended", "bios_grub", "boot",
            "prep", "d", "p1", "p2", "vg", "lv", "/dev/sda", "/dev/sdx", "ext4", "xfs", "fat32", "swap", "true",
            "false", "~", "{}", "[]", "&a", "*a", "!tag", "version", "config", "storage", "autoinstall", "offset");
    private static final TextMutator MUTATOR = TextMutator.of(TOKEN, CHARS, REPLACEMENTS);

    static final List<String> FIXTURES = List.of("""
            storage:
              version: 1
              config:
                - {type: disk, id: d, path: /dev/sda, ptable: gpt, wipe: superblock}
                - {type: partition, id: p1, device: d, size: 1M, flag: bios_grub, number: 1}
                - {type: partition, id: p2, device: d, size: 1G}
                - {type: partition, id: p3, device: d, size: 4G, flag: lvm}
                - {type: lvm_volgroup, id: vg, name: vg0, devices: [p3]}
                - {type: lvm_partition, id: lv, name: root, volgroup: vg, size: 2G}
                - {type: format, id: f, volume: lv, fstype: ext4, label: root}
                - {type: mount, id: m, device: f, path: /}
            """, """
            autoinstall:
              version: 1
              storage:
                config:
                - type: disk
                  id: disk-sda
                  path: /dev/sda
                  ptable: msdos
                  preserve: false
                - type: partition
                  id: part-1
                  device: disk-sda
                  size: 50%
                  flag: boot
                - type: partition
                  id: part-2
                  device: disk-sda
                  size: -1
                - type: lvm_volgroup
                  id: vg-0
                  name: ubuntu-vg
                  devices: [part-2]
                - type: lvm_partition
                  id: lv-0
                  name: ubuntu-lv
                  volgroup: vg-0
                  size: -1
                - type: format
                  id: fmt-0
                  volume: lv-0
                  fstype: xfs
                - type: mount
                  id: mnt-0
                  device: fmt-0
                  path: /srv
            """, """
            storage:
              version: 2
              config:
                - {type: disk, id: a, path: /dev/sda, ptable: gpt}
                - {type: partition, id: a1, device: a, size: 1G, offset: 1M}
                - {type: partition, id: a2, device: a, size: 2G}
                - {type: disk, id: b, path: /dev/sdb}
                - {type: raid, id: md, name: md0, raidlevel: raid1, devices: [a2, b]}
                - {type: format, id: f, volume: md, fstype: ext4}
            """);

    static LayoutSpec host() {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.ahciSata().withSize(Bytes.gib(8)))
                .disk("sdb", DiskPresets.scsiDebug(4096, 4096, 0).withSize(Bytes.gib(8)))
                .build().spec().orElseThrow();
    }

    @Test
    void fixturesReadAndApply() {
        for (String f : FIXTURES) {
            PlanResult r = Plan.parse(f, "fixture.yaml", PlanFormat.CURTIN).applyTo(host());
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
            Plan plan = Plan.parse(input, "fuzz.yaml", PlanFormat.CURTIN);
            if (random.nextInt(20) == 0) {
                PlanResult r = plan.applyTo(host);
                assertThat(r.entries().size()).isLessThanOrEqualTo(plan.commands().size());
                applied[0]++;
            }
            return FuzzTally.PARSED;
        }, PlanException.class, e -> e.line() >= 1 && e.column() >= 1 && e.getMessage() != null
                && e.getMessage().startsWith("fuzz.yaml:"));
    }
}
