/**
 * Comparing the model with traces recorded on real kernels: reading recorded cases, running them through the model
 * and comparing the events in each case's compare mode.
 */
package dev.dmmodel.testkit.conformance;
