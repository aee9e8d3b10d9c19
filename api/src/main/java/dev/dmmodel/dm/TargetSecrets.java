package dev.dmmodel.dm;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The secret-bearing arguments of device-mapper tables, and what is kept of them: what {@code dmsetup table}
 * prints without {@code --showkeys}. Every table line the library reads passes through {@link #redact} before
 * anything keeps, prints, logs or puts it in a message, so a key read from {@code dmsetup table --showkeys}
 * output never leaves the reader.
 *
 * <ul>
 *   <li>{@code crypt} ({@code crypt_ctr}, {@code crypt_status}): the key, argument 2, in hex becomes as many
 *       {@code 0}s; a kernel keyring reference ({@code :64:logon:cryptsetup:...}) and {@code -} (no key) are no
 *       secret and are kept. Any other argument of 32 or more hex digits (128 bits or more: key material, in a
 *       line whose arguments are out of place) becomes zeros too; no crypt argument of that form is anything
 *       else.</li>
 *   <li>{@code integrity} ({@code dm_integrity_ctr}): the key of {@code journal_crypt:ALG:KEY},
 *       {@code internal_hash:ALG:KEY} and {@code journal_mac:ALG:KEY} becomes {@code 0}s.</li>
 * </ul>
 */
public final class TargetSecrets {

    private static final Pattern INTEGRITY_KEYED = Pattern.compile("(journal_crypt|internal_hash|journal_mac)"
            + ":([^:]+):(.+)");

    private static final Pattern LONG_HEX = Pattern.compile("[0-9a-fA-F]{32,}");

    private TargetSecrets() {
    }

    /**
     * The arguments of a target of {@code type} with every secret replaced by zeros of its length; the others as
     * given. The list has the same size and every argument the same length, so columns in messages still fit.
     */
    public static List<String> redact(String type, List<String> args) {
        Objects.requireNonNull(type, "type");
        List<String> out = new ArrayList<>(Objects.requireNonNull(args, "args"));
        if (type.equals("crypt") && out.size() > 1) {
            // dm-crypt.c: crypt_status prints the key as hex, or ":size:type:description" for a keyring key
            String key = out.get(1);
            if (!key.startsWith(":") && !key.equals("-")) {
                out.set(1, "0".repeat(key.length()));
            }
            for (int i = 0; i < out.size(); i++) {
                if (LONG_HEX.matcher(out.get(i)).matches()) {
                    out.set(i, "0".repeat(out.get(i).length()));
                }
            }
        } else if (type.equals("integrity")) {
            for (int i = 0; i < out.size(); i++) {
                Matcher m = INTEGRITY_KEYED.matcher(out.get(i));
                if (m.matches()) {
                    out.set(i, m.group(1) + ":" + m.group(2) + ":" + "0".repeat(m.group(3).length()));
                }
            }
        }
        return List.copyOf(out);
    }

    /** Whether arguments of targets of {@code type} can hold a secret ({@link #redact} changes nothing else). */
    public static boolean bearsSecrets(String type) {
        return type.equals("crypt") || type.equals("integrity");
    }

    /** Whether {@link #redact} would change any argument. */
    public static boolean holdsSecret(String type, List<String> args) {
        return !redact(type, args).equals(List.copyOf(args));
    }
}
