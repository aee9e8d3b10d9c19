/**
 * dmmodel's testkit: AssertJ assertions for layouts, limits, findings and traces
 * ({@code dev.dmmodel.testkit.assertions}), property testing with dmmodel's own generators and a JUnit 5
 * extension ({@code dev.dmmodel.testkit.property}), and conformance against recorded kernel traces
 * ({@code dev.dmmodel.testkit.conformance}). It is written against the public API; the implementation is bound
 * at run time as the provider of the API's services.
 */
module dev.dmmodel.testkit {
    requires transitive dev.dmmodel.api;
    requires transitive org.assertj.core;
    requires transitive org.junit.jupiter.api;
    requires org.junit.platform.commons;

    exports dev.dmmodel.testkit.assertions;
    exports dev.dmmodel.testkit.property;
    exports dev.dmmodel.testkit.conformance;
}
