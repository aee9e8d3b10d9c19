package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code cache}: dm-cache ({@code drivers/md/dm-cache-target.c}) caching {@code originDevice} on
 * {@code cacheDevice} in blocks of {@code blockSectors}, its mappings kept on {@code metadataDevice}, in the words
 * of its table line
 * {@code <metadata dev> <cache dev> <origin dev> <block size> <#features> <feature>* <policy> <#policy args>
 * <policy arg>*}.
 *
 * <p>The kernel keeps the arguments after the three devices as written and prints them back so
 * ({@code cache_status}): {@code features} and {@code policyArgs} are held in the order given.
 *
 * @param start first sector in the dm device
 * @param length sectors mapped (at most the origin's size)
 * @param metadataDevice kernel name of the metadata device
 * @param cacheDevice kernel name of the fast (cache data) device
 * @param originDevice kernel name of the slow (origin) device
 * @param blockSectors the cache block size in sectors: a multiple of 64 (32 KiB) from 64 to 2097152 (1 GiB)
 * @param features the feature words as written: {@code writeback} (the default), {@code writethrough},
 *     {@code passthrough}, {@code metadata2}, {@code no_discard_passdown}; at most 3, one io mode
 * @param policy the policy name ({@code smq}, {@code mq}, {@code cleaner}, {@code default})
 * @param policyArgs the policy's {@code <key> <value>} words as written (an even number)
 */
public record CacheTarget(Sectors start, Sectors length, String metadataDevice, String cacheDevice,
                          String originDevice, long blockSectors, List<String> features, String policy,
                          List<String> policyArgs) implements DmTarget {

    /** The feature words {@code parse_features} knows (compared without case). */
    public static final List<String> FEATURES = List.of("writeback", "writethrough", "passthrough", "metadata2",
            "no_discard_passdown");

    /** {@code DATA_DEV_BLOCK_SIZE_MIN_SECTORS}: 32 KiB; block sizes are multiples of it. */
    public static final long MIN_BLOCK_SECTORS = 64;

    /** {@code DATA_DEV_BLOCK_SIZE_MAX_SECTORS}: 1 GiB. */
    public static final long MAX_BLOCK_SECTORS = 2_097_152;

    /** How writes are cached ({@code enum cache_io_mode}). */
    public enum IoMode {
        /** Writes to cached blocks go to the cache only and mark them dirty ({@code CM_IO_WRITEBACK}). */
        WRITEBACK,
        /** Writes to cached blocks go to the origin and the cache ({@code CM_IO_WRITETHROUGH}). */
        WRITETHROUGH,
        /** Everything goes to the origin; written cached blocks are invalidated ({@code CM_IO_PASSTHROUGH}). */
        PASSTHROUGH
    }

    /** Rejects nulls, empty targets and what {@code parse_block_size} and {@code parse_features} refuse. */
    public CacheTarget {
        Objects.requireNonNull(start, "start");
        Targets.requirePositive("cache", length);
        Objects.requireNonNull(metadataDevice, "metadataDevice");
        Objects.requireNonNull(cacheDevice, "cacheDevice");
        Objects.requireNonNull(originDevice, "originDevice");
        Objects.requireNonNull(policy, "policy");
        features = List.copyOf(features);
        policyArgs = List.copyOf(policyArgs);
        if (blockSectors < MIN_BLOCK_SECTORS || blockSectors > MAX_BLOCK_SECTORS
                || blockSectors % MIN_BLOCK_SECTORS != 0) {
            throw new IllegalArgumentException("cache target: block size " + blockSectors + " sectors is not a "
                    + "multiple of 64 from 64 to 2097152 (Invalid data block size)");
        }
        if (features.size() > 3) {
            throw new IllegalArgumentException("cache target: " + features.size() + " features " + features
                    + ", at most 3 (Invalid number of cache feature arguments)");
        }
        int modes = 0;
        for (String f : features) {
            String w = f.toLowerCase(Locale.ROOT);
            if (!FEATURES.contains(w)) {
                throw new IllegalArgumentException("cache target: feature '" + f + "' is not one of " + FEATURES
                        + " (Unrecognised cache feature requested)");
            }
            if (FEATURES.indexOf(w) < 3) {
                modes++;
            }
        }
        if (modes > 1) {
            throw new IllegalArgumentException("cache target: features " + features + " name " + modes
                    + " io modes (Duplicate cache io_mode features requested)");
        }
        word("policy", policy);
        for (String a : policyArgs) {
            word("policy argument", a);
        }
        if (policyArgs.size() % 2 != 0) {
            throw new IllegalArgumentException("cache target: policy arguments " + policyArgs + " are not <key> "
                    + "<value> pairs (Error setting cache policy's config values)");
        }
        for (int i = 0; i < policyArgs.size(); i += 2) {
            String v = policyArgs.get(i + 1);
            if (policyArgs.get(i).equalsIgnoreCase("migration_threshold")
                    && (v.length() > 18 || !v.chars().allMatch(c -> c >= '0' && c <= '9'))) {
                throw new IllegalArgumentException("cache target: migration_threshold '" + v + "' is not a number "
                        + "of sectors (Error setting cache policy's config values)");
            }
        }
        for (String f : features) {
            word("feature", f);
        }
    }

    private static void word(String what, String s) {
        if (s.isEmpty() || s.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("cache target: " + what + " '" + s + "' is empty or has blanks");
        }
    }

    /** The io mode the features select ({@code init_features}: writeback unless one is named). */
    public IoMode ioMode() {
        for (String f : features) {
            switch (f.toLowerCase(Locale.ROOT)) {
                case "writethrough":
                    return IoMode.WRITETHROUGH;
                case "passthrough":
                    return IoMode.PASSTHROUGH;
                case "writeback":
                    return IoMode.WRITEBACK;
                default:
                    break;
            }
        }
        return IoMode.WRITEBACK;
    }

    /** Whether the metadata is in format 2 ({@code metadata2}). */
    public boolean metadata2() {
        return features.stream().anyMatch(f -> f.equalsIgnoreCase("metadata2"));
    }

    /** Whether discards pass down to the origin (no {@code no_discard_passdown}). */
    public boolean discardPassdown() {
        return features.stream().noneMatch(f -> f.equalsIgnoreCase("no_discard_passdown"));
    }

    @Override
    public String type() {
        return "cache";
    }

    @Override
    public List<String> devices() {
        return List.of(metadataDevice, cacheDevice, originDevice);
    }

    // dm-cache-target.c: cache_status (STATUSTYPE_TABLE) — the three devices, then the other arguments as given
    @Override
    public String arguments(Function<String, String> fmt) {
        StringBuilder sb = new StringBuilder().append(fmt.apply(metadataDevice)).append(' ')
                .append(fmt.apply(cacheDevice)).append(' ').append(fmt.apply(originDevice)).append(' ')
                .append(blockSectors).append(' ').append(features.size());
        for (String f : features) {
            sb.append(' ').append(f);
        }
        sb.append(' ').append(policy).append(' ').append(policyArgs.size());
        for (String a : policyArgs) {
            sb.append(' ').append(a);
        }
        return sb.toString();
    }

    @Override
    public CacheTarget at(Sectors newStart) {
        return new CacheTarget(newStart, length, metadataDevice, cacheDevice, originDevice, blockSectors, features,
                policy, policyArgs);
    }
}
