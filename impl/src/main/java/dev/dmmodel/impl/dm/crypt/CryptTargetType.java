package dev.dmmodel.impl.dm.crypt;

import dev.dmmodel.dm.CryptTarget;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.TargetType;
import dev.dmmodel.impl.dm.table.TargetArgs;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** dm-crypt's target type ({@code drivers/md/dm-crypt.c}: {@code crypt_ctr}, {@code crypt_ctr_optional}). */
public final class CryptTargetType implements TargetType {

    /** The one instance. */
    public static final CryptTargetType INSTANCE = new CryptTargetType();

    /** {@code crypt_ctr_optional}: {@code _args} allows at most this many optional arguments (6.12). */
    static final int MAX_OPT_PARAMS = 9;

    /** The key types a keyring reference may name ({@code crypt_set_keyring_key}). */
    private static final List<String> KEY_TYPES = List.of("logon", "user", "encrypted", "trusted");

    private CryptTargetType() {
    }

    @Override
    public String name() {
        return "crypt";
    }

    @Override
    public Class<? extends DmTarget> targetClass() {
        return CryptTarget.class;
    }

    // crypt_ctr: argument count, key size, the optional arguments (read before the cipher), cipher and key,
    // iv_offset, the device, its start
    @Override
    public DmTarget construct(TargetArgs a) {
        a.arity(a.count() >= 5, "crypt <cipher> <key> <iv_offset> " + a.dev("major:minor")
                + " <offset> [<#opt_params> <opt_params>...] (crypt_ctr: Not enough arguments)");
        checkKey(a);
        Options o = optional(a);
        if (a.arg(0).startsWith("-") || a.arg(0).endsWith("-") || a.arg(0).contains("--")) {
            throw a.invalid(0, "a cipher specification cipher[:keycount]-chainmode-ivmode[:ivopts] or capi:... "
                    + "(crypt_ctr_cipher: Bad cipher specification)");
        }
        long ivOffset = a.number(2, "the iv_offset in sectors (crypt_ctr: Invalid iv_offset sector)");
        if (ivOffset % (o.sectorSize / 512) != 0) {
            throw a.invalid(2, "an iv_offset that is a multiple of the crypt sector size of " + o.sectorSize
                    + " bytes (" + o.sectorSize / 512 + " sectors) (crypt_ctr: Invalid iv_offset sector)");
        }
        String d = a.device(3);
        long offset = a.number(4, "the offset in sectors on the device (crypt_ctr: Invalid device sector)");
        a.endsInRange(offset, 4);
        return new CryptTarget(a.start(), a.length(), a.arg(0), a.arg(1), Sectors.of(ivOffset), d,
                Sectors.of(offset), o.sectorSize, o.allowDiscards, o.ivLargeSectors, o.others);
    }

    // crypt_ctr: get_key_size ("Cannot parse key size"), crypt_set_key ("Error decoding and setting key"); the
    // argument is already redacted, so a hex key is checked by its length and digits only
    private static void checkKey(TargetArgs a) {
        String key = a.arg(1);
        if (key.equals("-")) {
            return;
        }
        if (key.startsWith(":")) {
            String[] parts = key.substring(1).split(":", 3);
            if (parts.length < 2 || parts[0].isEmpty() || !parts[0].chars().allMatch(Character::isDigit)
                    || parts[0].length() > 10 || Long.parseLong(parts[0]) > TargetArgs.UINT_MAX) {
                throw a.invalid(1, "a key in hex, '-' or a keyring reference :<key size>:<type>:<description> "
                        + "(crypt_ctr: Cannot parse key size)");
            }
            if (parts.length < 3 || !KEY_TYPES.contains(parts[1]) || parts[2].isEmpty()) {
                throw a.invalid(1, "a keyring reference :<key size>:<" + String.join("|", KEY_TYPES)
                        + ">:<description> (crypt_ctr: Error decoding and setting key)");
            }
            return;
        }
        if (key.length() % 2 != 0 || !key.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw a.invalid(1, "a key of an even number of hex digits (crypt_ctr: Error decoding and setting key)");
        }
    }

    /** What {@code crypt_ctr_optional} reads. */
    private record Options(int sectorSize, boolean allowDiscards, boolean ivLargeSectors, List<String> others) {
    }

    // crypt_ctr_optional: dm_read_arg_group ({0, 9}, "Invalid number of feature args"), then each argument
    private static Options optional(TargetArgs a) {
        if (a.count() == 5) {
            return new Options(512, false, false, List.of());
        }
        long n = a.number(5, "the number of optional arguments (crypt_ctr_optional: Invalid number of feature args)");
        if (n > MAX_OPT_PARAMS || n > a.count() - 6) {
            throw a.invalid(5, "a number of optional arguments from 0 to " + MAX_OPT_PARAMS + " and at most the "
                    + (a.count() - 6) + " that follow (crypt_ctr_optional: Invalid number of feature args)");
        }
        if (a.count() != 6 + n) {
            throw a.at(6 + (int) n, (a.count() - 6 - n) + " argument(s) after the " + n + " optional ones",
                    "none: crypt_ctr_optional ignores them, and the model keeps only what dmsetup table shows");
        }
        int sectorSize = 512;
        boolean discards = false;
        boolean large = false;
        List<String> others = new ArrayList<>();
        for (int i = 6; i < a.count(); i++) {
            String opt = a.arg(i);
            String lower = opt.toLowerCase(Locale.ROOT);
            if (lower.equals("allow_discards")) {
                discards = true;
            } else if (CryptTarget.FLAGS.contains(lower)) {
                if (!others.contains(lower)) {
                    others.add(lower);
                }
            } else if (opt.startsWith("integrity:")) {
                others.removeIf(s -> s.startsWith("integrity:"));
                others.add(integrity(a, i));
            } else if (opt.startsWith("sector_size:")) {
                sectorSize = sectorSize(a, i);
            } else if (lower.equals("iv_large_sectors")) {
                large = true;
            } else {
                throw a.invalid(i, "one of allow_discards, " + String.join(", ", CryptTarget.FLAGS)
                        + ", integrity:N:TYPE, sector_size:N, iv_large_sectors (crypt_ctr_optional: Invalid feature "
                        + "arguments)");
            }
        }
        return new Options(sectorSize, discards, large, others);
    }

    // crypt_ctr_optional: "integrity:%u:%s" — a tag size from 1 to MAX_TAG_SIZE (480) and a type
    private static String integrity(TargetArgs a, int i) {
        String[] p = a.arg(i).split(":", 3);
        boolean ok = p.length == 3 && !p[1].isEmpty() && p[1].length() <= 4 && p[1].chars().allMatch(Character::isDigit)
                && Integer.parseInt(p[1]) >= 1 && Integer.parseInt(p[1]) <= 480 && !p[2].isEmpty();
        if (!ok) {
            throw a.invalid(i, "integrity:<tag bytes, 1 to 480>:<type> (crypt_ctr_optional: Invalid integrity arguments)");
        }
        return a.arg(i);
    }

    // crypt_ctr_optional: "sector_size:%hu" — a power of two from 512 to 4096 that divides the target's length
    private static int sectorSize(TargetArgs a, int i) {
        String v = a.arg(i).substring("sector_size:".length());
        if (v.isEmpty() || v.length() > 5 || !v.chars().allMatch(Character::isDigit)) {
            throw a.invalid(i, "sector_size:<bytes> (crypt_ctr_optional: Invalid feature arguments)");
        }
        int size = Integer.parseInt(v);
        if (size < 512 || size > 4096 || Integer.bitCount(size) != 1) {
            throw a.invalid(i, "sector_size:512, 1024, 2048 or 4096 (crypt_ctr_optional: Invalid feature value for "
                    + "sector_size)");
        }
        if (a.length().count() % (size / 512) != 0) {
            throw a.invalid(i, "a sector size that divides the target's length of " + a.length().count()
                    + " sectors (crypt_ctr_optional: Device size is not multiple of sector_size feature)");
        }
        return size;
    }

    @Override
    public TargetModel model(DmTarget target, Function<String, Long> deviceSize) {
        return new CryptModel((CryptTarget) target);
    }
}
