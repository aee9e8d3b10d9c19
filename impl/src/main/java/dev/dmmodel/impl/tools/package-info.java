/**
 * The userland programs a workload runs, each reading its command line as the program itself does: the shell
 * that holds a line ({@link dev.dmmodel.impl.tools.Shell}, {@link dev.dmmodel.impl.tools.WorkloadParser}),
 * coreutils {@code dd} ({@code src/dd.c}), {@code sync} and {@code sleep}, util-linux {@code blockdev},
 * {@code blkdiscard}, {@code mount} and {@code umount}, {@code mkfs.xfs} (xfsprogs) and {@code mkfs.ext4}
 * (e2fsprogs), {@code dmsetup} (libdm), writes to sysfs and procfs through {@code echo}/{@code tee}, and LVM2's
 * {@code lvcreate} and {@code lvremove} as workload lines (their sizes and names by LVM's rules in
 * {@code impl.lvm}). One class per tool; what the kernel then does with a command is the engine's.
 */
package dev.dmmodel.impl.tools;
