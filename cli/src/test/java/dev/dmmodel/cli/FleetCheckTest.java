package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code check} over a fleet: the fixtures limits-sd-512e (two ERROR dm.table.overlap, three WARNINGs, three INFO
 * thin.pool.overprovisioned: CheckCommandTest) and ss-str-1M-at32k (no finding), and hosts that cannot be read.
 */
class FleetCheckTest {

    @TempDir
    Path tmp;

    private static final String SD512E_FINDINGS = "[{\"id\": \"dm.table.overlap\", \"severity\": \"ERROR\", \"device\":"
            + " \"dm-2\"}, {\"id\": \"dm.table.overlap\", \"severity\": \"ERROR\", \"device\": \"dm-2\"}, {\"id\":"
            + " \"align.partition.physical-block\", \"severity\": \"WARNING\", \"device\": \"sdg1\"}, {\"id\":"
            + " \"align.device.offset\", \"severity\": \"WARNING\", \"device\": \"dm-0\"}, {\"id\":"
            + " \"align.device.misaligned\", \"severity\": \"WARNING\", \"device\": \"dm-2\"}, {\"id\":"
            + " \"thin.pool.overprovisioned\", \"severity\": \"INFO\", \"device\": \"dm-6\"}, {\"id\":"
            + " \"thin.pool.overprovisioned\", \"severity\": \"INFO\", \"device\": \"dm-10\"}, {\"id\":"
            + " \"thin.pool.overprovisioned\", \"severity\": \"INFO\", \"device\": \"dm-14\"}]";

    @Test
    void jsonl_oneLinePerHost_inTheOrderGiven_exit1ForFindings() {
        String a = Cli.snapshot("ss-str-1M-at32k").toString();
        String b = Cli.snapshot("limits-sd-512e").toString();
        Cli.Result r = Cli.run("check", "--snapshot", a, "--snapshot", b, "--format", "jsonl");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.outLines()).containsExactly(
                "{\"host\": " + quoted(a) + ", \"kernel\": \"linux-6.1\", \"status\": \"ok\", \"findings\": [],"
                        + " \"planFailure\": null, \"error\": null}",
                "{\"host\": " + quoted(b) + ", \"kernel\": \"linux-6.1\", \"status\": \"findings\", \"findings\": "
                        + SD512E_FINDINGS + ", \"planFailure\": null, \"error\": null}");
        for (String line : r.outLines()) {
            assertThat(MiniJson.object(MiniJson.parse(line)).keySet())
                    .containsExactly("host", "kernel", "status", "findings", "planFailure", "error");
        }
    }

    @Test
    void aHostThatCannotBeRead_isAnErrorLine_theOthersStillChecked_exit2() {
        String a = Cli.snapshot("ss-str-1M-at32k").toString();
        Path missing = tmp.resolve("gone");
        Cli.Result r = Cli.run("check", "--snapshot", missing.toString(), "--snapshot", a, "--format", "jsonl");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.outLines()).containsExactly(
                "{\"host\": " + quoted(missing.toString()) + ", \"kernel\": null, \"status\": \"error\", \"findings\": [],"
                        + " \"planFailure\": null, \"error\": " + quoted(missing
                        + ": found nothing; expected a snapshot directory holding block/") + "}",
                "{\"host\": " + quoted(a) + ", \"kernel\": \"linux-6.1\", \"status\": \"ok\", \"findings\": [],"
                        + " \"planFailure\": null, \"error\": null}");
    }

    @Test
    void aDirectoryOfSnapshots_everySubdirectoryWithBlock_byName_asText() throws Exception {
        Path fleet = Files.createDirectories(tmp.resolve("fleet"));
        Cli.copyOf("ss-str-1M-at32k", fleet);
        Cli.copyOf("limits-sd-512e", fleet);
        Files.createDirectories(fleet.resolve("notes"));    // no block/: not a snapshot, left out
        Cli.write(fleet.resolve("README.txt"), "a file is left out too\n");
        Cli.Result r = Cli.run("check", "--snapshots", fleet.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(1);
        assertThat(r.outLines()).containsExactly(
                "STATUS    KERNEL      HOST: FINDINGS",
                "findings  linux-6.1   limits-sd-512e: ERROR dm.table.overlap [dm-2], ERROR dm.table.overlap [dm-2],"
                        + " WARNING align.partition.physical-block [sdg1], WARNING align.device.offset [dm-0],"
                        + " WARNING align.device.misaligned [dm-2], INFO thin.pool.overprovisioned [dm-6],"
                        + " INFO thin.pool.overprovisioned [dm-10], INFO thin.pool.overprovisioned [dm-14]",
                "ok        linux-6.1   ss-str-1M-at32k",
                "2 hosts: 1 ok, 1 with findings, 0 could not be read");
    }

    @Test
    void allClean_exit0() {
        String a = Cli.snapshot("ss-str-1M-at32k").toString();
        Cli.Result r = Cli.run("check", "--snapshot", a, "--snapshot", a);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.outLines()).endsWith("2 hosts: 2 ok, 0 with findings, 0 could not be read");
    }

    @Test
    void aPlanOnEveryHost_itsFailureIsAFinding() {
        // ss-str-1M-at32k's VG vg on sda and sdb: a second vgcreate of the same name fails as vgcreate does
        Path plan = Cli.write(tmp.resolve("again.sh"), "vgcreate vg /dev/sda\n");
        String a = Cli.snapshot("ss-str-1M-at32k").toString();
        Cli.Result r = Cli.run("check", "--snapshot", a, "--snapshot", a, "--plan", plan.toString(), "--format",
                "jsonl");
        assertThat(r.exitCode()).isEqualTo(1);
        Map<String, Object> line = MiniJson.object(MiniJson.parse(r.outLines().get(0)));
        assertThat(line.get("status")).isEqualTo("findings");
        assertThat((String) line.get("planFailure")).startsWith("again.sh:1: vgcreate: ");
    }

    @Test
    void aDirectoryWithoutSnapshots_isBadInput() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Cli.Result r = Cli.run("check", "--snapshots", empty.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errLines()).containsExactly("dmmodel: --snapshots " + empty
                + ": no snapshot in it; expected subdirectories holding block/");
    }

    @Test
    void severalHosts_onlyForCheck_andNotAsOneJsonObject() {
        String a = Cli.snapshot("ss-str-1M-at32k").toString();
        Cli.Result limits = Cli.run("limits", "--snapshot", a, "--snapshot", a);
        assertThat(limits.exitCode()).isEqualTo(2);
        assertThat(limits.errLines()).containsExactly(
                "dmmodel: --snapshot given 2 times: only check takes several snapshots");
        Cli.Result json = Cli.run("check", "--snapshot", a, "--snapshot", a, "--format", "json");
        assertThat(json.exitCode()).isEqualTo(2);
        assertThat(json.errLines()).containsExactly("dmmodel: --format json is for one host; a fleet is written as"
                + " jsonl (one line a host) or text");
    }

    private static String quoted(String s) {
        return dev.dmmodel.internal.json.JsonWriter.string(s);
    }
}
