package dev.dmmodel.impl.format.snapshot;

import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.limits.KernelRelease;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The queue attributes of a bottom device that older kernels do not show in sysfs: for each, the first upstream
 * release whose {@code block/blk-sysfs.c} has the file, the release that brought the limit behind it (the same, or
 * earlier when the kernel kept the limit for a while without showing it), and the value a kernel without the file
 * worked with. The one place of these rules: {@link Snapshot} fills a missing attribute from here when the
 * snapshot's kernel predates the file (or its release is unknown) and says so; a kernel that has the file but a
 * snapshot without it is still an error.
 */
final class SysfsHistory {

    /**
     * One attribute.
     *
     * @param attribute the sysfs name under {@code queue/}
     * @param fileMajor the first release with the file: major
     * @param fileMinor the first release with the file: minor
     * @param limitMajor the first release with the limit behind it: major (0: every release the model knows)
     * @param limitMinor the first release with the limit: minor
     * @param limit what a kernel before {@code limitMajor.limitMinor} did not have, in words; unused when the
     *     limit was always there
     * @param value the value used, in the attribute's sysfs unit; ignored when {@code sameAs} is present
     * @param sameAs the recorded attribute whose value is used instead of a constant
     * @param before why that value on a kernel without the limit
     * @param byDefault why that value on a kernel that had the limit but not the file, or of an unknown release:
     *     it is the block layer's default, and what it may miss
     * @param required whether a snapshot of a kernel that has the file must have it (an error otherwise); when
     *     not, the file is filled on every kernel, with a note
     * @param drivers what a driver the kernel name identifies sets instead of the block layer's default
     */
    record Entry(String attribute, int fileMajor, int fileMinor, int limitMajor, int limitMinor, String limit,
                 long value, Optional<String> sameAs, String before, String byDefault, boolean required,
                 List<DriverDefault> drivers) {
        Entry {
            Objects.requireNonNull(attribute, "attribute");
            Objects.requireNonNull(limit, "limit");
            Objects.requireNonNull(sameAs, "sameAs");
            Objects.requireNonNull(before, "before");
            Objects.requireNonNull(byDefault, "byDefault");
            drivers = List.copyOf(drivers);
        }

        /**
         * The driver's own value for a disk of that driver on that kernel: one whose driver matches and whose
         * release it dates from is at or before the kernel's (or the kernel is unknown).
         */
        Optional<DriverDefault> driverDefault(DiskDriver driver, Optional<KernelRelease> release) {
            return drivers.stream().filter(d -> d.driver() == driver
                    && release.map(r -> r.isAtLeast(d.major(), d.minor())).orElse(true)).findFirst();
        }

        /** {@link #rule} for a value the driver sets: the kernel's history, then what the driver does. */
        String rule(Optional<KernelRelease> release, DriverDefault d) {
            String linux = release.map(r -> "Linux " + r.major() + "." + r.minor()).orElse("an unknown kernel");
            return linux + " shows no such file before " + fileRelease() + "; " + d.why();
        }

        /** Whether a kernel of this release shows the file. */
        boolean hasFile(KernelRelease release) {
            return release.isAtLeast(fileMajor, fileMinor);
        }

        /** Whether a kernel of this release has the limit behind the file. */
        boolean hasLimit(KernelRelease release) {
            return limitMajor == 0 || release.isAtLeast(limitMajor, limitMinor);
        }

        /** {@code 5.13}. */
        String fileRelease() {
            return fileMajor + "." + fileMinor;
        }

        /**
         * Why a snapshot of that kernel lacks the file and where the value comes from, for
         * {@link dev.dmmodel.io.HostSnapshot.FilledAttribute#rule()}.
         */
        String rule(Optional<KernelRelease> release) {
            if (release.isEmpty()) {
                return "the snapshot has no kernel-release, so its kernel is unknown; sysfs has this file from "
                        + fileRelease() + " on; " + byDefault;
            }
            String linux = "Linux " + release.get().major() + "." + release.get().minor();
            if (hasFile(release.get())) {
                return linux + " has this file since " + fileRelease() + ", yet the snapshot lacks it; " + byDefault;
            }
            if (hasLimit(release.get())) {
                return linux + " has the limit" + (limitMajor == 0 ? "" : " since " + limitMajor + "." + limitMinor)
                        + " but no such file before " + fileRelease() + "; " + byDefault;
            }
            boolean together = limitMajor == fileMajor && limitMinor == fileMinor;
            return linux + " has no " + limit + (together ? " and no such file before " + fileRelease()
                    : " before " + limitMajor + "." + limitMinor + " and no such file before " + fileRelease())
                    + (before.isEmpty() ? "" : ": " + before);
        }

        /** What a snapshot of a kernel with the file but without it is expected to hold, for the error. */
        String expectedOn(KernelRelease release) {
            return "Linux " + release.major() + "." + release.minor() + " has it since " + fileRelease();
        }
    }

    /**
     * What one driver sets for an attribute, from a release on.
     *
     * @param driver the driver, as the kernel name suggests ({@link Snapshot#driverOf})
     * @param major the first release the driver sets it: major
     * @param minor the first release: minor
     * @param value the value, in the attribute's sysfs unit
     * @param why which driver function sets it and what it may miss
     */
    record DriverDefault(DiskDriver driver, int major, int minor, long value, String why) {
        DriverDefault {
            Objects.requireNonNull(driver, "driver");
            Objects.requireNonNull(why, "why");
        }
    }

    /** Every attribute, in the order the notes list them. */
    static final List<Entry> ENTRIES = List.of(
            // blk-sysfs.c queue_virt_boundary_mask_show: 5.13 ("block: add sysfs entry for virt boundary mask");
            // the limit, blk_queue_virt_boundary in blk-settings.c, replaced QUEUE_FLAG_SG_GAPS in 4.3
            new Entry("virt_boundary_mask", 5, 13, 4, 3, "virt boundary", 0, Optional.empty(),
                    "", "0 is the block layer's default (blk_set_default_limits), and a driver's own mask, such as"
                            + " NVMe's 4095, is not recorded", true,
                    // nvme_set_queue_limits (drivers/nvme/host/core.c; nvme_dev_add in 4.3's pci.c): the controller
                    // page size less one; 4.3's 03100aada96f turned NVMe's QUEUE_FLAG_SG_GAPS into this mask
                    List.of(new DriverDefault(DiskDriver.NVME, 4, 3, 4095, "the NVMe driver sets a virt boundary of"
                            + " its controller page less one (nvme_set_queue_limits: NVME_CTRL_PAGE_SIZE - 1), as PCIe"
                            + " and RDMA controllers do; an NVMe over TCP or FC namespace has none"))),
            // blk-sysfs.c queue_chunk_sectors_show: 4.10 ("blk-sysfs: Add 'chunk_sectors' to sysfs attributes");
            // the limit, blk_queue_chunk_sectors in blk-settings.c, came in 3.16
            new Entry("chunk_sectors", 4, 10, 3, 16, "chunk_sectors limit", 0, Optional.empty(),
                    "", "0 is the block layer's default (blk_set_default_limits), and a driver's own chunk, such as a"
                            + " zoned disk's zone size, is not recorded", true, List.of()),
            // blk-sysfs.c queue_discard_max_hw_show: 4.3 ("block: make /sys/block/<dev>/queue/discard_max_bytes
            // writeable" split max_hw_discard_sectors from max_discard_sectors); before, discard_max_bytes was it
            new Entry("discard_max_hw_bytes", 4, 3, 4, 3, "separate hardware discard limit", 0,
                    Optional.of("discard_max_bytes"), "discard_max_bytes is the driver's limit",
                    "discard_max_bytes, the driver's limit before 4.3", true, List.of()),
            // blk-sysfs.c queue_write_zeroes_max_show: 4.10, with REQ_OP_WRITE_ZEROES itself ("block: add support
            // for REQ_OP_WRITE_ZEROES"); before, a kernel zeroed with written zero pages or WRITE SAME
            new Entry("write_zeroes_max_bytes", 4, 10, 4, 10, "REQ_OP_WRITE_ZEROES", 0, Optional.empty(),
                    "", "0 is the block layer's default (blk_set_default_limits): no write-zeroes", true, List.of()),
            // blk-sysfs.c queue_dma_alignment_show: 6.0 ("block: export dma_alignment attribute"); the mask itself
            // is as old as the block layer: 511 from blk_queue_make_request (3.x) or blk_alloc_queue (5.x)
            new Entry("dma_alignment", 6, 0, 0, 0, "", 511, Optional.empty(), "",
                    "511 is the block layer's default mask (blk_queue_dma_alignment in blk_queue_make_request or"
                            + " blk_alloc_queue), and a driver's own, such as the SCSI midlayer's 3, is not recorded",
                    true, List.of()),
            // blk-sysfs.c queue_max_discard_segments_show: 4.11, with the limit ("block: optionally merge
            // discontiguous discard bios into a single request"); before, a discard request was one range
            new Entry("max_discard_segments", 4, 11, 4, 11, "multi-range discard", 1, Optional.empty(),
                    "a discard request is one range", "1 is the block layer's default (blk_set_default_limits)",
                    false, List.of()));

    private SysfsHistory() {
    }

    /** The entry of an attribute, if older kernels lack it. */
    static Optional<Entry> of(String attribute) {
        return ENTRIES.stream().filter(e -> e.attribute().equals(attribute)).findFirst();
    }
}
