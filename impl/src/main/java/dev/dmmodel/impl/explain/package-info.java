/**
 * Explanations of queue limits: {@link dev.dmmodel.impl.explain.LimitsExplainer} re-runs the block layer's,
 * device-mapper's and md's limit computations for one device with a {@link dev.dmmodel.impl.block.LimitsObserver}
 * and turns the steps that set a field into a {@link dev.dmmodel.limits.Derivation} tree. It holds no kernel rule of
 * its own: every value in a tree is one the rules computed.
 */
package dev.dmmodel.impl.explain;
