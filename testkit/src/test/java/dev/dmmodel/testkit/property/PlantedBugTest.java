package dev.dmmodel.testkit.property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.layout.Layout;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The shrinking demonstration of issue 6: a planner with a planted bug ({@link BuggyPlanner}) is checked
 * against "no partition or PV is misaligned". The property finds the bug, and the counterexample it
 * reports is the smallest that shows it: one SAS disk of 1 GiB (the smallest size the request generator
 * allows, a power of two), the preset's own limits, one LV of one 4 MiB extent.
 */
class PlantedBugTest {

    /** What the shrunk counterexample must print, exactly. */
    static final String MINIMAL = "BuggyPlanner.Request\n"
            + "    .disk(\"sda\", DiskPresets.sasDisk().withSize(Bytes.gib(1)))\n"
            + "    .lv(Bytes.mib(4))";

    /** The property a user would write. */
    static Property.Runner<BuggyPlanner.Request> noMisalignment(long seed) {
        return Property.forAll(BuggyPlanner.requests())
                .named("no misaligned partition or PV")
                .seed(seed)
                .tries(1000);
    }

    static void check(BuggyPlanner.Request request) {
        Layout layout = BuggyPlanner.plan(request);
        List<Finding> misaligned = layout.findings().stream()
                .filter(f -> f.id().startsWith("align.partition.") || f.id().startsWith("align.pv."))
                .toList();
        assertThat(misaligned).as("alignment findings").isEmpty();
    }

    @Test
    void theBugIsFoundAndShrunkToOneDiskAndOneRoundLv() {
        PropertyFailure failure = catchThrowableOfType(PropertyFailure.class,
                () -> noMisalignment(0x5EED_0006L).check(PlantedBugTest::check));

        assertThat(failure).as("the planted bug is found").isNotNull();
        System.out.println(failure.getMessage());
        BuggyPlanner.Request shrunk = (BuggyPlanner.Request) failure.shrunkValue();
        assertThat(shrunk.disks()).as("one disk").hasSize(1);
        assertThat(shrunk.lvSizes()).as("one LV, one extent").containsExactly(4L << 20);
        StackPlan.Disk disk = shrunk.disks().get(0);
        assertThat(disk.preset()).isEqualTo("DiskPresets.sasDisk()");
        assertThat(disk.hasLimitOverrides()).as("the preset's own limits").isFalse();
        assertThat(disk.sizeBytes()).as("a round size: the smallest allowed, 1 GiB").isEqualTo(1L << 30);
        assertThat(disk.spec()).isEqualTo(DiskPresets.sasDisk().withSize(dev.dmmodel.units.Bytes.gib(1)));
        assertThat(failure.shrunkText()).isEqualTo(MINIMAL);
        // the report: seed, tries, both counterexamples, steps, the original failure; the cause is the shrunk one
        String message = failure.getMessage();
        assertThat(message)
                .contains("Property 'no misaligned partition or PV' failed on try " + (failure.tryIndex() + 1))
                .contains("seed " + Property.hex(failure.seed()))
                .contains("Shrunk counterexample (" + failure.shrinkSteps() + " shrink steps")
                .contains(MINIMAL.replace("\n", "\n    "))
                .contains("Original counterexample:\n    " + failure.originalText().replace("\n", "\n    "))
                .contains("Original failure:")
                .contains("align.partition.physical-block");
        assertThat(failure.shrinkSteps()).isPositive();
        assertThat(failure.getCause()).isInstanceOf(AssertionError.class).isSameAs(failure.shrunkFailure());
        assertThat(failure.getCause().getMessage()).contains("sda1 starts at sector 63");
    }

    @Test
    void rerunningWithThePrintedSeedReproducesTheFailure() {
        PropertyFailure first = catchThrowableOfType(PropertyFailure.class,
                () -> noMisalignment(0).check(PlantedBugTest::check));
        Matcher m = Pattern.compile("Reproduce with seed (0x[0-9a-f]{16})").matcher(first.getMessage());
        assertThat(m.find()).as("the message prints the seed").isTrue();
        long printed = Property.parseSeed(m.group(1));
        assertThat(printed).isEqualTo(first.seed());

        PropertyFailure again = catchThrowableOfType(PropertyFailure.class,
                () -> noMisalignment(printed).check(PlantedBugTest::check));

        assertThat(again).isNotNull();
        assertThat(again.tryIndex()).isEqualTo(first.tryIndex());
        assertThat(again.trySeed()).isEqualTo(first.trySeed());
        assertThat(again.originalText()).isEqualTo(first.originalText());
        assertThat(again.shrunkText()).isEqualTo(first.shrunkText());
        assertThat(again.shrinkSteps()).isEqualTo(first.shrinkSteps());
        assertThat(again.getMessage()).isEqualTo(first.getMessage());
    }

    @Test
    void everySeedShrinksToTheSameMinimalCounterexample() {
        for (long seed = 1; seed <= 5; seed++) {
            long s = seed;
            PropertyFailure f = catchThrowableOfType(PropertyFailure.class,
                    () -> noMisalignment(s).check(PlantedBugTest::check));
            assertThat(f).isNotNull();
            assertThat(f.shrunkText()).as("seed %s, original:%n%s", Property.hex(f.seed()), f.originalText())
                    .isEqualTo(MINIMAL);
        }
    }

    @Test
    void theFixedPlannerPasses() {
        PropertyResult result = noMisalignment(0).check(request -> {
            Layout layout = BuggyPlanner.plan(request, true);
            assertThat(layout.findings()).noneMatch(f -> f.id().startsWith("align.partition.")
                    || f.id().startsWith("align.pv."));
        });
        assertThat(result.tries()).isGreaterThanOrEqualTo(1000);
    }
}
