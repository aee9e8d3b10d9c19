package dev.dmmodel.impl.finding;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.impl.lvm.PvCreate;
import dev.dmmodel.impl.lvm.PvTopology;
import dev.dmmodel.limits.LimitField;
import dev.dmmodel.limits.LimitRef;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.PvCreateOptions;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.units.Sectors;
import dev.dmmodel.units.Sizes;
import java.util.List;
import java.util.Map;

/** One factory per kind of finding: the message with its numbers and the fix. */
final class AlignmentFindings {
    private AlignmentFindings() {
    }

    private static Finding of(FindingType type, String device, String message, String fix, LimitRef... basis) {
        return new Finding(type, type.defaultSeverity(), device, message, fix, List.of(basis));
    }

    private static LimitRef ref(String device, LimitField field) {
        return new LimitRef(device, field);
    }

    /** The first sector at or after {@code from} whose byte offset is aligned to {@code grain} on the disk. */
    static long nextAlignedSector(long fromSector, long diskOffset, long grainBytes) {
        long grain = grainBytes / 512;
        long off = diskOffset / 512;
        long s = Math.max(fromSector, 1);
        long r = Math.floorMod(s - off, grain);
        return r == 0 ? s : s + grain - r;
    }

    /** The grain a partition should start on: the full stripe if known, else 1 MiB (a multiple of io_min). */
    static long partitionGrain(QueueLimits l) {
        return l.ioOpt() > 0 ? l.ioOpt() : lcm(l.alignmentGranularity(), 1L << 20);
    }

    static Finding partitionPhysicalBlock(Partition p, QueueLimits l, long off) {
        long suggested = nextAlignedSector(2048, l.alignmentOffset(), partitionGrain(l));
        return of(FindingType.PARTITION_MISALIGNED_PHYSICAL_BLOCK, p.name(), p.name() + " starts at sector "
                + p.start().count() + ", " + off + " bytes past a " + l.physicalBlockSize()
                + "-byte physical block boundary of " + p.disk() + ": every " + Sizes.format(l.physicalBlockSize())
                + " write to it straddles two physical blocks (read-modify-write in the drive)",
                "recreate " + p.name() + " at sector " + suggested + " (a multiple of " + Sizes.format(partitionGrain(l))
                + "; parted -a optimal does this)", ref(p.disk(), LimitField.PHYSICAL_BLOCK_SIZE),
                ref(p.name(), LimitField.ALIGNMENT_OFFSET));
    }

    static Finding partitionIoMin(Partition p, QueueLimits l, long off) {
        long suggested = nextAlignedSector(2048, l.alignmentOffset(), partitionGrain(l));
        return of(FindingType.PARTITION_MISALIGNED_IO_MIN, p.name(), p.name() + " starts at sector "
                + p.start().count() + ", " + off + " bytes past a " + Sizes.format(l.ioMin())
                + " minimum_io_size (RAID chunk) boundary of " + p.disk()
                + ": I/O that is chunk-sized and chunk-aligned in the partition spans two chunks on the disk",
                "recreate " + p.name() + " at sector " + suggested + " (a multiple of "
                + Sizes.format(partitionGrain(l)) + ")", ref(p.disk(), LimitField.MINIMUM_IO_SIZE),
                ref(p.name(), LimitField.ALIGNMENT_OFFSET));
    }

    static Finding partitionIoOpt(Partition p, QueueLimits l, long off) {
        long suggested = nextAlignedSector(2048, l.alignmentOffset(), l.ioOpt());
        return of(FindingType.PARTITION_MISALIGNED_IO_OPT, p.name(), p.name() + " starts at sector "
                + p.start().count() + ", " + off + " bytes past a " + Sizes.format(l.ioOpt())
                + " optimal_io_size (full stripe) boundary of " + p.disk()
                + ": full-stripe writes in the partition become two partial-stripe writes on the disk",
                "recreate " + p.name() + " at sector " + suggested + " (a multiple of the "
                + Sizes.format(l.ioOpt()) + " full stripe)", ref(p.disk(), LimitField.OPTIMAL_IO_SIZE),
                ref(p.name(), LimitField.ALIGNMENT_OFFSET));
    }

    static Finding pvIoMin(PhysicalVolume pv, BlockDevice d, QueueLimits l, long baseBytes, long off) {
        long grain = l.alignmentGranularity();
        return of(FindingType.PV_DATA_MISALIGNED_IO_MIN, pv.device(), "the data area of PV " + d.path()
                + " starts at sector " + (baseBytes / 512 + pv.peStart().count()) + " of the disk (pe_start "
                + pv.peStart().count() + (baseBytes > 0 ? " + partition start " + baseBytes / 512 : "") + "), "
                + off + " bytes past a " + Sizes.format(grain) + " boundary: every extent, and every LV on it,"
                + " is misaligned to the device's " + (l.ioMin() > l.physicalBlockSize() ? "minimum I/O size"
                : "physical block"),
                "pvcreate --dataalignment " + grain / 1024 + "k " + d.path() + " (LVM 2.03 detects this from sysfs"
                + " unless data_alignment_detection is off), after aligning the partition",
                ref(limitsDevice(d), l.ioMin() > l.physicalBlockSize() ? LimitField.MINIMUM_IO_SIZE
                        : LimitField.PHYSICAL_BLOCK_SIZE), ref(d.name(), LimitField.ALIGNMENT_OFFSET));
    }

    static Finding pvFullStripe(PhysicalVolume pv, BlockDevice d, QueueLimits l, long baseBytes, long diskOffset,
                                long off, long pageSize) {
        long stripe = l.ioOpt() / 512;
        long base = baseBytes / 512;
        long dataStart = base + pv.peStart().count();
        // the fix is what pvcreate makes of the options: pe_start with the stripe as alignment and no offset,
        // then the offset that moves it onto a stripe of the disk, and pvcreate's pe_start with both
        PvTopology topo = PvTopology.of(d.limits(), pageSize);
        PvCreateOptions aligned = PvCreateOptions.DEFAULTS.withDataAlignment(Sectors.of(stripe))
                .withDetection(true, false);
        long alignedStart = PvCreate.pvcreate(pv.device(), d.size(), topo, aligned).peStart().count();
        long wanted = Math.floorMod(diskOffset / 512 - base - alignedStart, stripe);
        String fix = base > 0
                ? "pvcreate --dataalignment " + l.ioOpt() / 1024 + "k --dataalignmentoffset " + wanted + "s "
                + d.path() + " (pe_start " + PvCreate.pvcreate(pv.device(), d.size(), topo,
                        aligned.withDataAlignmentOffset(Sectors.of(wanted))).peStart().count()
                + "), or repartition so that " + d.name() + " starts on a multiple of " + stripe + " sectors"
                : "pvcreate --dataalignment " + l.ioOpt() / 1024 + "k " + d.path();
        return of(FindingType.PV_DATA_MISALIGNED_FULL_STRIPE, pv.device(), "the data area of PV " + d.path()
                + " starts at sector " + dataStart + " of the disk (pe_start " + pv.peStart().count()
                + (base > 0 ? " + partition start " + base : "") + "), " + off + " bytes past a "
                + Sizes.format(l.ioOpt()) + " full-stripe boundary (" + stripe
                + " sectors): a full-stripe write to an LV becomes two partial-stripe writes (read-modify-write"
                + " of parity)", fix, ref(limitsDevice(d), LimitField.OPTIMAL_IO_SIZE),
                ref(d.name(), LimitField.ALIGNMENT_OFFSET));
    }

    static Finding deviceOffset(dev.dmmodel.device.BlockDevice d, QueueLimits l) {
        boolean md = d instanceof dev.dmmodel.device.MdDevice;
        return of(FindingType.DEVICE_ALIGNMENT_OFFSET, d.name(), label(d)
                + " reports alignment_offset " + l.alignmentOffset() + ": its sector 0 lies "
                + (l.alignmentGranularity() - l.alignmentOffset()) + " bytes past a "
                + Sizes.format(l.alignmentGranularity())
                + " boundary of the devices below, so aligned I/O to it is misaligned below",
                (md ? "move each member's data (partition start + md data offset)" : "move the data it maps "
                        + "(partition start, pe_start or table offsets)") + " to a multiple of "
                + Sizes.format(l.alignmentGranularity()) + " on the disk", ref(d.name(), LimitField.ALIGNMENT_OFFSET),
                ref(d.name(), LimitField.PHYSICAL_BLOCK_SIZE), ref(d.name(), LimitField.MINIMUM_IO_SIZE));
    }

    static Finding deviceMisaligned(dev.dmmodel.device.BlockDevice d) {
        boolean md = d instanceof dev.dmmodel.device.MdDevice;
        return of(FindingType.DEVICE_MISALIGNED, d.name(), label(d)
                + " reports alignment_offset -1: its " + (md ? "members" : "devices") + " are aligned differently"
                + " from each other, so no offset in it is aligned on all of them", "align every "
                + (md ? "member of the array" : "device of its table") + " the same way (same partition start"
                + (md ? " + data offset" : "") + " modulo the physical block / io_min on each disk)",
                ref(d.name(), LimitField.ALIGNMENT_OFFSET));
    }

    /** The device whose queue limits a device shows: a partition's disk, else itself. */
    private static String limitsDevice(BlockDevice d) {
        return d instanceof dev.dmmodel.device.Partition p ? p.disk() : d.name();
    }

    private static String label(dev.dmmodel.device.BlockDevice d) {
        return d instanceof DmDevice dm ? dm.name() + " (" + dm.dmName() + ")" : d.name();
    }

    static Finding vgMixedBlockSizes(VolumeGroup vg, Map<Long, List<String>> byLbs) {
        return of(FindingType.VG_MIXED_LOGICAL_BLOCK_SIZES, vg.name(), "volume group " + vg.name()
                + " mixes logical block sizes " + byLbs + ": an LV spanning them takes the largest, and I/O that"
                + " was valid on the smaller-sector PV fails", "keep PVs of one logical block size per VG",
                byLbs.values().stream().flatMap(List::stream).map(n -> ref(n, LimitField.LOGICAL_BLOCK_SIZE))
                        .toArray(LimitRef[]::new));
    }

    static Finding tableMixedBlockSizes(DmDevice dm, Map<Long, List<String>> byLbs) {
        return of(FindingType.TABLE_MIXED_LOGICAL_BLOCK_SIZES, dm.name(), dm.name() + " (" + dm.dmName()
                + ") maps devices with different logical block sizes " + byLbs
                + ": the device takes the largest, " + byLbs.keySet().stream().max(Long::compare).orElse(512L)
                + " bytes", "build the table from devices of one logical block size",
                byLbs.values().stream().flatMap(List::stream).map(n -> ref(n, LimitField.LOGICAL_BLOCK_SIZE))
                        .toArray(LimitRef[]::new));
    }

    static Finding extentSizeVsStripe(VolumeGroup vg, PhysicalVolume pv, QueueLimits l) {
        long extentBytes = vg.extentSize().count() * 512;
        return of(FindingType.EXTENT_SIZE_NOT_FULL_STRIPE_MULTIPLE, vg.name(), "extent size "
                + Sizes.format(extentBytes) + " of volume group " + vg.name() + " is not a multiple of the "
                + Sizes.format(l.ioOpt()) + " full stripe of " + pv.device() + ": LV segments that start on an"
                + " extent boundary start inside a stripe", "vgcreate -s with a multiple of "
                + Sizes.format(l.ioOpt()) + " (e.g. " + Sizes.format(lcm(l.ioOpt(), 1L << 20)) + ")",
                ref(pv.device(), LimitField.OPTIMAL_IO_SIZE));
    }

    private static long lcm(long a, long b) {
        long x = a;
        long y = b;
        while (y != 0) {
            long t = x % y;
            x = y;
            y = t;
        }
        return a / x * b;
    }
}
