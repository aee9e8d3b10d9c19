package dev.dmmodel.impl.dm.thin;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ThinPoolFeature;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.TargetType;
import dev.dmmodel.impl.dm.table.DmTableException;
import dev.dmmodel.impl.dm.table.TargetArgs;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/** dm-thin's pool target type ({@code drivers/md/dm-thin.c}: {@code pool_ctr}, {@code parse_pool_features}). */
public final class ThinPoolTargetType implements TargetType {

    /** The one instance. */
    public static final ThinPoolTargetType INSTANCE = new ThinPoolTargetType();

    private ThinPoolTargetType() {
    }

    @Override
    public String name() {
        return "thin-pool";
    }

    @Override
    public Class<? extends DmTarget> targetClass() {
        return ThinPoolTarget.class;
    }

    // pool_ctr: "Invalid argument count", "Error setting metadata or data device", parse_pool_features,
    // dm_get_device x2, "Invalid block size", "Invalid low water mark"; DM_TARGET_SINGLETON is the table's
    @Override
    public DmTarget construct(TargetArgs a) {
        String usage = "thin-pool " + a.dev("metadata major:minor") + " " + a.dev("data major:minor")
                + " <block sectors> <low water mark> [<#features> <feature>...]";
        a.arity(a.count() >= 4, usage);
        if (a.arg(0).equals(a.arg(1))) {
            throw a.at(1, "the same device "
                    + DmTableException.quote(a.arg(0)) + " for metadata and data",
                    "two different devices (pool_ctr: Error setting metadata or data device)");
        }
        Set<ThinPoolFeature> features = EnumSet.noneOf(ThinPoolFeature.class);
        if (a.count() > 4) {
            long count = a.number(4, "the number of feature words");
            if (count > ThinPoolTarget.MAX_FEATURES) {
                throw a.invalid(4, "the number of feature words, 0 to " + ThinPoolTarget.MAX_FEATURES
                        + " (parse_pool_features: Invalid number of pool feature arguments)");
            }
            a.arity(a.count() - 5 >= count, usage);
            for (int i = 5; i < 5 + count; i++) {
                String word = a.arg(i).toLowerCase(Locale.ROOT); // strcasecmp
                try {
                    features.add(ThinPoolFeature.ofWord(word));
                } catch (IllegalArgumentException e) {
                    throw a.at(i, "thin-pool feature "
                            + DmTableException.quote(a.arg(i)),
                            "one of skip_block_zeroing, ignore_discard, no_discard_passdown, read_only, "
                                    + "error_if_no_space");
                }
            }
        }
        String meta = a.device(0);
        String data = a.device(1);
        long block = a.number(2, "the block size in sectors");
        if (block < ThinPoolTarget.MIN_BLOCK_SECTORS || block > ThinPoolTarget.MAX_BLOCK_SECTORS
                || block % ThinPoolTarget.MIN_BLOCK_SECTORS != 0) {
            throw a.invalid(2, "the block size in sectors, a multiple of " + ThinPoolTarget.MIN_BLOCK_SECTORS
                    + " from " + ThinPoolTarget.MIN_BLOCK_SECTORS + " to " + ThinPoolTarget.MAX_BLOCK_SECTORS
                    + " (pool_ctr: Invalid block size)");
        }
        long lowWater = a.number(3, "the low water mark in blocks");
        return new ThinPoolTarget(a.start(), a.length(), meta, data, block, lowWater, features);
    }

    @Override
    public TargetModel model(DmTarget target, Function<String, Long> deviceSize) {
        return new ThinPoolModel((ThinPoolTarget) target);
    }
}
