package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A host with a dm-crypt device whose table was collected with {@code dmsetup table --showkeys} (the fixture
 * {@code crypt-plain-showkeys}: the planted key 5ec7e7...): every command works on it, and none prints the key,
 * on stdout or stderr, in any format.
 */
class SecretsTest {

    private static final String KEY = "5ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7e75ec7";

    static Stream<List<String>> commands() {
        String snap = Cli.snapshot("crypt-plain-showkeys").toString();
        List<List<String>> out = new ArrayList<>();
        out.add(List.of("limits", "--snapshot", snap));
        out.add(List.of("limits", "--snapshot", snap, "--format", "text"));
        out.add(List.of("show", "--snapshot", snap));
        out.add(List.of("show", "--snapshot", snap, "--format", "svg"));
        out.add(List.of("check", "--snapshot", snap));
        out.add(List.of("check", "--snapshot", snap, "--format", "json"));
        for (String to : List.of("dm-tables", "lvm-commands", "lvm-metadata", "layout")) {
            out.add(List.of("export", "--snapshot", snap, "--to", to));
        }
        out.add(List.of("trace", "--snapshot", snap, "--workload",
                "dd if=/dev/zero of=/dev/mapper/cplain bs=4k count=1 oflag=direct"));
        out.add(List.of("trace", "--snapshot", snap, "--workload",
                "dd if=/dev/zero of=/dev/vda bs=4k count=1 oflag=direct"));
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("commands")
    void noCommandPrintsTheKey(List<String> args) {
        Cli.Result r = Cli.run(args.toArray(String[]::new));
        // never an internal error (3); the LVM exports refuse a host without a volume group (2), as they should
        assertThat(r.exitCode()).as(r.err()).isIn(0, 1, args.contains("lvm-commands") || args.contains("lvm-metadata")
                ? 2 : 0);
        assertThat(r.out()).doesNotContain(KEY).doesNotContain("5ec7e75ec7e7");
        assertThat(r.err()).doesNotContain(KEY).doesNotContain("5ec7e75ec7e7");
    }
}
