/**
 * What hurts in a layout, as values with stable ids: {@link dev.dmmodel.finding.Finding}, its {@link
 * dev.dmmodel.finding.FindingType} and {@link dev.dmmodel.finding.Severity}.
 */
package dev.dmmodel.finding;
