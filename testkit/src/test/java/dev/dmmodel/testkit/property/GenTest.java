package dev.dmmodel.testkit.property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The generator core: determinism, ranges, and what each combinator shrinks to. */
class GenTest {

    /** Runs a property that must fail and returns the shrunk counterexample. */
    @SuppressWarnings("unchecked")
    static <T> T shrunk(Gen<T> gen, long seed, Property.Check<T> check) {
        PropertyFailure f = catchThrowableOfType(PropertyFailure.class,
                () -> Property.forAll(gen).seed(seed).tries(1000).check(check));
        assertThat(f).as("the property fails").isNotNull();
        return (T) f.shrunkValue();
    }

    static void fails(boolean ok, Object value) {
        if (!ok) {
            throw new AssertionError("counterexample " + value);
        }
    }

    @Nested
    class Determinism {
        @Test
        void theSameSeedGivesTheSameValues() {
            Gen<List<Long>> gen = Gen.choose(-1000, 1000).listOf(0, 10);
            for (long seed = 0; seed < 200; seed++) {
                assertThat(gen.sample(seed)).isEqualTo(gen.sample(seed));
            }
        }

        @Test
        void differentSeedsGiveDifferentValues() {
            Gen<Long> gen = Gen.choose(0, Long.MAX_VALUE);
            Set<Long> seen = new HashSet<>();
            for (long seed = 0; seed < 200; seed++) {
                seen.add(gen.sample(seed));
            }
            assertThat(seen.size()).isGreaterThan(150);
        }

        @Test
        void replayingTheRecordedChoicesGivesTheSameValue() {
            Gen<List<Long>> gen = Gen.choose(0, 1 << 20).listOf(0, 8);
            for (long seed = 0; seed < 100; seed++) {
                Source s = Source.random(seed);
                List<Long> v = s.draw(gen);
                assertThat(Source.replay(s.recorded()).draw(gen)).isEqualTo(v);
            }
        }

        @Test
        void trySeedsDependOnTheBaseSeedAndTheIndex() {
            assertThat(Property.trySeed(1, 0)).isEqualTo(Property.trySeed(1, 0))
                    .isNotEqualTo(Property.trySeed(1, 1)).isNotEqualTo(Property.trySeed(2, 0));
        }

        @Test
        void seedsPrintAndParseBothWays() {
            for (long seed : new long[] {0, 1, -1, Long.MIN_VALUE, 0x5EED_0006L, 0x8fb6ab83e74524dbL}) {
                assertThat(Property.parseSeed(Property.hex(seed))).isEqualTo(seed);
                assertThat(Property.parseSeed(Property.hex(seed) + "L")).isEqualTo(seed);
            }
            assertThat(Property.parseSeed("42")).isEqualTo(42);
            assertThatThrownBy(() -> Property.parseSeed("x42")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Nested
    class Sources {
        @Test
        void aReplayBeyondItsRecordingAnswersZeroAndClampsToTheBound() {
            Source s = Source.replay(new long[] {7, 100});
            assertThat(s.choice(10)).isEqualTo(7);
            assertThat(s.choice(10)).as("clamped").isEqualTo(10);
            assertThat(s.choice(10)).as("beyond the recording").isZero();
            assertThat(s.recorded()).containsExactly(7, 10, 0);
        }

        @Test
        void theSimplestValueComesFromAllZeroChoices() {
            assertThat(Gen.choose(5, 9).simplest()).isEqualTo(5);
            assertThat(Gen.choose(5, 9, 7).simplest()).isEqualTo(7);
            assertThat(Gen.choose(0, 9).listOf(2, 5).simplest()).containsExactly(0L, 0L);
            assertThat(Gen.elements("a", "b").simplest()).isEqualTo("a");
            assertThat(Gen.booleans().simplest()).isFalse();
        }

        @Test
        void unsignedBoundsCoverEveryLong() {
            Gen<Long> all = Gen.choose(Long.MIN_VALUE, Long.MAX_VALUE);
            boolean negative = false;
            boolean positive = false;
            for (long seed = 0; seed < 100; seed++) {
                long v = all.sample(seed);
                negative |= v < 0;
                positive |= v > 0;
            }
            assertThat(negative && positive).isTrue();
            assertThat(all.simplest()).isEqualTo(Long.MIN_VALUE);
        }

        @Test
        void aRunawayGeneratorIsDiscarded() {
            Gen<Integer> forever = s -> {
                while (true) {
                    s.choice(1);
                }
            };
            assertThatThrownBy(() -> forever.sample(1)).isInstanceOf(Source.Discard.class);
        }
    }

    @Nested
    class Ranges {
        @Test
        void everyFactoryStaysInItsRange() {
            Property.forAll(Gen.zip(Gen.choose(-5, 5), Gen.choose(10, 20, 17), Gen.powerOfTwo(4, 1024)))
                    .seed(1).tries(2000).check(t -> {
                        assertThat(t.first()).isBetween(-5L, 5L);
                        assertThat(t.second()).isBetween(10L, 20L);
                        assertThat(Long.bitCount(t.third())).isEqualTo(1);
                        assertThat(t.third()).isBetween(4L, 1024L);
                    });
            Property.forAll(Gen.logScale(3, 1L << 40)).seed(2).tries(2000)
                    .check(v -> assertThat(v).isBetween(3L, 1L << 40));
            Property.forAll(Gen.ints(-3, 3)).seed(3).tries(500).check(v -> assertThat(v).isBetween(-3, 3));
        }

        @Test
        void chooseAroundATargetIsABijection() {
            // every value of the range is reachable, each from exactly one choice
            for (long target = 10; target <= 20; target++) {
                Set<Long> seen = new HashSet<>();
                for (long c = 0; c <= 10; c++) {
                    seen.add(Gen.choose(10, 20, target).generate(Source.replay(new long[] {c})));
                }
                assertThat(seen).hasSize(11);
            }
        }

        @Test
        void logScaleReachesEveryMagnitude() {
            Set<Integer> bits = new HashSet<>();
            for (long seed = 0; seed < 2000; seed++) {
                bits.add(64 - Long.numberOfLeadingZeros(Gen.logScale(1, 1L << 40).sample(seed)));
            }
            assertThat(bits).hasSizeGreaterThan(35);
        }

        @Test
        void listsHaveTheirLengths() {
            Property.forAll(Gen.choose(0, 9).listOf(2, 4)).seed(4).tries(500)
                    .check(l -> assertThat(l).hasSizeBetween(2, 4));
        }

        @Test
        void frequencyFollowsTheWeights() {
            Gen<String> gen = Gen.frequency(Gen.weighted(1, Gen.constant("rare")),
                    Gen.weighted(9, Gen.constant("often")));
            int rare = 0;
            for (long seed = 0; seed < 5000; seed++) {
                rare += gen.sample(seed).equals("rare") ? 1 : 0;
            }
            assertThat(rare).isBetween(350, 650);
        }

        @Test
        void badArgumentsAreRefused() {
            assertThatThrownBy(() -> Gen.choose(2, 1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> Gen.choose(1, 5, 9)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> Gen.powerOfTwo(3, 8)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> Gen.elements(List.of())).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> Gen.choose(0, 1).listOf(3, 2)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> Gen.weighted(0, Gen.constant(1))).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Nested
    class Shrinking {
        @Test
        void anIntegerShrinksToTheBoundary() {
            assertThat(shrunk(Gen.choose(0, 1_000_000_000L), 1, v -> fails(v <= 1000, v))).isEqualTo(1001);
            assertThat(shrunk(Gen.choose(-1_000_000, 1_000_000), 2, v -> fails(v < 77, v))).isEqualTo(77);
        }

        @Test
        void anIntegerShrinksTowardsItsTarget() {
            // values far from 500 fail; the simplest failing one is the nearest to the target
            assertThat(shrunk(Gen.choose(0, 1000, 500), 3, v -> fails(Math.abs(v - 500) < 100, v))).isEqualTo(600);
        }

        @Test
        void aListShrinksToOneMinimalElement() {
            List<Long> l = shrunk(Gen.choose(0, 1_000_000).listOf(0, 20), 4,
                    v -> fails(v.stream().noneMatch(x -> x >= 500), v));
            assertThat(l).containsExactly(500L);
        }

        @Test
        void aListShrinksToTheShortestSum() {
            List<Long> l = shrunk(Gen.choose(0, 1_000_000).listOf(0, 20), 5,
                    v -> fails(v.stream().mapToLong(x -> x).sum() <= 1000, v));
            assertThat(l).containsExactly(1001L);
        }

        @Test
        void listElementsAreDeletedFromTheMiddle() {
            // fails when some element is 7 and some later element is 3: the shrunk list is just those two
            List<Long> l = shrunk(Gen.choose(0, 9).listOf(0, 30), 6, v -> {
                int seven = v.indexOf(7L);
                fails(seven < 0 || !v.subList(seven, v.size()).contains(3L), v);
            });
            assertThat(l).containsExactly(7L, 3L);
        }

        @Test
        void aFilteredGeneratorKeepsItsConstraintWhileShrinking() {
            Gen<Long> evens = Gen.choose(0, 1_000_000).filter(v -> v % 2 == 0);
            assertThat(shrunk(evens, 7, v -> fails(v <= 100, v))).isEqualTo(102);
        }

        @Test
        void aFlatMappedGeneratorShrinksBothParts() {
            // a "disk" and a "partition" no larger than it: the pair shrinks with the constraint intact
            Gen<Gen.Pair<Long, Long>> sized = Gen.choose(1, 1_000_000)
                    .flatMap(disk -> Gen.choose(1, disk).map(part -> new Gen.Pair<>(disk, part)));
            Gen.Pair<Long, Long> p = shrunk(sized, 8, v -> fails(v.second() <= 50, v));
            assertThat(p).isEqualTo(new Gen.Pair<>(51L, 51L));
        }

        @Test
        void mappedValuesShrinkAsTheirSource() {
            Gen<String> names = Gen.choose(0, 10_000).map(n -> "disk" + n);
            assertThat(shrunk(names, 9, v -> fails(v.length() < 7, v))).isEqualTo("disk100");
        }

        @Test
        void alternativesShrinkTowardsTheFirst() {
            Gen<String> g = Gen.oneOf(Gen.constant("linear"), Gen.choose(2, 8).map(n -> "striped" + n));
            assertThat(shrunk(g, 10, v -> fails(false, v))).isEqualTo("linear");
            assertThat(shrunk(g, 11, v -> fails(v.equals("linear"), v))).isEqualTo("striped2");
            Gen<String> f = Gen.frequency(Gen.weighted(1, Gen.constant("a")), Gen.weighted(100, Gen.constant("b")));
            assertThat(shrunk(f, 12, v -> fails(false, v))).isEqualTo("a");
            assertThat(shrunk(Gen.elements("x", "y", "z"), 13, v -> fails(!v.equals("z"), v))).isEqualTo("z");
        }

        @Test
        void powersOfTwoShrinkToTheSmallestFailing() {
            assertThat(shrunk(Gen.powerOfTwo(1, 1L << 40), 14, v -> fails(v < 5000, v))).isEqualTo(8192);
            assertThat(shrunk(Gen.powerOfTwo(1, 1L << 40, 65536), 15, v -> fails(v < 1 << 20, v)))
                    .isEqualTo(1L << 20);
        }

        @Test
        void twoListsAreShrunkIndependently() {
            Gen<Gen.Pair<List<Long>, List<Long>>> g = Gen.zip(Gen.choose(0, 100).listOf(0, 10),
                    Gen.choose(0, 100).listOf(0, 10));
            Gen.Pair<List<Long>, List<Long>> p = shrunk(g, 16,
                    v -> fails(v.first().size() < 2 || v.second().isEmpty(), v));
            assertThat(p).isEqualTo(new Gen.Pair<>(List.of(0L, 0L), List.of(0L)));
        }

        @Test
        void sortingPutsEqualShapedElementsInOrder() {
            List<Long> l = shrunk(Gen.choose(0, 100).listOf(0, 10), 17, v -> {
                List<Long> big = new ArrayList<>();
                v.forEach(x -> {
                    if (x >= 10) {
                        big.add(x);
                    }
                });
                fails(big.size() < 2 || big.get(0) == 10 && big.get(1) == 10, v);
            });
            assertThat(l).hasSize(2).allMatch(x -> x >= 10).contains(10L);
        }
    }
}
