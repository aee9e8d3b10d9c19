package dev.dmmodel.impl.lvm;

import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.lvm.LvmVersion;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.units.Sectors;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code pvcreate}: where the metadata area(s) and the data area ({@code pe_start}) of a new PV go, by the
 * rules of LVM2 2.03 or, for {@link LvmVersion#LVM2_2_00}, of LVM2 2.00.
 */
public final class PvCreate {

    private static final Logger LOG = LoggerFactory.getLogger(PvCreate.class);

    /** {@code devices/pv_min_size} default, 2048 KiB. */
    static final long PV_MIN_SIZE_SECTORS = 4096;
    /** LVM2 2.00's {@code PV_MIN_SIZE}, 512 KiB. */
    static final long LEGACY_PV_MIN_SIZE_SECTORS = 1024;
    /** {@code LABEL_SCAN_SIZE}: the first 4 sectors hold the label. */
    static final long LABEL_SCAN_SIZE_BYTES = 2048;
    /** LVM2 2.00's {@code PE_ALIGN}: 64 KiB. */
    static final long LEGACY_PE_ALIGN_SECTORS = 128;
    /** LVM2 2.00's {@code DEFAULT_PVMETADATASIZE}. */
    static final long LEGACY_METADATA_SECTORS = 255;
    /** {@code MDA_SIZE_MIN} is this many pages. */
    static final long MDA_SIZE_MIN_PAGES = 8;

    private PvCreate() {
    }

    /** A metadata area: byte offset and byte size on the device. */
    private record Mda(long start, long size) {
        long end() {
            return Math.addExact(start, size);
        }
    }

    /**
     * Initialises {@code device} as an orphan PV.
     *
     * @param device kernel name of the device
     * @param devSize its size in sectors
     * @param topo what sysfs says about it (ignored by the LVM2 2.00 rules)
     * @param opts the pvcreate options and lvm.conf settings
     * @return the orphan PV (no VG, no extents yet)
     * @throws LayoutException with LVM's message when pvcreate would refuse
     */
    public static PhysicalVolume pvcreate(String device, Sectors devSize, PvTopology topo, PvCreateOptions opts) {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(devSize, "devSize");
        Objects.requireNonNull(topo, "topo");
        Objects.requireNonNull(opts, "opts");
        return opts.version() == LvmVersion.LVM2_2_00
                ? createLegacy(device, devSize, opts)
                : create(device, devSize, topo, opts);
    }

    private static PhysicalVolume create(String device, Sectors devSize, PvTopology topo, PvCreateOptions opts) {
        checkMinimumSize(device, devSize, PV_MIN_SIZE_SECTORS);
        long metadataSectors = opts.metadataSize().count() != 0
                ? opts.metadataSize().count()
                : defaultMetadataSectors(topo.pageSize());
        long align = peAlign(device, topo, opts);
        long offset = peAlignOffset(topo, opts);
        // lib/format_text/format-text.c: _text_pv_initialise (alignment sanity)
        if (align < offset) {
            throw new LayoutException(device, "pe_align_offset", offset + "s", device + ": pe_align (" + align
                    + " sectors) must not be less than pe_align_offset (" + offset + " sectors)");
        }
        // lib/format_text/format-text.c: _text_pv_initialise (data area must start inside the device)
        if (devSize.count() < Math.addExact(align, offset)) {
            throw new LayoutException(device, "pe_align", (align + offset) + "s",
                    device + ": Data alignment must not exceed device size.");
        }
        long peStart = align + offset;
        long diskBytes = devSize.toBytes().count();
        long alignBytes = Sectors.of(align).toBytes().count();
        long metadataBytes = Sectors.of(metadataSectors).toBytes().count();
        long minMdaBytes = Math.multiplyExact(MDA_SIZE_MIN_PAGES, topo.pageSize());
        Sectors mda0Size = Sectors.ZERO;
        Sectors mda1Size = Sectors.ZERO;
        if (opts.metadataCopies() >= 1) {
            Mda mda0 = firstMda(diskBytes, metadataBytes, alignBytes, Sectors.of(offset).toBytes().count(),
                    topo.pageSize(), minMdaBytes, device);
            peStart = mda0.end() / Sectors.SECTOR_SIZE;
            mda0Size = Sectors.ofBytes(mda0.size());
        }
        if (opts.metadataCopies() == 2) {
            Mda mda1 = secondMda(diskBytes, metadataBytes, alignBytes,
                    Sectors.of(peStart).toBytes().count(), minMdaBytes, device);
            mda1Size = Sectors.ofBytes(mda1.size());
        }
        return new PhysicalVolume(device, devSize, Sectors.of(peStart), mda0Size, mda1Size, "", 0, Sectors.ZERO);
    }

    // lib/metadata/metadata.c: pv_create (devices/pv_min_size; PV_MIN_SIZE in 2.00)
    private static void checkMinimumSize(String device, Sectors devSize, long minimum) {
        if (devSize.count() < minimum) {
            throw new LayoutException(device, "dev_size", devSize.toString(),
                    device + ": Size must exceed minimum of " + minimum + " sectors.");
        }
    }

    // lib/metadata/metadata.c: get_default_pvmetadatasize_sectors (1 MiB less one page)
    static long defaultMetadataSectors(long pageSize) {
        return 2048 - pageSize / Sectors.SECTOR_SIZE;
    }

    /**
     * The data alignment pvcreate chooses and where it came from.
     *
     * @param sectors the alignment
     * @param source what set it: {@code --dataalignment}, {@code default 1MiB}, {@code md stripe width},
     *     {@code minimum_io_size} or {@code optimal_io_size}
     */
    public record PeAlign(long sectors, String source) {
    }

    // lib/metadata/metadata.c: set_pe_align
    static long peAlign(String device, PvTopology topo, PvCreateOptions opts) {
        return peAlignment(device, topo, opts).sectors();
    }

    /** {@link #peAlign} with the setting or device hint that decided it (for a plan's result). */
    // lib/metadata/metadata.c: set_pe_align
    public static PeAlign peAlignment(String device, PvTopology topo, PvCreateOptions opts) {
        if (opts.dataAlignment().count() != 0) {
            // an explicit --dataalignment replaces every default and every detected value
            return new PeAlign(opts.dataAlignment().count(), "--dataalignment");
        }
        long mib = opts.defaultDataAlignmentMib() == 0 ? 1 : opts.defaultDataAlignmentMib();
        long align = Math.max(Math.multiplyExact(mib, 2048), topo.pageSize() / Sectors.SECTOR_SIZE);
        String source = "default " + mib + "MiB";
        // lib/device/dev-md.c: dev_md_stripe_width (devices/md_chunk_alignment)
        long stripeWidth = topo.mdStripeWidthSectors();
        if (stripeWidth != 0 && align % stripeWidth != 0) {
            align = stripeWidth;
            source = "md stripe width";
        }
        if (opts.dataAlignmentDetection()) {
            // lib/device/dev-type.c: dev_minimum_io_size, then dev_optimal_io_size; each replaces, no lcm
            long min = ioHintSectors(device, "queue/minimum_io_size", topo.ioMinBytes());
            if (min != 0 && align % min != 0) {
                align = min;
                source = "minimum_io_size";
            }
            long opt = ioHintSectors(device, "queue/optimal_io_size", topo.ioOptBytes());
            if (opt != 0 && align % opt != 0) {
                align = opt;
                source = "optimal_io_size";
            }
        }
        return new PeAlign(align, source);
    }

    // lib/device/dev-type.c: _dev_topology_attribute (values not a multiple of 4 KiB become 4 KiB)
    private static long ioHintSectors(String device, String attribute, long bytes) {
        long sectors = bytes / Sectors.SECTOR_SIZE;
        if (sectors > 1 && sectors % 8 != 0) {
            LOG.debug("WARNING: Ignoring {} = {} for device {} (not divisible by 4KiB).", attribute, bytes, device);
            return 8;
        }
        return sectors;
    }

    // lib/metadata/metadata.c: set_pe_align_offset
    static long peAlignOffset(PvTopology topo, PvCreateOptions opts) {
        if (opts.dataAlignmentOffset().count() != 0) {
            return opts.dataAlignmentOffset().count();
        }
        if (!opts.dataAlignmentOffsetDetection() || topo.alignmentOffsetBytes() < 0) {
            return 0; // -1 means the device is misaligned: LVM then uses no offset
        }
        return topo.alignmentOffsetBytes() / Sectors.SECTOR_SIZE;
    }

    // lib/format_text/format-text.c: _text_pv_add_metadata_area (mda index 0, limit = disk size)
    private static Mda firstMda(long limit, long requested, long alignment, long alignmentOffset, long pageSize,
                                long minSize, String device) {
        long start = LABEL_SCAN_SIZE_BYTES;
        if (limit - start >= minSize) {
            start = roundUp(start, pageSize);
        }
        long size = requested;
        long misalignment = Math.addExact(start, size) % alignment;
        if (misalignment != 0 && Math.addExact(start + size, alignment - misalignment) <= limit) {
            size += alignment - misalignment; // the area's end, i.e. pe_start, lands on the alignment
        }
        if (alignmentOffset != 0 && (start + size) % alignment == 0
                && Math.addExact(start + size, alignmentOffset) <= limit) {
            size += alignmentOffset;
        }
        if (start + size > limit) {
            long twice = Math.multiplyExact(2, alignment);
            if (limit - start > twice) {
                size = limit - start - twice;
                long rest = (start + size) % alignment;
                if (rest != 0) {
                    size += alignment - rest;
                }
            } else {
                size = limit - start;
            }
        }
        checkMdaSize(size, minSize, device);
        return new Mda(start, size);
    }

    // lib/format_text/format-text.c: _text_pv_add_metadata_area (mda index 1, limit = pe_start)
    private static Mda secondMda(long diskSize, long requested, long alignment, long limit, long minSize,
                                 String device) {
        if (limit >= diskSize) {
            throw notEnoughSpace(device, 1, limit);
        }
        long size = requested > diskSize ? diskSize - limit : requested;
        long start = diskSize - size;
        if (start < limit) {
            size = diskSize - limit;
            start = limit;
        } else if (start % alignment != 0) {
            long grown = size + start % alignment; // move the start down to the alignment
            if (grown < diskSize && diskSize - grown >= limit) {
                size = grown;
                start = diskSize - size;
            }
        }
        checkMdaSize(size, minSize, device);
        return new Mda(start, size);
    }

    // lib/format_text/format-text.c: _text_pv_add_metadata_area (MDA_SIZE_MIN)
    private static void checkMdaSize(long size, long minSize, String device) {
        if (size < minSize) {
            throw new LayoutException(device, "--metadatasize", size + "B", "Metadata area size too small: " + size
                    + " bytes. It must be at least " + minSize + " bytes.");
        }
    }

    private static LayoutException notEnoughSpace(String device, int index, long limitBytes) {
        return new LayoutException(device, "mda" + index, limitBytes + "B",
                "Not enough space available for metadata area with index " + index + " on PV " + device + ".");
    }

    // lib/format_text/format-text.c (LVM2 2.00): _mda_setup, and _pv_write for pe_start
    private static PhysicalVolume createLegacy(String device, Sectors devSize, PvCreateOptions opts) {
        if (opts.dataAlignment().count() != 0 || opts.dataAlignmentOffset().count() != 0) {
            throw new LayoutException(device, "--dataalignment",
                    opts.dataAlignment() + "/" + opts.dataAlignmentOffset(),
                    "LVM2 2.00 pvcreate has no --dataalignment or --dataalignmentoffset option.");
        }
        checkMinimumSize(device, devSize, LEGACY_PV_MIN_SIZE_SECTORS);
        if (opts.metadataCopies() == 0) {
            // no metadata area: the data area starts at PE_ALIGN
            return new PhysicalVolume(device, devSize, Sectors.of(LEGACY_PE_ALIGN_SECTORS), Sectors.ZERO, Sectors.ZERO,
                    "", 0, Sectors.ZERO);
        }
        long disk = devSize.toBytes().count();
        long alignment = Sectors.of(LEGACY_PE_ALIGN_SECTORS).toBytes().count();
        long requested = Sectors.of(opts.metadataSize().count() != 0 ? opts.metadataSize().count()
                : LEGACY_METADATA_SECTORS).toBytes().count();
        int copies = opts.metadataCopies();
        long size0 = requested;
        if (size0 > disk) {
            LOG.debug("Warning: metadata area fills disk {}", device);
            size0 = disk - LABEL_SCAN_SIZE_BYTES - 2 * alignment;
            copies = 1;
        }
        long misalignment = Math.addExact(LABEL_SCAN_SIZE_BYTES, size0) % alignment;
        if (misalignment != 0) {
            size0 += alignment - misalignment; // mda0 ends on a 64 KiB boundary
        }
        Mda mda0 = new Mda(LABEL_SCAN_SIZE_BYTES, size0);
        if (mda0.end() > disk) {
            throw notEnoughSpace(device, 0, disk);
        }
        Sectors mda1Size = Sectors.ZERO;
        if (copies == 2) {
            long size1 = requested + (disk - requested) % alignment; // its start moves down to 64 KiB
            long start1 = disk - size1;
            if (start1 < mda0.end()) {
                size1 -= mda0.end() - start1;
            }
            if (size1 <= 0) {
                throw notEnoughSpace(device, 1, mda0.end());
            }
            mda1Size = Sectors.ofBytes(size1);
        }
        // the data area starts at the first PE_ALIGN boundary after mda0, which already ends on one
        long peStart = Math.max(LEGACY_PE_ALIGN_SECTORS, mda0.end() / Sectors.SECTOR_SIZE);
        return new PhysicalVolume(device, devSize, Sectors.of(peStart), Sectors.ofBytes(mda0.size()), mda1Size, "", 0,
                Sectors.ZERO);
    }

    private static long roundUp(long value, long multiple) {
        long rest = value % multiple;
        return rest == 0 ? value : Math.addExact(value, multiple - rest);
    }
}
