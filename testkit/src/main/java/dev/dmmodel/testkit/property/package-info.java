/**
 * Property testing without jqwik: generators, a runner with shrinking, and a JUnit 5 extension ({@code @PropertyTest}, {@code @ForAll})
 * for users' own storage planners.
 */
package dev.dmmodel.testkit.property;
