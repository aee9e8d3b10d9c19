package dev.dmmodel.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.limits.KernelProfile;
import org.junit.jupiter.api.Test;

/** {@code dmmodel --version}: the release, then every kernel profile preset the build knows. */
class VersionTest {

    @Test
    void namesTheVersionThenEveryPreset() {
        Cli.Result r = Cli.run("--version");
        assertThat(r.exitCode()).isZero();
        assertThat(r.err()).isEmpty();
        // from target/classes there is no manifest: the version line says it is a development build
        assertThat(r.out().lines()).hasSize(2);
        assertThat(r.out().lines().findFirst()).hasValueSatisfying(l -> assertThat(l).matches("dmmodel \\S.*"));
        String profiles = r.out().lines().skip(1).findFirst().orElseThrow();
        assertThat(profiles).startsWith("kernel profiles: ");
        assertThat(KernelProfile.presets()).isNotEmpty().allSatisfy(p ->
                assertThat(profiles).as("preset %s", p.name()).containsPattern("[ ,]" + p.name().replace(".", "\\.") + "\\b"));
        assertThat(profiles).contains(KernelProfile.defaultProfile().name() + " (default)");
        // exactly one entry per preset
        assertThat(profiles.substring("kernel profiles: ".length()).split(", ")).hasSameSizeAs(KernelProfile.presets());
    }

    @Test
    void withoutAManifestItIsADevelopmentBuild() {
        if (Main.class.getPackage().getImplementationVersion() == null) {
            assertThat(Cli.run("-V").out()).startsWith("dmmodel (development build)\n");
        } else {
            assertThat(Cli.run("-V").out()).startsWith("dmmodel " + Main.class.getPackage().getImplementationVersion() + "\n");
        }
    }
}
