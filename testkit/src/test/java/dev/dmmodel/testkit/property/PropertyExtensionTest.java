package dev.dmmodel.testkit.property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;

/** {@link PropertyTest} and {@link PropertyExtension}. */
class PropertyExtensionTest {

    /** Properties run by JUnit through the annotation. */
    @Nested
    class Annotated {
        static final AtomicInteger RUNS = new AtomicInteger();
        static final List<Long> SEEN = new ArrayList<>();

        Gen<Long> smallNumbers() {
            return Gen.choose(0, 99);
        }

        static Gen<List<Long>> lists() {
            return Gen.choose(0, 9).listOf(1, 3);
        }

        @PropertyTest(tries = 200, seed = 42)
        void generatedParametersAndResolvedOnesMix(@ForAll("smallNumbers") long n, TestInfo info,
                                                   @ForAll("lists") List<Long> list) {
            RUNS.incrementAndGet();
            SEEN.add(n);
            assertThat(n).isBetween(0L, 99L);
            assertThat(list).hasSizeBetween(1, 3);
            assertThat(info.getTestMethod()).isPresent();
        }

        @PropertyTest(tries = 100)
        void defaultGeneratorsForPrimitives(@ForAll int i, @ForAll long l, @ForAll boolean b, @ForAll Integer boxed) {
            assertThat(l).isBetween(Long.MIN_VALUE / 2, Long.MAX_VALUE / 2);
            assertThat(boxed).isNotNull();
        }

        @AfterAll
        static void everyTryRanTheMethod() {
            assertThat(RUNS).hasValue(Property.effectiveTries(200));
            assertThat(SEEN.stream().distinct().count()).as("different values per try").isGreaterThan(50);
        }
    }

    /** A test class whose property fails, run by hand through the extension (abstract: JUnit must not run it). */
    abstract static class Sample {
        Gen<Long> sizes() {
            return Gen.choose(1, 1 << 20);
        }

        @PropertyTest(seed = 7, tries = 500)
        void sizesAreSmall(@ForAll("sizes") long a, @ForAll("sizes") long b) {
            assertThat(a + b).isLessThan(1000);
        }

        @PropertyTest
        void missingGenerator(@ForAll("nowhere") long a) {
        }

        @PropertyTest
        void wrongType(@ForAll("sizes") String a) {
        }

        @PropertyTest(tries = 10)
        void passes(@ForAll("sizes") long a) {
        }
    }

    @SuppressWarnings("unchecked")
    static Throwable intercept(String methodName, ExtensionContext context, InvocationInterceptor.Invocation<Void> inv)
            throws Exception {
        Method m = Arrays.stream(Sample.class.getDeclaredMethods()).filter(x -> x.getName().equals(methodName))
                .findFirst().orElseThrow();
        ReflectiveInvocationContext<Method> ic = mock(ReflectiveInvocationContext.class);
        when(ic.getExecutable()).thenReturn(m);
        when(ic.getTarget()).thenReturn(Optional.of(new Sample() { }));
        List<Object> placeholders = new ArrayList<>();
        for (Class<?> t : m.getParameterTypes()) {
            placeholders.add(t == long.class ? (Object) 0L : null);
        }
        when(ic.getArguments()).thenReturn(placeholders);
        try {
            new PropertyExtension().interceptTestMethod(inv, ic, context);
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aFailingPropertyIsReportedWithItsParameters() throws Exception {
        ExtensionContext context = mock(ExtensionContext.class);
        InvocationInterceptor.Invocation<Void> inv = mock(InvocationInterceptor.Invocation.class);

        Throwable thrown = intercept("sizesAreSmall", context, inv);

        verify(inv).skip();
        verify(context, never()).publishReportEntry(anyString(), anyString());
        assertThat(thrown).isInstanceOf(PropertyFailure.class);
        PropertyFailure f = (PropertyFailure) thrown;
        assertThat(f.property()).isEqualTo("Sample.sizesAreSmall");
        assertThat(f.seed()).isEqualTo(PropertyTestSeed.expected(7));
        // parameter names are arg0/arg1 or a/b depending on -parameters; the values are the minimal pair
        assertThat(f.shrunkText()).matches("(a|parameter 1) = 1\\n(b|parameter 2) = 999");
        assertThat(f.getMessage()).contains("Property 'Sample.sizesAreSmall' failed");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aPassingPropertyPublishesWhatItRan() throws Exception {
        ExtensionContext context = mock(ExtensionContext.class);
        InvocationInterceptor.Invocation<Void> inv = mock(InvocationInterceptor.Invocation.class);

        assertThat(intercept("passes", context, inv)).isNull();

        verify(inv).skip();
        verify(context).publishReportEntry(org.mockito.ArgumentMatchers.eq("property"),
                org.mockito.ArgumentMatchers.contains("tries passed"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void configurationMistakesAreNamed() throws Exception {
        ExtensionContext context = mock(ExtensionContext.class);
        InvocationInterceptor.Invocation<Void> inv = mock(InvocationInterceptor.Invocation.class);

        assertThat(intercept("missingGenerator", context, inv)).isInstanceOf(ExtensionConfigurationException.class)
                .hasMessageContaining("no method nowhere()");
        Throwable wrong = intercept("wrongType", context, inv);
        assertThat(wrong).isInstanceOf(PropertyFailure.class);
        assertThat(((PropertyFailure) wrong).getCause()).isInstanceOf(ExtensionConfigurationException.class)
                .hasMessageContaining("java.lang.Long").hasMessageContaining("java.lang.String");
    }

    /** The seed a property with {@code seed} really runs with: {@code -Ddmmodel.seed} wins. */
    static final class PropertyTestSeed {
        static long expected(long seed) {
            return Property.effectiveSeed(seed);
        }
    }

    @Test
    void placeholdersSatisfyJunitsTypeChecks() {
        PropertyExtension e = new PropertyExtension();
        ParameterContext pc = mock(ParameterContext.class);
        for (Method m : Placeholders.class.getDeclaredMethods()) {
            if (!m.getName().equals("all")) {
                continue;
            }
            for (java.lang.reflect.Parameter p : m.getParameters()) {
                when(pc.getParameter()).thenReturn(p);
                Object v = e.resolveParameter(pc, mock(ExtensionContext.class));
                if (p.getType().isPrimitive()) {
                    assertThat(v).isNotNull();
                } else {
                    assertThat(v).isNull();
                }
            }
        }
    }

    static class Placeholders {
        void all(int a, long b, boolean c, double d, float e, short f, byte g, char h, String i) {
        }
    }
}
