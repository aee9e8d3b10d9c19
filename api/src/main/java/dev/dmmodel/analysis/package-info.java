/**
 * Analyses over a traced workload: whether writes reached a thin pool as full-block overwrites ({@link
 * dev.dmmodel.analysis.ThinOverwriteAnalysis}) and how sequential a device's I/O is ({@link
 * dev.dmmodel.analysis.Sequentiality}).
 */
package dev.dmmodel.analysis;
