package dev.dmmodel.impl.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.limits.Derivation;
import dev.dmmodel.limits.LimitField;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Every recorded case of {@code ${dmmodel.shared.dir}}: each field of each device explains the value the layout
 * reports (the tree's root is that value), every node names a device of the layout, and no node had to give up
 * re-running the rules. One dynamic test per case; without the shared folder one skipped test says so.
 */
class ExplainConformanceTest {
    private static final List<String> FOLDERS = List.of("kernel-traces", "kernel-traces-6.12", "kernel-traces-5.10",
            "kernel-traces-7.2", "kernel-traces-6.12-stacks");

    @TestFactory
    Stream<DynamicNode> everyRecordedLimitIsExplained() throws IOException {
        String property = System.getProperty("dmmodel.shared.dir");
        Path shared = property == null || property.isBlank() ? null : Path.of(property);
        if (shared == null || !Files.isDirectory(shared)) {
            return Stream.of(dynamicTest("explanations of recorded cases", () -> Assumptions.assumeTrue(false,
                    "shared/ folder not found at " + shared + ": explanation conformance skipped")));
        }
        List<DynamicNode> tests = new ArrayList<>();
        for (String folder : FOLDERS) {
            Path root = shared.resolve(folder);
            if (!Files.isDirectory(root)) {
                tests.add(dynamicTest(folder, () -> Assumptions.assumeTrue(false, root + " not found: skipped")));
                continue;
            }
            try (Stream<Path> s = Files.list(root)) {
                for (Path c : s.filter(p -> Files.isDirectory(p.resolve("snapshot"))).sorted().toList()) {
                    tests.add(dynamicTest(folder + "/" + c.getFileName(), () -> check(c.resolve("snapshot"))));
                }
            }
        }
        return tests.stream();
    }

    private static void check(Path snapshot) {
        Layout layout;
        try {
            layout = Layout.of(HostSnapshot.read(snapshot).toLayoutSpec());
        } catch (RuntimeException e) {
            Assumptions.assumeTrue(false, "the snapshot does not build (covered by the limits conformance): " + e);
            return;
        }
        for (BlockDevice dev : layout.devices()) {
            for (Derivation d : layout.explain(dev.name())) {
                String what = dev.name() + " " + d.field();
                assertThat(d.value()).as(what).isEqualTo(d.field().valueOf(dev.limits()));
                assertThat(d.device()).as(what).isEqualTo(dev.name());
                assertThat(d.walk()).as(what).allSatisfy(n -> {
                    assertThat(layout.find(n.device())).as(what + " names " + n.device()).isPresent();
                    assertThat(n.detail()).as(what).doesNotContain("could not be re-run");
                });
                if (d.field() == LimitField.MAX_SECTORS_KB) {
                    assertThat(d.leaves()).as(what + " ends in a value from outside the stacking").isNotEmpty();
                }
            }
        }
    }
}
