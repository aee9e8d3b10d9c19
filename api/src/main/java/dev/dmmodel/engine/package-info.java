/**
 * Running workloads on a built layout: {@link dev.dmmodel.engine.Simulation} (commands and fio-like jobs, with
 * every block event), and what it reports ({@code /proc/diskstats}-style device statistics, dm-thin pool
 * statistics, command results).
 */
package dev.dmmodel.engine;
