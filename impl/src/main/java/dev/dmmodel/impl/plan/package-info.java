/**
 * Dry runs of provisioning plans: the commands a plan reader makes ({@link dev.dmmodel.impl.plan.PlanOp}), the
 * host they change ({@link dev.dmmodel.impl.plan.PlanState}), running them in order and stopping at the first that
 * would fail ({@link dev.dmmodel.impl.plan.PlanRunner}), recognising a plan's format
 * ({@link dev.dmmodel.impl.plan.PlanFormats}) and saying what each command did
 * ({@link dev.dmmodel.impl.plan.PlanOp#apply}). The readers live beside it: {@code plan.shell},
 * {@code plan.kickstart}, {@code plan.curtin}, {@code plan.ansible}; the tools' own rules in their packages
 * ({@code sfdisk}, {@code sgdisk}, {@code parted}, {@code lvm}, {@code mdadm}).
 */
package dev.dmmodel.impl.plan;
