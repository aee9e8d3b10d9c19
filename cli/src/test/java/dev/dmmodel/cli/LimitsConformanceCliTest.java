package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@code dmmodel limits --snapshot DIR} on every snapshot recorded in {@code shared/kernel-traces} and
 * {@code shared/kernel-traces-6.12}: under the recorded kernel, every value it prints for a partition or a dm
 * device equals the file the host's sysfs showed (those values are computed from the disks and tables, never
 * read). Skips, saying so, when the shared folder is absent.
 */
class LimitsConformanceCliTest {

    @Test
    void everyRecordedPartitionAndDmLimitIsReproducedByTheCommand() throws IOException {
        String property = System.getProperty("dmmodel.shared.dir");
        Path shared = property == null || property.isBlank() ? null : Path.of(property);
        Assumptions.assumeTrue(shared != null && Files.isDirectory(shared.resolve("kernel-traces")),
                "shared/kernel-traces absent: skipped");
        List<Path> snapshots = new ArrayList<>();
        for (String set : List.of("kernel-traces", "kernel-traces-6.12")) {
            Path dir = shared.resolve(set);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> s = Files.list(dir)) {
                s.map(c -> c.resolve("snapshot")).filter(Files::isDirectory).sorted().forEach(snapshots::add);
            }
        }
        int compared = 0;
        int devices = 0;
        List<String> differences = new ArrayList<>();
        for (Path snap : snapshots) {
            Cli.Result r = Cli.run("limits", "--snapshot", snap.toString());
            assertThat(r.exitCode()).as("%s: %s", snap, r.err()).isZero();
            Map<String, Object> all = MiniJson.object(MiniJson.object(MiniJson.parse(r.out())).get("devices"));
            for (Map.Entry<String, Object> dev : all.entrySet()) {
                Path dir = derivedDeviceDir(snap, dev.getKey());
                if (dir == null) {
                    continue; // a whole disk: its limits are the input
                }
                if (Files.isDirectory(dir.resolve("dm"))) {
                    devices++;
                }
                for (Map.Entry<String, Object> attr : MiniJson.object(dev.getValue()).entrySet()) {
                    Path f = attr.getKey().equals("alignment_offset") ? dir.resolve("alignment_offset")
                            : dir.resolve("queue").resolve(attr.getKey());
                    if (!Files.isRegularFile(f)) {
                        continue;
                    }
                    String recorded = Files.readString(f).strip();
                    if (!recorded.equals(String.valueOf(attr.getValue()))) {
                        differences.add(snap.getParent().getFileName() + " " + dev.getKey() + " " + attr.getKey()
                                + ": printed " + attr.getValue() + ", recorded " + recorded);
                    }
                    compared++;
                }
            }
        }
        assertThat(differences).as("values that differ from the recorded sysfs files").isEmpty();
        // 79 snapshots; a partition shares its disk's queue (its own file is alignment_offset), a dm device has
        // its alignment offset and a dozen queue files
        assertThat(snapshots).hasSizeGreaterThanOrEqualTo(79);
        assertThat(compared).isGreaterThan(devices * 10);
        System.out.printf("limits --snapshot: %d snapshots, %d dm devices, %d recorded values reproduced%n",
                snapshots.size(), devices, compared);
    }

    /** The recorded directory of a dm device (block/dm-N) or a partition (block/DISK/PART); null for a disk. */
    private static Path derivedDeviceDir(Path snap, String name) throws IOException {
        Path top = snap.resolve("block").resolve(name);
        if (Files.isDirectory(top)) {
            return Files.isDirectory(top.resolve("dm")) ? top : null;
        }
        try (Stream<Path> disks = Files.list(snap.resolve("block"))) {
            return disks.map(p -> p.resolve(name)).filter(p -> Files.isRegularFile(p.resolve("partition")))
                    .findFirst().orElse(null);
        }
    }
}
