package dev.dmmodel.impl.plan.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.plan.PlanException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shell subset provisioning scripts are written in, read as sh reads it. */
class ShellLexerTest {

    private static List<ShellLexer.Parsed> read(String text) {
        return ShellLexer.read(text, "p.sh");
    }

    private static List<String> words(ShellLexer.Parsed p) {
        return p.command().words().stream().map(Word::text).toList();
    }

    @Test
    void commentsContinuationsQuotesAndVariables() {
        List<ShellLexer.Parsed> cmds = read("""
                #!/bin/bash
                # provision the data disk
                set -euo pipefail
                DISKS="/dev/sdb /dev/sdc"   # two PVs
                export VG=data
                pvcreate $DISKS
                vgcreate -s 8M \\
                    "$VG" ${DISKS}
                lvcreate -n 'my lv' -L 10G "$VG" && echo done; sync
                sudo -E lvs >/dev/null 2>&1
                """);
        assertThat(cmds).extracting(ShellLexerTest::words).containsExactly(
                List.of("set", "-euo", "pipefail"),
                // an unquoted expansion splits at blanks, a quoted one does not
                List.of("pvcreate", "/dev/sdb", "/dev/sdc"),
                List.of("vgcreate", "-s", "8M", "data", "/dev/sdb", "/dev/sdc"),
                List.of("lvcreate", "-n", "my lv", "-L", "10G", "data"),
                List.of("echo", "done"),
                List.of("sync"),
                List.of("lvs"));
        ShellCommand vgcreate = cmds.get(2).command();
        // the continued command starts on line 7; its word 3 ("$VG") is on line 8, column 5
        assertThat(vgcreate.origin().line()).isEqualTo(7);
        assertThat(vgcreate.words().get(3)).isEqualTo(new Word("data", 8, 5));
        assertThat(vgcreate.origin().text()).isEqualTo("vgcreate -s 8M \"$VG\" ${DISKS}");
    }

    @Test
    void hereDocumentsHereStringsAndEchoPipesAreStandardInput() {
        List<ShellLexer.Parsed> cmds = read("""
                sfdisk /dev/sda <<EOF
                label: dos
                start=$START, type=8e
                EOF
                sfdisk /dev/sdb <<-'END' && partprobe
                \tstart=$NOT_EXPANDED
                \tEND
                echo ',,L' | sfdisk /dev/sdc
                printf 'label: gpt\\n%s\\n' 'size=1G' | sfdisk /dev/sdd
                sfdisk /dev/sde <<< ',,8e'
                """.replace("sfdisk /dev/sda", "START=2048\nsfdisk /dev/sda"));
        assertThat(cmds).extracting(p -> p.command().stdin().orElse(null)).containsExactly(
                "label: dos\nstart=2048, type=8e\n",     // expanded: an unquoted delimiter
                "start=$NOT_EXPANDED\n",                  // <<-'END': tabs stripped, nothing expanded
                null,                                     // partprobe after &&
                ",,L\n",
                "label: gpt\nsize=1G\n",
                ",,8e\n");
        // the here-document's body starts on line 3 (line 1 is the assignment)
        assertThat(cmds.get(0).command().stdinLine()).isEqualTo(3);
        assertThat(words(cmds.get(2))).containsExactly("partprobe");
    }

    @Test
    void orTrueIgnoresAFailure() {
        List<ShellLexer.Parsed> cmds = read("wipefs -a /dev/sdb || true\npvcreate /dev/sdb\n");
        assertThat(cmds).extracting(ShellLexer.Parsed::failureIgnored).containsExactly(true, false);
    }

    @Test
    void everyConstructOutsideTheSubsetIsNamedAtItsPlace() {
        String[][] cases = {
                {"if true; then pvcreate /dev/sda; fi\n", "p.sh:1:1: shell construct \"if\" (a conditional)"},
                {"while :; do sync; done\n", "p.sh:1:1: shell construct \"while\" (a loop)"},
                {"setup() { pvcreate /dev/sda; }\n", "p.sh:1:1: a function definition \"setup()\""},
                {"pvcreate `ls`\n", "p.sh:1:10: command substitution `...`"},
                {"X=$((1+2))\n", "p.sh:1:3: arithmetic expansion $((...))"},
                {"pvcreate $1\n", "p.sh:1:10: special parameter \"$1\""},
                {"pvcreate ${D:-/dev/sda}\n", "p.sh:1:10: parameter expansion \"${D:-/dev/sda}\""},
                {"lsblk | grep sda\n", "p.sh:1:1: a pipeline from \"lsblk\""},
                {"sfdisk /dev/sda < layout.txt\n", "p.sh:1:17: input redirection \"< layout.txt\""},
                {"pvcreate /dev/sda &\n", "p.sh:1:19: \"&\" (a background job)"},
                {"(pvcreate /dev/sda)\n", "p.sh:1:1: \"(\" (a subshell or function)"},
                {"pvcreate /dev/sd*\n", "p.sh:1:17: a file name pattern \"*\""},
                {"pvcreate 'unterminated\n", "p.sh:1:10: an unterminated ' quote"},
                {"sfdisk /dev/sda <<EOF\nlabel: gpt\n", "p.sh:1:19: here-document \"<<EOF\" without its end"},
                {"wipefs -a /dev/sda || reboot\n", "p.sh:1:23: \"||\" before \"reboot\": expected only \"|| true\""},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> read(c[0])).as(c[0]).isInstanceOf(PlanException.class)
                    .hasMessageStartingWith(c[1]);
        }
    }
}
