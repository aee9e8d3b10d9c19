package dev.dmmodel.io;

import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.spi.ModelProviders;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A host snapshot directory, read: what a real host's block stack is made of, as layout steps, and what its
 * kernel said (the recorded {@code queue/} limits and alignment offsets), which are the expected answers a
 * model is checked against, never inputs. The format is the one {@code bin/dmmodel-snapshot} collects (sysfs
 * {@code block/} copy, {@code dmsetup table}/{@code status}, {@code vgcfgbackup} files, {@code lvm fullreport}).
 *
 * <p>Snapshots of older kernels lack queue files that newer kernels show (Linux 3.10 has no
 * {@code virt_boundary_mask}, {@code chunk_sectors}, {@code write_zeroes_max_bytes}, ...): the import uses what
 * that kernel worked with and lists each such value in {@link #filledIn()}; queue files it does not know are
 * ignored.
 *
 * <pre>{@code
 * HostSnapshot host = HostSnapshot.read(Path.of("/tmp/myhost"));
 * Layout layout = Layout.of(host.toLayoutSpec());        // under the kernel the host runs, or the default
 * }</pre>
 *
 * @param directory the directory read
 * @param kernelRelease the host's {@code uname -r}, if recorded
 * @param steps the steps that recreate the stack: disks with their recorded limits, partitions, dm devices in
 *     dependency order, then LVM volume groups
 * @param recordedQueues every device's and partition's recorded {@code queue/} files by kernel name (a
 *     partition's are its disk's), attribute names and values as sysfs prints them
 * @param recordedAlignmentOffsets the recorded {@code alignment_offset} in bytes by kernel name ({@code -1}:
 *     misaligned), for the devices and partitions that have the file
 * @param dmsetupStatus the lines of {@code dmsetup status}, empty if not recorded
 * @param lvmProblems why a volume group of the snapshot's LVM metadata is not among the steps (a segment type
 *     the model does not have, a PV the snapshot lacks), one message each
 * @param filledIn the queue attributes of bottom devices the snapshot lacks because the host's kernel had no
 *     such sysfs file (a Linux 3.10 host has no {@code virt_boundary_mask}, {@code dma_alignment}, ...), each with
 *     the value the import used in the disk's limits and why; bottom devices in device-number order, attributes in
 *     a fixed order; empty for a snapshot of a kernel that shows them all. These values are not in
 *     {@code recordedQueues}, which holds only what was recorded.
 */
public record HostSnapshot(Path directory, Optional<String> kernelRelease, List<LayoutStep> steps,
                           Map<String, Map<String, String>> recordedQueues, Map<String, Long> recordedAlignmentOffsets,
                           List<String> dmsetupStatus, List<String> lvmProblems, List<FilledAttribute> filledIn) {

    /**
     * A queue attribute of a bottom device that the snapshot does not have, because the host's kernel did not show
     * it in sysfs, and the value the import used instead: what that kernel's block layer worked with.
     *
     * @param device the bottom device's kernel name ({@code sda})
     * @param attribute the attribute's sysfs name under {@code queue/} ({@code virt_boundary_mask})
     * @param value the value used, in the attribute's sysfs unit ({@code *_bytes} in bytes)
     * @param rule why that value: the kernel release and the release that added the file, or that the release is
     *     unknown (no {@code kernel-release} file), and where the value comes from
     */
    public record FilledAttribute(String device, String attribute, long value, String rule) {
        /**
         * Rejects nulls, blank names and a negative value.
         *
         * @throws IllegalArgumentException naming the device and attribute for a blank name or a negative value
         */
        public FilledAttribute {
            Objects.requireNonNull(device, "device");
            Objects.requireNonNull(attribute, "attribute");
            Objects.requireNonNull(rule, "rule");
            if (device.isBlank() || attribute.isBlank() || value < 0) {
                throw new IllegalArgumentException("filled-in attribute '" + device + ": queue/" + attribute + " = "
                        + value + "': expected a device and attribute name and a non-negative value");
            }
        }

        /**
         * The note the import gives, e.g. {@code sda: queue/write_zeroes_max_bytes not in the snapshot (Linux 3.10
         * has no REQ_OP_WRITE_ZEROES and no such file before 4.10); using 0}.
         */
        public String message() {
            return device + ": queue/" + attribute + " not in the snapshot (" + rule + "); using " + value;
        }
    }

    /** Rejects nulls; copies every collection, keeping its order. */
    public HostSnapshot {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(kernelRelease, "kernelRelease");
        steps = List.copyOf(steps);
        Map<String, Map<String, String>> queues = new LinkedHashMap<>();
        recordedQueues.forEach((k, v) -> queues.put(Objects.requireNonNull(k, "recordedQueues key"),
                java.util.Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(v, k)))));
        recordedQueues = java.util.Collections.unmodifiableMap(queues);
        recordedAlignmentOffsets = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(recordedAlignmentOffsets));
        dmsetupStatus = List.copyOf(dmsetupStatus);
        lvmProblems = List.copyOf(lvmProblems);
        filledIn = List.copyOf(filledIn);
    }

    /**
     * Reads a snapshot directory.
     *
     * @throws FormatException naming the file (and line) when a required file is missing or a value does not
     *     parse; nothing is half-read
     * @throws IllegalStateException if {@code dmmodel-impl} is not on the class or module path
     */
    public static HostSnapshot read(Path directory) {
        Objects.requireNonNull(directory, "directory");
        return ModelProviders.formats().readSnapshot(directory);
    }

    /**
     * The profile of the recorded kernel release ({@link KernelProfile#forRelease}: the preset at a preset's
     * version, else the rules composed for that release), if recorded.
     */
    public Optional<KernelProfile> profile() {
        return kernelRelease.flatMap(r -> {
            try {
                return Optional.of(KernelProfile.forRelease(r));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        });
    }

    /** The steps under the recorded kernel's profile, or {@link KernelProfile#defaultProfile()} without one. */
    public LayoutSpec toLayoutSpec() {
        return toLayoutSpec(profile().orElse(KernelProfile.defaultProfile()));
    }

    /** The steps under a kernel profile of the caller's choice. */
    public LayoutSpec toLayoutSpec(KernelProfile kernel) {
        return new LayoutSpec(Objects.requireNonNull(kernel, "kernel"), steps);
    }

    /** The LVM volume groups among the steps, in step order. */
    public List<VolumeGroup> volumeGroups() {
        return steps.stream().filter(LayoutStep.ImportVolumeGroup.class::isInstance)
                .map(s -> ((LayoutStep.ImportVolumeGroup) s).volumeGroup()).toList();
    }

    /**
     * The recorded {@code queue/} files of a device or partition.
     *
     * @throws IllegalArgumentException naming the known devices if there is no such kernel name
     */
    public Map<String, String> recordedQueue(String kname) {
        Map<String, String> q = recordedQueues.get(Objects.requireNonNull(kname, "kname"));
        if (q == null) {
            throw new IllegalArgumentException("no device or partition '" + kname + "' in snapshot " + directory
                    + " (known: " + String.join(", ", recordedQueues.keySet()) + ")");
        }
        return q;
    }

    /**
     * What sysfs shows for queue limits, to set beside {@link #recordedQueue} and
     * {@link #recordedAlignmentOffset}: the numbers of {@code /sys/block/<kname>/queue/<attribute>} and of the
     * device's own {@code alignment_offset}, by attribute name, always the same names in the same order
     * ({@code logical_block_size}, {@code physical_block_size}, {@code minimum_io_size}, {@code optimal_io_size},
     * {@code alignment_offset}, {@code max_sectors_kb}, ..., {@code hw_sector_size}). Each is in sysfs's unit:
     * {@code alignment_offset} is {@code -1} when misaligned, {@code *_kb} values are truncated as the kernel
     * truncates them, {@code *_bytes} values are sectors × 512, {@code rotational} is 0 or 1.
     *
     * @param limits the limits, computed ({@link dev.dmmodel.device.BlockDevice#limits()}) or built
     * @return the values by attribute name, unmodifiable
     * @throws IllegalStateException if {@code dmmodel-impl} is not on the class or module path
     */
    public static Map<String, Long> sysfsAttributes(QueueLimits limits) {
        Objects.requireNonNull(limits, "limits");
        return ModelProviders.formats().sysfsAttributes(limits);
    }

    /** The recorded {@code alignment_offset} of a device or partition in bytes, if it has the file. */
    public OptionalLong recordedAlignmentOffset(String kname) {
        Long v = recordedAlignmentOffsets.get(Objects.requireNonNull(kname, "kname"));
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }
}
