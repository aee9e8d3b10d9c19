/**
 * Workloads: {@link dev.dmmodel.workload.Script} (shell lines a user would type: dd, sync, blockdev, mkfs, mount,
 * dmsetup, LVM, sysfs writes) read into {@link dev.dmmodel.workload.Command}s, and fio-like {@link
 * dev.dmmodel.workload.IoJob}s.
 */
package dev.dmmodel.workload;
