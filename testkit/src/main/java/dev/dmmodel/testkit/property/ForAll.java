package dev.dmmodel.testkit.property;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A generated parameter of a {@link PropertyTest} method. {@link #value()} names a method of the test class
 * (or a superclass), static or not, without parameters, that returns the {@link Gen} to draw from. Without a
 * name, {@code int}, {@code long} and {@code boolean} parameters (and their boxes) get a generator over
 * their whole range (shrinking towards 0 and false); other types need a name.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ForAll {

    /** The name of the method returning the generator. */
    String value() default "";
}
