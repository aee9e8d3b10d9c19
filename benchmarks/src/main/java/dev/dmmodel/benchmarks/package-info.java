/**
 * JMH benchmarks of the model's speed and memory.
 */
package dev.dmmodel.benchmarks;
