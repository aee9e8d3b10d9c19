package dev.dmmodel.testkit.property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** {@link Property}: running, reporting, reproducing, limits and overrides. */
class PropertyRunnerTest {

    /** Runs {@code body} with a system property set (or cleared), restoring it afterwards. */
    static void withSystemProperty(String key, String value, Runnable body) {
        String before = System.getProperty(key);
        try {
            if (value == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, value);
            }
            body.run();
        } finally {
            if (before == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, before);
            }
        }
    }

    @Test
    void aPassingPropertyRunsItsTries() {
        withSystemProperty(Property.TRIES_PROPERTY, null, () -> {
            AtomicInteger calls = new AtomicInteger();
            PropertyResult r = Property.forAll(Gen.choose(0, 10)).named("counts").tries(321).seed(5)
                    .check(v -> calls.incrementAndGet());
            assertThat(r.tries()).isEqualTo(321);
            assertThat(calls).hasValue(321);
            assertThat(r.name()).isEqualTo("counts");
            assertThat(r.seed()).isEqualTo(5);
            assertThat(r.toString()).contains("321 tries passed", "seed 0x0000000000000005");
        });
    }

    @Test
    void theFailureReportSaysEverything() {
        PropertyFailure f = catchThrowableOfType(PropertyFailure.class, () -> Property.forAll(Gen.choose(0, 1 << 30))
                .named("small numbers").seed(0xABCL).check(v -> {
                    if (v > 1000) {
                        throw new AssertionError(v + " is too big");
                    }
                }));
        String m = f.getMessage();
        assertThat(m).startsWith("Property 'small numbers' failed on try " + (f.tryIndex() + 1) + " ("
                + f.passedTries() + " passed), seed 0x0000000000000abc (try seed " + Property.hex(f.trySeed()) + ")");
        assertThat(m).contains("Shrunk counterexample (" + f.shrinkSteps() + " shrink steps, " + f.shrinkRuns()
                + " runs):\n    1001\n");
        assertThat(m).contains("Shrunk failure:\n    java.lang.AssertionError: 1001 is too big");
        assertThat(m).contains("Original counterexample:\n    " + f.originalValue() + "\n");
        assertThat(m).contains("Original failure:\n    java.lang.AssertionError: " + f.originalValue() + " is too big");
        assertThat(m).contains("Reproduce with seed 0x0000000000000abc: .seed(0x0000000000000abcL), "
                + "@PropertyTest(seed = 0x0000000000000abcL) or -Ddmmodel.seed=0x0000000000000abc");
        assertThat(f.getCause()).hasMessage("1001 is too big");
        assertThat(f.originalFailure()).hasMessage(f.originalValue() + " is too big");
        assertThat(f.property()).isEqualTo("small numbers");
        assertThat(f.seed()).isEqualTo(0xABC);
        assertThat(f.trySeed()).isEqualTo(Property.trySeed(0xABC, f.tryIndex()));
        assertThat(f.shrunkValue()).isEqualTo(1001L);
        assertThat(f.shrunkText()).isEqualTo("1001");
    }

    @Test
    void theFailingTrysSeedAloneRegeneratesTheOriginalCounterexample() {
        Gen<List<Long>> gen = Gen.choose(0, 100).listOf(0, 10);
        PropertyFailure f = catchThrowableOfType(PropertyFailure.class, () -> Property.forAll(gen).seed(77)
                .check(v -> assertThat(v).doesNotContain(42L)));
        assertThat(gen.sample(f.trySeed())).isEqualTo(f.originalValue());
    }

    @Test
    void maxShrinksLimitsShrinking() {
        PropertyFailure none = catchThrowableOfType(PropertyFailure.class, () -> Property.forAll(Gen.choose(0, 1 << 30))
                .seed(9).maxShrinks(0).check(v -> assertThat(v).isLessThan(1000)));
        assertThat(none.shrinkSteps()).isZero();
        assertThat(none.shrunkValue()).isEqualTo(none.originalValue());
        PropertyFailure few = catchThrowableOfType(PropertyFailure.class, () -> Property.forAll(Gen.choose(0, 1 << 30))
                .seed(9).maxShrinks(3).check(v -> assertThat(v).isLessThan(1000)));
        assertThat(few.shrinkSteps()).isLessThanOrEqualTo(3);
    }

    @Test
    void shrinkingKeepsToTheOriginalKindOfFailure() {
        // big values fail with one exception, small odd ones with another: shrinking an IllegalStateException
        // must not slip to the AssertionError of 1
        Property.Check<Long> check = v -> {
            if (v > 1_000_000) {
                throw new IllegalStateException("big: " + v);
            }
            if (v % 2 == 1) {
                throw new AssertionError("odd: " + v);
            }
        };
        PropertyFailure f = catchThrowableOfType(PropertyFailure.class,
                () -> Property.forAll(Gen.choose(1_000_001, 1L << 40)).seed(1).check(check));
        assertThat(f.getCause()).isInstanceOf(IllegalStateException.class);
        assertThat(f.shrunkValue()).isEqualTo(1_000_001L);
    }

    @Test
    void anExceptionFromTheGeneratorIsAFailureToo() {
        Gen<Long> broken = Gen.choose(0, 100).map(v -> {
            if (v > 50) {
                throw new IllegalArgumentException("cannot make " + v);
            }
            return v;
        });
        PropertyFailure f = catchThrowableOfType(PropertyFailure.class,
                () -> Property.forAll(broken).seed(3).check(v -> { }));
        assertThat(f.getCause()).hasMessage("cannot make 51");
        assertThat(f.getMessage()).contains("(the generator itself failed)");
    }

    @Test
    void discardedTriesDoNotCount() {
        withSystemProperty(Property.TRIES_PROPERTY, null, () -> {
            List<Long> seen = new ArrayList<>();
            PropertyResult r = Property.forAll(Gen.choose(0, 9)).seed(4).tries(200).check(v -> {
                Property.assume(v % 2 == 0);
                seen.add(v);
            });
            assertThat(r.tries()).isEqualTo(200);
            assertThat(r.discarded()).isPositive();
            assertThat(seen).hasSize(200).allMatch(v -> v % 2 == 0);
        });
    }

    @Test
    void junitAssumptionsDiscardToo() {
        PropertyResult r = Property.forAll(Gen.choose(0, 9)).seed(4).tries(50)
                .check(v -> Assumptions.assumeTrue(v < 5));
        assertThat(r.discarded()).isPositive();
    }

    @Test
    void aPropertyThatDiscardsEverythingGivesUp() {
        assertThatThrownBy(() -> Property.forAll(Gen.choose(0, 9).filter(v -> v > 100, 3)).seed(1).tries(10)
                .check(v -> { }))
                .isInstanceOf(AssertionError.class).isNotInstanceOf(PropertyFailure.class)
                .hasMessageContaining("gave up").hasMessageContaining("seed 0x0000000000000001");
    }

    @Test
    void systemPropertiesOverrideTriesAndSeed() {
        withSystemProperty(Property.TRIES_PROPERTY, "17", () -> withSystemProperty(Property.SEED_PROPERTY,
                "0x00000000000000ff", () -> {
                    PropertyResult r = Property.forAll(Gen.choose(0, 9)).tries(1000).seed(5).check(v -> { });
                    assertThat(r.tries()).isEqualTo(17);
                    assertThat(r.seed()).isEqualTo(255);
                }));
        withSystemProperty(Property.TRIES_PROPERTY, "0", () -> assertThatThrownBy(
                () -> Property.forAll(Gen.choose(0, 9)).check(v -> { })).isInstanceOf(IllegalArgumentException.class));
    }

    @Test
    void seedZeroTakesANewSeedEachRun() {
        withSystemProperty(Property.SEED_PROPERTY, null, () -> {
            long a = Property.forAll(Gen.choose(0, 9)).tries(1).check(v -> { }).seed();
            long b = Property.forAll(Gen.choose(0, 9)).tries(1).check(v -> { }).seed();
            assertThat(a).isNotZero().isNotEqualTo(b);
        });
    }

    @Test
    void pairsHaveTheirOwnForAll() {
        PropertyFailure f = catchThrowableOfType(PropertyFailure.class, () -> Property
                .forAll(Gen.choose(0, 100), Gen.choose(0, 100)).seed(2)
                .check(p -> assertThat(p.first() + p.second()).isLessThan(150)));
        assertThat(f.shrunkText()).isEqualTo("(50, 100)");
    }

    @Test
    void aCustomDescriptionIsUsed() {
        PropertyFailure f = catchThrowableOfType(PropertyFailure.class, () -> Property.forAll(Gen.choose(0, 1 << 20))
                .seed(2).describedBy(v -> "size " + v + " MiB").check(v -> assertThat(v).isLessThan(64)));
        assertThat(f.shrunkText()).isEqualTo("size 64 MiB");
        assertThat(f.getMessage()).contains("    size 64 MiB");
    }

    @Test
    void aLayoutCounterexampleIsPrintedOneLinePerDevice() {
        PropertyFailure f = catchThrowableOfType(PropertyFailure.class, () -> Property
                .forAll(DmGens.stacks().map(StackPlan::build)).seed(3)
                .check(layout -> assertThat(layout.partitions()).isEmpty()));
        assertThat(f.shrunkText()).isEqualTo("""
                Layout (linux-6.12)
                    disk sda SD Bytes.mib(256) lbs=512 pbs=512 io_min=512 io_opt=0 alignment_offset=0 \
                max_sectors=2560 max_segments=168
                    partition sda1 start=2048 size=522240 alignment_offset=0""");
    }
}
