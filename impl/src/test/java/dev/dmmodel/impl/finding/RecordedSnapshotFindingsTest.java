package dev.dmmodel.impl.finding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.Severity;
import dev.dmmodel.impl.format.snapshot.Snapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.spi.ModelProviders;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The errors of the recorded hosts. The workload cases (lp-, mr-, s3-, ss-, thin-) ran their writes on stacks
 * that lose no data: no error. The limits-* cases probe queue limits only, and map each of sdg1 and sdh1 twice
 * on purpose (lin63 and lin2048 whole, strparts striped over both): two {@code dm.table.overlap} errors each,
 * on dm-2 (strparts).
 */
class RecordedSnapshotFindingsTest {

    @Test
    void onlyTheLimitsProbesMapSectorsTwice() throws IOException {
        String property = System.getProperty("dmmodel.shared.dir");
        Path shared = property == null || property.isBlank() ? null : Path.of(property);
        Assumptions.assumeTrue(shared != null && Files.isDirectory(shared.resolve("kernel-traces")),
                "shared/kernel-traces absent: skipped");
        List<String> errors = new ArrayList<>();
        int snapshots = 0;
        int limitsCases = 0;
        int limitsErrors = 0;
        for (String folder : List.of("kernel-traces", "kernel-traces-6.12")) {
            Path root = shared.resolve(folder);
            if (!Files.isDirectory(root)) {
                continue;
            }
            List<Path> cases;
            try (Stream<Path> s = Files.list(root)) {
                cases = s.filter(p -> Files.isDirectory(p.resolve("snapshot"))).sorted().toList();
            }
            for (Path c : cases) {
                Snapshot snapshot = Snapshot.read(c.resolve("snapshot"));
                KernelProfile profile = snapshot.profile().orElse(KernelProfile.defaultProfile());
                Layout layout = ModelProviders.get().build(snapshot.toLayoutSpec(profile));
                snapshots++;
                if (c.getFileName().toString().startsWith("limits-")) {
                    limitsCases++;
                }
                for (Finding f : layout.findings()) {
                    if (f.severity() == Severity.ERROR) {
                        errors.add(folder + "/" + c.getFileName() + ": " + f);
                        if (c.getFileName().toString().startsWith("limits-")) {
                            assertThat(f.id()).isEqualTo("dm.table.overlap");
                            assertThat(f.device()).isEqualTo("dm-2");
                            assertThat(f.message()).startsWith("dm-2 (strparts) maps sectors");
                            limitsErrors++;
                        }
                    }
                }
            }
        }
        assertThat(snapshots).isGreaterThan(40);
        assertThat(limitsCases).isGreaterThan(0);
        // strparts stripes over sdg1 (also lin63) and sdh1 (also lin2048): one error per partition
        assertThat(limitsErrors).isEqualTo(2 * limitsCases);
        assertThat(errors).as("errors outside the limits probes").hasSize(limitsErrors);
    }
}
