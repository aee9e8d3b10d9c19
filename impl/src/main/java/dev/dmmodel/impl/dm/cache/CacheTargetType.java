package dev.dmmodel.impl.dm.cache;

import dev.dmmodel.dm.CacheTarget;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.TargetType;
import dev.dmmodel.impl.dm.table.TargetArgs;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * dm-cache's target type ({@code drivers/md/dm-cache-target.c}: {@code cache_ctr}, {@code parse_cache_args},
 * {@code cache_create}); the checks that need device sizes are {@link CacheModel#checkDevices}'s.
 */
public final class CacheTargetType implements TargetType {

    /** The one instance. */
    public static final CacheTargetType INSTANCE = new CacheTargetType();

    /** The policies 6.12 registers ({@code dm-cache-policy-smq.c}: smq, mq, cleaner and the alias default). */
    static final List<String> POLICIES = List.of("smq", "mq", "cleaner", "default");

    /** {@code mq_set_config_value}: the old mq tunables, accepted and ignored. */
    static final List<String> MQ_KEYS = List.of("random_threshold", "sequential_threshold",
            "discard_promote_adjustment", "read_promote_adjustment", "write_promote_adjustment");

    /** {@code parse_policy}: at most 1024 policy arguments. */
    static final int MAX_POLICY_ARGS = 1024;

    private CacheTargetType() {
    }

    @Override
    public String name() {
        return "cache";
    }

    @Override
    public Class<? extends DmTarget> targetClass() {
        return CacheTarget.class;
    }

    private String usage(TargetArgs a) {
        return "cache " + a.dev("metadata major:minor") + " " + a.dev("cache major:minor") + " "
                + a.dev("origin major:minor") + " <block sectors> <#features> <feature>* <policy> <#policy args> "
                + "<key> <value>... (parse_cache_args: Insufficient args)";
    }

    // dm-cache-target.c: parse_cache_args — metadata, cache and origin devices, block size, features, policy;
    // cache_create — the policy and its config values
    @Override
    public DmTarget construct(TargetArgs a) {
        a.arity(a.count() >= 6, usage(a));
        String metadata = a.device(0);
        String cache = a.device(1);
        String origin = a.device(2);
        // parse_block_size: kstrtoul, not 0, a multiple of 64 from 64 to 2097152
        long block = a.number(3, "the cache block size in sectors (parse_block_size: Invalid data block size)");
        if (block < CacheTarget.MIN_BLOCK_SECTORS || block > CacheTarget.MAX_BLOCK_SECTORS
                || block % CacheTarget.MIN_BLOCK_SECTORS != 0) {
            throw a.invalid(3, "a block size in sectors that is a multiple of 64 (32 KiB) from 64 to 2097152 "
                    + "(parse_block_size: Invalid data block size)");
        }
        // parse_features: dm_read_arg_group {0, 3}
        long nf = a.number(4, "the number of feature arguments (parse_features: Invalid number of cache feature "
                + "arguments)");
        if (nf > 3 || nf > a.count() - 5) {
            throw a.invalid(4, "a number of features from 0 to 3 and at most the " + (a.count() - 5)
                    + " arguments that follow (parse_features: Invalid number of cache feature arguments)");
        }
        List<String> features = new ArrayList<>();
        int modes = 0;
        for (int i = 5; i < 5 + nf; i++) {
            String w = a.arg(i).toLowerCase(Locale.ROOT);
            if (!CacheTarget.FEATURES.contains(w)) {
                throw a.invalid(i, "one of " + String.join(", ", CacheTarget.FEATURES)
                        + " (parse_features: Unrecognised cache feature requested)");
            }
            if (CacheTarget.FEATURES.indexOf(w) < 3 && ++modes > 1) {
                throw a.invalid(i, "at most one of writeback, writethrough, passthrough (parse_features: Duplicate "
                        + "cache io_mode features requested)");
            }
            features.add(a.arg(i));
        }
        int p = 5 + (int) nf;
        // parse_policy: at_least_one_arg, then dm_read_arg_group {0, 1024}
        a.arity(a.count() >= p + 2, usage(a));
        String policy = a.arg(p);
        long np = a.number(p + 1, "the number of policy arguments (parse_policy: Invalid number of policy "
                + "arguments)");
        if (np > MAX_POLICY_ARGS || np > a.count() - p - 2) {
            throw a.invalid(p + 1, "a number of policy arguments from 0 to " + MAX_POLICY_ARGS + " and at most the "
                    + (a.count() - p - 2) + " that follow (parse_policy: Invalid number of policy arguments)");
        }
        int end = p + 2 + (int) np;
        if (a.count() != end) {
            throw a.at(end, (a.count() - end) + " argument(s) after the " + np + " policy arguments",
                    "none: parse_cache_args does not read them, and the model keeps only what it reads");
        }
        // cache_create -> create_cache_policy: dm_cache_policy_create finds the policy by name
        if (!POLICIES.contains(policy)) {
            throw a.invalid(p, "a policy " + String.join(", ", POLICIES) + " (cache_create: Error creating cache's "
                    + "policy)");
        }
        List<String> args = new ArrayList<>();
        for (int i = p + 2; i < end; i++) {
            args.add(a.arg(i));
        }
        checkConfigValues(a, p + 2, policy, args);
        return new CacheTarget(a.start(), a.length(), metadata, cache, origin, block, features, policy, args);
    }

    // dm-cache-target.c: set_config_values — <key> <value> pairs; migration_threshold is the core's (kstrtoul),
    // the old mq tunables are mq's (kstrtoul, ignored), smq and cleaner take none
    private static void checkConfigValues(TargetArgs a, int first, String policy, List<String> args) {
        String err = " (cache_create: Error setting cache policy's config values)";
        if (args.size() % 2 != 0) {
            throw a.invalid(first + args.size() - 1, "<key> <value> pairs: an even number of policy arguments" + err);
        }
        for (int i = 0; i < args.size(); i += 2) {
            String key = args.get(i).toLowerCase(Locale.ROOT);
            boolean known = key.equals("migration_threshold") || (policy.equals("mq") && MQ_KEYS.contains(key));
            if (!known) {
                throw a.invalid(first + i, "migration_threshold" + (policy.equals("mq") ? " or one of "
                        + String.join(", ", MQ_KEYS) : "") + " (the " + policy + " policy has no such key)" + err);
            }
            a.number(first + i + 1, "a number for " + args.get(i) + err);
        }
    }

    @Override
    public TargetModel model(DmTarget target, Function<String, Long> deviceSize) {
        return new CacheModel((CacheTarget) target, deviceSize);
    }
}
