package dev.dmmodel.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.limits.RuleHistory.Point;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The history table against the presets, which are the recorded truth: composed at a preset's version, every
 * rule must come out as the preset has it. The getters are found by reflection, so a rule added to
 * {@link KernelProfile} without a history fails here too.
 */
class RuleHistoryTest {

    /** Every rule getter of {@link KernelProfile}: public, no arguments, a boolean, number or enum. */
    static List<Method> ruleGetters() {
        List<Method> out = new ArrayList<>();
        for (Method m : KernelProfile.class.getMethods()) {
            Class<?> t = m.getReturnType();
            boolean ruleType = t == boolean.class || t == int.class || t == long.class || t.isEnum();
            if (!Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 0 && ruleType
                    && m.getDeclaringClass() == KernelProfile.class
                    && !Set.of("major", "minor", "hashCode").contains(m.getName())) {
                out.add(m);
            }
        }
        return out;
    }

    /** The getters (pageSize included) whose values differ, as {@code name: actual ≠ expected}. */
    static List<String> differingRules(KernelProfile actual, KernelProfile expected) {
        List<String> out = new ArrayList<>();
        for (Method m : ruleGetters()) {
            try {
                Object a = m.invoke(actual);
                Object e = m.invoke(expected);
                if (!a.equals(e)) {
                    out.add(m.getName() + ": " + a + " ≠ " + e);
                }
            } catch (ReflectiveOperationException ex) {
                throw new AssertionError(m.getName(), ex);
            }
        }
        return out;
    }

    static List<KernelProfile> presets() {
        return KernelProfile.presets();
    }

    @Test
    void theReflectionFindsTheRules() {
        // 24 rules plus the page size
        assertThat(ruleGetters()).hasSize(25);
        assertThat(differingRules(KernelProfile.LINUX_6_12, KernelProfile.LINUX_6_1))
                .contains("validateLimitsOnCommit: true ≠ false", "thinDiscardLimit: BIO_PRISON_RANGE ≠ FIXED_16_GIB");
        assertThat(differingRules(KernelProfile.LINUX_6_12, KernelProfile.LINUX_6_12.toBuilder().name("x").build()))
                .isEmpty();
    }

    @Test
    void everyRuleOfTheProfileHasAHistory() {
        Set<String> getters = ruleGetters().stream().map(Method::getName).collect(Collectors.toCollection(TreeSet::new));
        getters.remove("pageSize"); // 4096 on every kernel the model knows: not a rule that changes
        Set<String> history = RuleHistory.RULES.stream().map(RuleHistory.Rule::name)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(history).isEqualTo(getters);
        assertThat(RuleHistory.RULES).hasSize(getters.size());
    }

    @ParameterizedTest
    @MethodSource("presets")
    void composedAtAPresetsVersionEveryRuleIsThePresets(KernelProfile preset) {
        KernelProfile composed = RuleHistory.compose(Point.of(preset), "composed", "composed for the test").build();
        assertThat(differingRules(composed, preset)).as("rules of the history at %s", preset).isEmpty();
        assertThat(RuleHistory.sameRules(composed, preset)).isTrue();
        assertThat(RuleHistory.differences(composed, preset)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("presets")
    void forReleaseAtAPresetsVersionGivesThePresetInstance(KernelProfile preset) {
        String version = preset.name().substring("linux-".length());
        assertThat(KernelProfile.forRelease(version)).isSameAs(preset);
        assertThat(KernelProfile.forRelease(version + (preset.major() == 2 ? "-1" : ".99-1-amd64"))).isSameAs(preset);
    }

    @Test
    void sameRulesNoticesEachRule() {
        KernelProfile a = KernelProfile.LINUX_6_12;
        assertThat(RuleHistory.sameRules(a, a.toBuilder().stripedDiscardSpansStripes(true).build())).isFalse();
        assertThat(RuleHistory.differences(a,
                a.toBuilder().readAheadFolios(KernelProfile.ReadAheadFolios.ALIGNED_ORDER_RAMP).build()))
                .containsExactly("readAheadFolios: SINGLE_PAGES → ALIGNED_ORDER_RAMP");
        assertThat(RuleHistory.differences(a, a.toBuilder().plugMaxRequests(16).build()))
                .containsExactly("plugMaxRequests: 32 → 16");
        assertThat(RuleHistory.sameRules(a, a.toBuilder().name("other").version(6, 13, 0).build())).isTrue();
    }

    @Test
    void everyChangeIsLaterThanTheLastAndSaysWhy() {
        for (RuleHistory.Rule<?> r : RuleHistory.RULES) {
            assertThat(r.oldestReason()).as(r.name()).isNotBlank();
            Point last = RuleHistory.OLDEST;
            for (RuleHistory.Change<?> c : r.changes()) {
                assertThat(c.since()).as(r.name()).isGreaterThan(last);
                assertThat(c.since()).as(r.name()).isLessThanOrEqualTo(RuleHistory.NEWEST_RECORDED);
                assertThat(c.reason()).as(r.name()).isNotBlank();
                last = c.since();
            }
        }
    }

    @Test
    void pointsCountThe26SeriesByItsThirdNumber() {
        assertThat(Point.of(KernelRelease.parse("2.6.32-220.el6.x86_64"))).isEqualTo(new Point(2, 6, 32));
        assertThat(Point.of(KernelRelease.parse("5.10.223"))).isEqualTo(new Point(5, 10, 0));
        assertThat(new Point(2, 6, 31).text()).isEqualTo("2.6.31");
        assertThat(new Point(4, 3, 0).text()).isEqualTo("4.3");
        assertThat(Arrays.asList(new Point(3, 0, 0), new Point(2, 6, 39)).stream().sorted().toList())
                .containsExactly(new Point(2, 6, 39), new Point(3, 0, 0));
        assertThatThrownBy(() -> new Point(3, 10, 1))
                .hasMessage("release point 3.10.1 is not an upstream release (2.x.y, or x.y from 3.0 on)");
    }
}
