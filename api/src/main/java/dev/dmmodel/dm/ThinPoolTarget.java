package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code thin-pool}: a pool of data blocks on {@code dataDevice} with its metadata on
 * {@code metadataDevice} ({@code dm-thin.c: pool_ctr}).
 *
 * @param start first sector in the dm device
 * @param length sectors mapped (the data device's size)
 * @param metadataDevice kernel name of the metadata device
 * @param dataDevice kernel name of the data device
 * @param blockSectors the data block size: 128 … 2,097,152 sectors, a multiple of 128
 * @param lowWaterMark the low water mark in blocks
 * @param features the feature words: at most {@value #MAX_FEATURES}, since {@code parse_pool_features} takes at
 *     most four words (so {@code ignore_discard} and {@code no_discard_passdown} never come with all three others)
 */
public record ThinPoolTarget(Sectors start, Sectors length, String metadataDevice, String dataDevice,
                             long blockSectors, long lowWaterMark, Set<ThinPoolFeature> features)
        implements DmTarget {

    /** {@code DATA_DEV_BLOCK_SIZE_MIN_SECTORS}: 64 KiB. */
    public static final long MIN_BLOCK_SECTORS = 128;
    /** {@code DATA_DEV_BLOCK_SIZE_MAX_SECTORS}: 1 GiB. */
    public static final long MAX_BLOCK_SECTORS = 2_097_152;

    /** {@code parse_pool_features}: {@code {0, 4, "Invalid number of pool feature arguments"}}. */
    public static final int MAX_FEATURES = 4;

    /** Checks the block size and the number of feature words as {@code pool_ctr} does. */
    public ThinPoolTarget {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(length, "length");
        Objects.requireNonNull(metadataDevice, "metadataDevice");
        Objects.requireNonNull(dataDevice, "dataDevice");
        features = features.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(features));
        Targets.requirePositive("thin-pool", length);
        if (blockSectors < MIN_BLOCK_SECTORS || blockSectors > MAX_BLOCK_SECTORS
                || blockSectors % MIN_BLOCK_SECTORS != 0) {
            throw new IllegalArgumentException("thin-pool: Invalid block size " + blockSectors
                    + " sectors (must be a multiple of 128 sectors, 64 KiB, between 128 and 2097152)");
        }
        if (lowWaterMark < 0) {
            throw new IllegalArgumentException("thin-pool: low water mark (" + lowWaterMark + ") must not be negative");
        }
        if (features.size() > MAX_FEATURES) {
            throw new IllegalArgumentException("thin-pool: Invalid number of pool feature arguments (" + features.size()
                    + " features; the kernel takes at most " + MAX_FEATURES + " feature words)");
        }
    }

    /** Whether new blocks are zeroed before a partial first write (no {@code skip_block_zeroing}). */
    public boolean zeroNewBlocks() {
        return !features.contains(ThinPoolFeature.SKIP_BLOCK_ZEROING);
    }

    /** Whether discards are processed (no {@code ignore_discard}). */
    public boolean discardEnabled() {
        return !features.contains(ThinPoolFeature.IGNORE_DISCARD);
    }

    /** Whether processed discards are passed down to the data device. */
    public boolean discardPassdown() {
        return discardEnabled() && !features.contains(ThinPoolFeature.NO_DISCARD_PASSDOWN);
    }

    @Override
    public String type() {
        return "thin-pool";
    }

    @Override
    public List<String> devices() {
        return List.of(metadataDevice, dataDevice);
    }

    /** Arguments in the order the kernel echoes them ({@code emit_flags}). */
    @Override
    public String arguments(Function<String, String> fmt) {
        StringBuilder sb = new StringBuilder()
                .append(fmt.apply(metadataDevice)).append(' ').append(fmt.apply(dataDevice)).append(' ')
                .append(blockSectors).append(' ').append(lowWaterMark).append(' ').append(features.size());
        for (ThinPoolFeature f : new ThinPoolFeature[] {ThinPoolFeature.SKIP_BLOCK_ZEROING,
                ThinPoolFeature.IGNORE_DISCARD, ThinPoolFeature.NO_DISCARD_PASSDOWN, ThinPoolFeature.READ_ONLY,
                ThinPoolFeature.ERROR_IF_NO_SPACE}) {
            if (features.contains(f)) {
                sb.append(' ').append(f.word());
            }
        }
        return sb.toString();
    }

    @Override
    public ThinPoolTarget at(Sectors newStart) {
        return new ThinPoolTarget(newStart, length, metadataDevice, dataDevice, blockSectors, lowWaterMark, features);
    }
}
