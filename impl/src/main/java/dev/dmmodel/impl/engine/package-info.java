/**
 * The simulated host ({@link dev.dmmodel.impl.engine.HostSimulation}): the kernel of block layer, device-mapper and
 * dm-thin ({@link dev.dmmodel.impl.engine.Kernel}), the page cache with writeback and readahead, and the running of
 * workload commands (dd, sync, sysfs writes, LVM commands) against them.
 */
package dev.dmmodel.impl.engine;
