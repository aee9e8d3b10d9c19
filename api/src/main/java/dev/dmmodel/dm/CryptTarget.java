package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code crypt}: dm-crypt ({@code drivers/md/dm-crypt.c}) encrypting the range onto {@code device} from
 * {@code offset}, in the words of its table line
 * {@code <cipher> <key> <iv_offset> <device> <offset> [<#opt_params> <opt_params>...]}.
 *
 * <p>The key is never held: {@code key} is what {@code dmsetup table} prints without {@code --showkeys}: as many
 * {@code 0}s as the hex key has digits, a kernel keyring reference ({@code :64:logon:cryptsetup:...}), or
 * {@code -} (no key). A hex key given here becomes zeros of its length.
 *
 * @param start first sector in the dm device
 * @param length sectors mapped
 * @param cipher the cipher specification ({@code aes-xts-plain64}, {@code capi:...})
 * @param key the key as {@code dmsetup table} prints it: zeros, a keyring reference or {@code -}
 * @param ivOffset {@code iv_offset}: added to the sector number for the IV
 * @param device kernel name of the underlying device
 * @param offset first sector on the underlying device ({@code cc->start}; LUKS2's data offset)
 * @param sectorSize {@code sector_size:N}: the encryption sector size in bytes (512 ... 4096, a power of two)
 * @param allowDiscards {@code allow_discards}: discards pass to the device
 * @param ivLargeSectors {@code iv_large_sectors}: IVs count in {@code sectorSize} units
 * @param otherOptions the other optional arguments, as {@code crypt_status} prints them and in its order
 *     ({@code same_cpu_crypt}, {@code high_priority}, {@code submit_from_crypt_cpus}, {@code no_read_workqueue},
 *     {@code no_write_workqueue}, {@code integrity:N:TYPE})
 */
public record CryptTarget(Sectors start, Sectors length, String cipher, String key, Sectors ivOffset, String device,
                          Sectors offset, int sectorSize, boolean allowDiscards, boolean ivLargeSectors,
                          List<String> otherOptions) implements DmTarget {

    /** The flags {@code crypt_status} prints between {@code allow_discards} and {@code sector_size}, in order. */
    public static final List<String> FLAGS = List.of("same_cpu_crypt", "high_priority", "submit_from_crypt_cpus",
            "no_read_workqueue", "no_write_workqueue");

    /** Rejects nulls, empty targets, blank words and sector sizes the kernel refuses; redacts a hex key. */
    public CryptTarget {
        Objects.requireNonNull(start, "start");
        Targets.requirePositive("crypt", length);
        Objects.requireNonNull(cipher, "cipher");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(ivOffset, "ivOffset");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(offset, "offset");
        Objects.requireNonNull(otherOptions, "otherOptions");
        word("cipher", cipher);
        word("key", key);
        // dm-crypt.c: crypt_status prints a hex key only with --showkeys: it is never kept
        key = TargetSecrets.redact("crypt", List.of(cipher, key)).get(1);
        if (sectorSize < 512 || sectorSize > 4096 || Integer.bitCount(sectorSize) != 1) {
            throw new IllegalArgumentException("crypt target: sector size " + sectorSize
                    + " must be a power of two from 512 to 4096 (Invalid feature value for sector_size)");
        }
        if (length.count() % (sectorSize / 512) != 0) {
            throw new IllegalArgumentException("crypt target: length " + length.count() + " sectors is not a "
                    + "multiple of the sector size " + sectorSize + " (Device size is not multiple of sector_size "
                    + "feature)");
        }
        List<String> opts = new ArrayList<>(otherOptions);
        for (String o : opts) {
            word("option", o);
            if (!FLAGS.contains(o) && !o.startsWith("integrity:")) {
                throw new IllegalArgumentException("crypt target: option '" + o + "' is not one of " + FLAGS
                        + " or integrity:N:TYPE");
            }
        }
        if (opts.stream().distinct().count() != opts.size()) {
            throw new IllegalArgumentException("crypt target: options " + opts + " repeat one");
        }
        opts.sort(Comparator.comparingInt(o -> FLAGS.contains(o) ? FLAGS.indexOf(o) : FLAGS.size()));
        otherOptions = List.copyOf(opts);
    }

    private static void word(String what, String s) {
        if (s.isEmpty() || s.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("crypt target: " + what + " '" + s + "' is empty or has blanks");
        }
    }

    @Override
    public String type() {
        return "crypt";
    }

    @Override
    public List<String> devices() {
        return List.of(device);
    }

    /** The optional arguments in {@code crypt_status}'s order; {@code sector_size:512} is the default, not shown. */
    public List<String> optionalArguments() {
        List<String> out = new ArrayList<>();
        if (allowDiscards) {
            out.add("allow_discards");
        }
        out.addAll(otherOptions);
        if (sectorSize != 512) {
            out.add("sector_size:" + sectorSize);
        }
        if (ivLargeSectors) {
            out.add("iv_large_sectors");
        }
        return List.copyOf(out);
    }

    // dm-crypt.c: crypt_status (STATUSTYPE_TABLE)
    @Override
    public String arguments(Function<String, String> fmt) {
        StringBuilder sb = new StringBuilder().append(cipher).append(' ').append(key).append(' ')
                .append(ivOffset.count()).append(' ').append(fmt.apply(device)).append(' ').append(offset.count());
        List<String> opts = optionalArguments();
        if (!opts.isEmpty()) {
            sb.append(' ').append(opts.size());
            for (String o : opts) {
                sb.append(' ').append(o);
            }
        }
        return sb.toString();
    }

    @Override
    public CryptTarget at(Sectors newStart) {
        return new CryptTarget(newStart, length, cipher, key, ivOffset, device, offset, sectorSize, allowDiscards,
                ivLargeSectors, otherOptions);
    }

    @Override
    public String toString() {
        return "CryptTarget[start=" + start + ", length=" + length + ", cipher=" + cipher + ", key=" + key
                + ", ivOffset=" + ivOffset + ", device=" + device + ", offset=" + offset + ", sectorSize=" + sectorSize
                + ", options=" + optionalArguments() + "]";
    }
}
