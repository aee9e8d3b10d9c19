package dev.dmmodel.impl.format.layoutfile;

import dev.dmmodel.device.DiskDriver;
import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.device.DiskSpec;
import dev.dmmodel.limits.QueueLimits;
import java.util.List;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/** The words of a {@code disk} step shared by the reader and the writer: presets, drivers and limit keys. */
final class DiskFormat {

    private DiskFormat() {
    }

    /** A {@link DiskPresets} method without parameters, by its name in the format. */
    record Preset(String word, Supplier<DiskSpec> make) {
    }

    /** Presets without parameters, in the order the writer tries them. */
    static final List<Preset> PLAIN_PRESETS = List.of(
            new Preset("ahci-sata", DiskPresets::ahciSata),
            new Preset("ahci-sata-ssd", DiskPresets::ahciSataSsd),
            new Preset("qemu-ahci", DiskPresets::qemuAhci),
            new Preset("sas-disk", DiskPresets::sasDisk),
            new Preset("nvme-ssd", DiskPresets::nvmeSsd),
            new Preset("virtio-blk", DiskPresets::virtioBlk),
            new Preset("loop", DiskPresets::loop),
            new Preset("null-blk", DiskPresets::nullBlk));

    /** Every preset word, the parameterised ones included. */
    static final List<String> PRESET_WORDS = List.of("ahci-sata", "ahci-sata-ssd", "qemu-ahci", "sas-disk",
            "nvme-ssd", "virtio-blk", "loop", "null-blk", "hardware-raid", "3ware", "scsi-debug");

    /** The driver words, in {@link DiskDriver} order. */
    static final List<String> DRIVER_WORDS = List.of("sd", "nvme", "virtio-blk", "loop", "null-blk", "other");

    static String driverWord(DiskDriver d) {
        return DRIVER_WORDS.get(d.ordinal());
    }

    /** How a limit key's value is written. */
    enum Kind {
        /** Bytes: an integer or a size with a unit. */
        BYTES,
        /** A count (sectors, segments, KiB as the name says): an integer. */
        COUNT,
        /** A mask: an integer, decimal or 0x hexadecimal. */
        MASK,
        /** true or false. */
        BOOL
    }

    /** A queue limit a disk step may override, by its sysfs-like name. */
    record LimitKey(String key, Kind kind, Function<QueueLimits, Object> get, BiConsumer<QueueLimits.Builder, Object> set) {
    }

    private static LimitKey num(String key, Kind kind, Function<QueueLimits, Long> get,
                                BiConsumer<QueueLimits.Builder, Long> set) {
        return new LimitKey(key, kind, get::apply, (b, v) -> set.accept(b, (Long) v));
    }

    private static LimitKey bool(String key, Function<QueueLimits, Boolean> get,
                                 BiConsumer<QueueLimits.Builder, Boolean> set) {
        return new LimitKey(key, Kind.BOOL, get::apply, (b, v) -> set.accept(b, (Boolean) v));
    }

    /**
     * The limits set on the queue limits directly, after {@code logical_block_size}, {@code physical_block_size}
     * and {@code minimum_io_size} (which are set as {@link DiskSpec.Builder} sets them, raising the others).
     */
    static final List<LimitKey> LIMIT_KEYS = List.of(
            num("optimal_io_size", Kind.BYTES, QueueLimits::ioOpt, QueueLimits.Builder::ioOpt),
            num("alignment_offset", Kind.BYTES, QueueLimits::alignmentOffset, QueueLimits.Builder::alignmentOffset),
            bool("misaligned", QueueLimits::misaligned, QueueLimits.Builder::misaligned),
            num("max_hw_sectors", Kind.COUNT, QueueLimits::maxHwSectors, QueueLimits.Builder::maxHwSectors),
            num("max_dev_sectors", Kind.COUNT, QueueLimits::maxDevSectors, QueueLimits.Builder::maxDevSectors),
            num("max_user_sectors", Kind.COUNT, QueueLimits::maxUserSectors, QueueLimits.Builder::maxUserSectors),
            num("max_segments", Kind.COUNT, QueueLimits::maxSegments, QueueLimits.Builder::maxSegments),
            num("max_segment_size", Kind.BYTES, QueueLimits::maxSegmentSize, QueueLimits.Builder::maxSegmentSize),
            num("seg_boundary_mask", Kind.MASK, QueueLimits::segBoundaryMask, QueueLimits.Builder::segBoundaryMask),
            num("virt_boundary_mask", Kind.MASK, QueueLimits::virtBoundaryMask, QueueLimits.Builder::virtBoundaryMask),
            num("chunk_sectors", Kind.COUNT, QueueLimits::chunkSectors, QueueLimits.Builder::chunkSectors),
            num("discard_granularity", Kind.BYTES, QueueLimits::discardGranularity,
                    QueueLimits.Builder::discardGranularity),
            num("discard_alignment", Kind.BYTES, QueueLimits::discardAlignment, QueueLimits.Builder::discardAlignment),
            num("max_discard_sectors", Kind.COUNT, QueueLimits::maxDiscardSectors,
                    QueueLimits.Builder::maxDiscardSectors),
            num("max_hw_discard_sectors", Kind.COUNT, QueueLimits::maxHwDiscardSectors,
                    QueueLimits.Builder::maxHwDiscardSectors),
            num("max_discard_segments", Kind.COUNT, QueueLimits::maxDiscardSegments,
                    QueueLimits.Builder::maxDiscardSegments),
            num("max_write_zeroes_sectors", Kind.COUNT, QueueLimits::maxWriteZeroesSectors,
                    QueueLimits.Builder::maxWriteZeroesSectors),
            num("dma_alignment", Kind.MASK, QueueLimits::dmaAlignment, QueueLimits.Builder::dmaAlignment),
            bool("rotational", QueueLimits::rotational, QueueLimits.Builder::rotational));

    /** The block-size keys, set through {@link DiskSpec.Builder} in this order. */
    static final List<String> BLOCK_KEYS = List.of("logical_block_size", "physical_block_size", "minimum_io_size");

    /** Other keys of a disk step: the spec's own values. */
    static final List<String> SPEC_KEYS = List.of("max_sectors", "read_ahead_kb", "description");

    static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
