package dev.dmmodel.impl.plan.ansible;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.PartitionSpec;
import dev.dmmodel.device.PartitionTableType;
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
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Mutated Ansible plays and task files: each reads or is a PlanException with its place; one in twenty is run on a host. */
class AnsiblePlanFuzzTest {

    private static final long SEED = 0xa5_1b1e_0014L;
    private static final int RANDOM_INPUTS_PER_FIXTURE = 34_000;
    private static final Pattern TOKEN = Pattern.compile("'[^'\\n]*'|\"[^\"\\n]*\"|[^\\s:,{}\\[\\]'\"]+|[:,{}\\[\\]]");
    private static final String CHARS = ":-,{}[]&*!|>#'\"%=\n\t 0123456789.abcgmk\0\u00e9";
    private static final List<String> REPLACEMENTS = List.of("-1", "0", "99999999999999999999", "512", "512g",
            "100%FREE", "101%VG", "50%PVS", "+10%VG", "-1g", "1x", "community.general.lvg", "community.general.lvol",
            "community.general.filesystem", "community.general.parted", "ansible.posix.mount", "lvg", "lvol", "vg",
            "lv", "pvs", "size", "fstype", "dev", "/dev/sda1", "/dev/sda2", "/dev/sdx", "/dev/vg/lv", "ext4", "xfs",
            "lvm", "swap", "zfs", "present", "absent", "mounted", "yes", "no", "maybe", "{{ x }}", "when", "loop",
            "with_items", "block", "tasks", "hosts", "~", "{}", "[]", "&a", "*a", "!vault", "thinpool", "snapshot");
    private static final TextMutator MUTATOR = TextMutator.of(TOKEN, CHARS, REPLACEMENTS);

    static final List<String> FIXTURES = List.of("""
            - hosts: storage
              become: true
              tasks:
                - name: Install LVM
                  ansible.builtin.package: {name: lvm2}
                - name: Create the VG
                  community.general.lvg:
                    vg: vg
                    pvs: /dev/sda1,/dev/sda2
                    pesize: 32
                - name: Create the LV
                  community.general.lvol:
                    vg: vg
                    lv: lv
                    size: 512
                - name: Rest
                  community.general.lvol: {vg: vg, lv: rest, size: 50%FREE}
                - name: Make the filesystem
                  community.general.filesystem:
                    fstype: xfs
                    dev: /dev/vg/lv
                - name: Mount it
                  ansible.posix.mount: {path: /srv, src: /dev/vg/lv, fstype: xfs, state: mounted}
            """, """
            - name: pv
              community.general.filesystem: {fstype: lvm, dev: /dev/sda2}
            - name: vg
              lvg: vg=vg pvs=/dev/sda1
            - block:
                - community.general.lvol: {vg: vg, thinpool: pool, size: 1g}
                - community.general.lvol: {vg: vg, lv: thin, thinpool: pool, size: 4g}
                - community.general.lvol: {vg: vg, lv: lin, size: 200m}
                - community.general.lvol: {vg: vg, lv: lin, snapshot: snap, size: 100m}
            """, """
            - community.general.lvg: {vg: data, pvs: [/dev/sda1, /dev/sda2], pv_options: --dataalignment 448k}
            - community.general.lvol: {vg: data, lv: a, size: 100%PVS, pvs: [/dev/sda1], opts: --alloc anywhere}
            - community.general.filesystem: {fstype: ext4, dev: /dev/data/a, opts: -E nodiscard}
            - community.general.parted: {device: /dev/sdb}
            """);

    static LayoutSpec host() {
        return Layout.builder(KernelProfile.LINUX_6_12)
                .disk("sda", DiskPresets.ahciSata())
                .partitionTable("sda", PartitionTableType.MSDOS,
                        PartitionSpec.at(Sectors.of(2048), Sectors.of(8388608)),
                        PartitionSpec.at(Sectors.of(8390656), Sectors.of(8388608)))
                .disk("sdb", DiskPresets.scsiDebug(4096, 4096, 0).withSize(Bytes.gib(8)))
                .build().spec().orElseThrow();
    }

    @Test
    void fixturesReadAndApply() {
        for (String f : FIXTURES) {
            PlanResult r = Plan.parse(f, "fixture.yaml", PlanFormat.ANSIBLE).applyTo(host());
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
            Plan plan = Plan.parse(input, "fuzz.yml", PlanFormat.ANSIBLE);
            if (random.nextInt(20) == 0) {
                PlanResult r = plan.applyTo(host);
                assertThat(r.entries().size()).isLessThanOrEqualTo(plan.commands().size());
                applied[0]++;
            }
            return FuzzTally.PARSED;
        }, PlanException.class, e -> e.line() >= 1 && e.column() >= 1 && e.getMessage() != null
                && e.getMessage().startsWith("fuzz.yml:"));
    }
}
