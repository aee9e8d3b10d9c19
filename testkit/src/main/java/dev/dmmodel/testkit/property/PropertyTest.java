package dev.dmmodel.testkit.property;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A JUnit 5 test that is a property: its {@link ForAll} parameters are generated, the method runs once per
 * try, and a failure is shrunk and reported through JUnit's normal failure output as a
 * {@link PropertyFailure}. It is one test to JUnit, whatever the number of tries.
 *
 * <pre>{@code
 * @PropertyTest(tries = 1000)
 * void everyLvIsAligned(@ForAll("stacks") StackPlan plan) {
 *     assertThat(plan.build().findings()).noneMatch(f -> f.id().startsWith("align."));
 * }
 *
 * Gen<StackPlan> stacks() {
 *     return DmGens.stacks();
 * }
 * }</pre>
 *
 * <p>{@code @BeforeEach} and {@code @AfterEach} methods run once around all tries, not around each. The system
 * properties {@code dmmodel.tries} and {@code dmmodel.seed} override {@link #tries()} and {@link #seed()}
 * (see {@link Property}).
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Test
@ExtendWith(PropertyExtension.class)
public @interface PropertyTest {

    /** Tries that must pass. */
    int tries() default Property.DEFAULT_TRIES;

    /** The seed; 0 takes a new one from the clock on each run (printed when the property fails). */
    long seed() default 0;

    /** At most this many shrink steps; 0 reports the first failing try as it was generated. */
    int maxShrinks() default Property.DEFAULT_MAX_SHRINKS;
}
