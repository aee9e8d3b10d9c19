package dev.dmmodel.impl.cryptsetup;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.dm.CryptTarget;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanOpFailure;
import dev.dmmodel.impl.plan.PlanState;
import dev.dmmodel.impl.plan.shell.ShellCommand;
import dev.dmmodel.impl.plan.shell.Word;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.QueueLimits;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code cryptsetup luksFormat DEVICE [KEYFILE]} and {@code cryptsetup open|luksOpen DEVICE NAME} of a plan
 * (cryptsetup 2.4 and later). {@code luksFormat} writes a header whose data offset and encryption sector size
 * {@code open} then loads into a dm-crypt table; keys are never read, kept or printed (the table names a kernel
 * keyring entry, as cryptsetup's LUKS2 tables do). {@code --type plain} maps the device from sector 0 (or
 * {@code --offset}).
 */
public final class CryptsetupCommand {

    /** LUKS2's default header: 16 MiB of metadata and keyslots ({@code LUKS2_DEFAULT_HDR_SIZE}). */
    static final long LUKS2_HEADER_SECTORS = 32768;
    /** LUKS1's payload offset at the default 1 MiB alignment: 2 MiB ({@code LUKS_ALIGN_KEYSLOTS} rounded). */
    static final long LUKS1_PAYLOAD_SECTORS = 4096;
    /** cryptsetup's default data alignment when the device gives no hint ({@code DEFAULT_DISK_ALIGNMENT}). */
    static final long DEFAULT_ALIGNMENT_BYTES = 1 << 20;

    private static final Set<String> VALUE_OPTIONS = Set.of("--type", "-M", "--cipher", "-c", "--key-size", "-s",
            "--hash", "-h", "--pbkdf", "--pbkdf-force-iterations", "--pbkdf-memory", "--pbkdf-parallel",
            "--iter-time", "-i", "--key-file", "-d", "--keyfile-size", "-l", "--label", "--subsystem", "--uuid",
            "--sector-size", "--align-payload", "--offset", "-o", "--luks2-metadata-size", "--luks2-keyslots-size",
            "--keyslot-cipher", "--keyslot-key-size", "--integrity", "--header", "--key-slot", "-S");
    private static final Set<String> FLAG_OPTIONS = Set.of("-q", "--batch-mode", "-v", "--verbose", "--debug",
            "--use-random", "--use-urandom", "--allow-discards", "--perf-same_cpu_crypt", "--perf-submit_from_crypt_cpus",
            "--perf-no_read_workqueue", "--perf-no_write_workqueue", "--persistent", "-y", "--verify-passphrase",
            "--readonly", "-r", "--force-password");

    /** What luksFormat wrote on a device, as open reads it. */
    record Header(String type, String cipher, long dataOffset, int sectorSize) {
    }

    private CryptsetupCommand() {
    }

    /**
     * Reads one cryptsetup command.
     *
     * @throws dev.dmmodel.plan.PlanException naming the word and what was expected
     */
    public static PlanOp parse(ShellCommand c) {
        java.util.Map<String, String> opts = new java.util.HashMap<>();
        List<Word> positional = new ArrayList<>();
        List<Word> args = c.args();
        for (int i = 0; i < args.size(); i++) {
            Word w = args.get(i);
            String t = w.text();
            String name = t.contains("=") && t.startsWith("--") ? t.substring(0, t.indexOf('=')) : t;
            if (VALUE_OPTIONS.contains(name)) {
                String v;
                if (!name.equals(t)) {
                    v = t.substring(name.length() + 1);
                } else if (i + 1 < args.size()) {
                    v = args.get(++i).text();
                } else {
                    throw c.error(w, "cryptsetup " + t + " without its value");
                }
                opts.put(canonical(name), v);
            } else if (FLAG_OPTIONS.contains(t)) {
                opts.put(canonical(t), "");
            } else if (t.startsWith("-") && t.length() > 1) {
                throw c.expected(w, "option", "one of cryptsetup's luksFormat/open options (" + String.join(", ",
                        new java.util.TreeSet<>(VALUE_OPTIONS)) + ", ...)");
            } else {
                positional.add(w);
            }
        }
        if (positional.isEmpty()) {
            throw c.error("cryptsetup without an action: expected luksFormat DEVICE or open DEVICE NAME");
        }
        Word action = positional.get(0);
        List<Word> rest = positional.subList(1, positional.size());
        if (opts.containsKey("--header") || opts.containsKey("--integrity")) {
            throw c.error("cryptsetup " + (opts.containsKey("--header") ? "--header (a detached header)"
                    : "--integrity") + " is not modelled");
        }
        return switch (action.text()) {
            case "luksFormat" -> luksFormat(c, opts, rest);
            case "open", "luksOpen" -> open(c, opts, rest, action.text().equals("luksOpen") ? "luks" : null);
            case "close", "luksClose", "status", "luksDump", "isLuks" -> PlanOp.of(c.origin(), "cryptsetup", state -> List.of());
            default -> throw c.expected(action, "action", "luksFormat, open, luksOpen (or status, luksDump: no "
                    + "effect)");
        };
    }

    private static String canonical(String option) {
        return switch (option) {
            case "-M" -> "--type";
            case "-c" -> "--cipher";
            case "-s" -> "--key-size";
            case "-o" -> "--offset";
            case "-q" -> "--batch-mode";
            default -> option;
        };
    }

    private static long number(ShellCommand c, String option, String value, long max) {
        if (!value.matches("\\d{1,12}") || Long.parseLong(value) > max) {
            throw c.error("cryptsetup " + option + " \"" + value + "\": expected a number from 0 to " + max);
        }
        return Long.parseLong(value);
    }

    // ---- luksFormat

    private static PlanOp luksFormat(ShellCommand c, java.util.Map<String, String> opts, List<Word> rest) {
        if (rest.isEmpty() || rest.size() > 2) {
            throw c.error("cryptsetup luksFormat: expected luksFormat DEVICE [KEYFILE]");
        }
        String type = opts.getOrDefault("--type", "luks2");
        if (!type.equals("luks2") && !type.equals("luks1") && !type.equals("luks")) {
            throw c.error("cryptsetup luksFormat --type \"" + type + "\": expected luks2 or luks1");
        }
        String format = type.equals("luks1") ? "luks1" : "luks2";
        int sectorSize = opts.containsKey("--sector-size")
                ? (int) number(c, "--sector-size", opts.get("--sector-size"), 4096) : 0;
        if (opts.containsKey("--sector-size") && (sectorSize < 512 || Integer.bitCount(sectorSize) != 1)) {
            throw c.error("cryptsetup --sector-size " + sectorSize + ": Unsupported encryption sector size.");
        }
        if (format.equals("luks1") && sectorSize > 512) {
            throw c.error("cryptsetup --sector-size " + sectorSize + ": Unsupported encryption sector size (LUKS1 "
                    + "has 512-byte sectors only).");
        }
        long alignPayload = opts.containsKey("--align-payload")
                ? number(c, "--align-payload", opts.get("--align-payload"), 1L << 40) : 0;
        long offset = opts.containsKey("--offset") ? number(c, "--offset", opts.get("--offset"), 1L << 40) : 0;
        String cipher = opts.getOrDefault("--cipher", "aes-xts-plain64");
        String device = rest.get(0).text();
        return PlanOp.of(c.origin(), "cryptsetup", state -> {
            BlockDevice d = state.device(device, "cryptsetup");
            Optional<String> held = state.holder(d.name());
            if (held.isPresent()) {
                throw new PlanOpFailure("Cannot format device " + device + " in use (" + held.get() + ").");
            }
            QueueLimits l = d.limits();
            int sector = sectorSize != 0 ? sectorSize : defaultSectorSize(format, l);
            long dataOffset = offset != 0 ? offset : dataOffset(format, l, alignPayload);
            if (dataOffset + sector / 512 > d.size().count()) {
                throw new PlanOpFailure("Device " + device + " is too small. (LUKS2 requires at least "
                        + (dataOffset * 512 + sector) + " bytes.)");
            }
            state.note("luks:" + d.name(), new Header(format, cipher, dataOffset, sector));
            return List.of(device + ": " + format.toUpperCase(java.util.Locale.ROOT) + " header, data offset "
                    + dataOffset + "s, encryption sector size " + sector + (sectorSize == 0 ? " (from the device's "
                    + "physical_block_size " + l.physicalBlockSize() + ")" : ""));
        });
    }

    // lib/setup.c: crypt_format, LUKS2 since cryptsetup 2.4: the encryption sector size follows the device's
    // physical sector (512 ... 4096); LUKS1 has 512-byte sectors
    static int defaultSectorSize(String format, QueueLimits l) {
        if (format.equals("luks1")) {
            return 512;
        }
        long p = l.physicalBlockSize();
        if (p < 512 || p > 4096 || Long.bitCount(p) != 1 || p < l.logicalBlockSize()) {
            return (int) Math.max(512, Math.min(4096, l.logicalBlockSize()));
        }
        return (int) p;
    }

    // lib/utils_device.c: device_topology_alignment, then lib/luks2/luks2_json_format.c: LUKS2_generate_hdr (the
    // data after the 16 MiB header, rounded up to the required alignment); LUKS1: the 2 MiB payload offset
    static long dataOffset(String format, QueueLimits l, long alignPayloadSectors) {
        long header = format.equals("luks1") ? LUKS1_PAYLOAD_SECTORS : LUKS2_HEADER_SECTORS;
        long alignment = alignPayloadSectors != 0 ? Math.multiplyExact(alignPayloadSectors, 512)
                : requiredAlignment(l);
        long bytes = Math.multiplyExact(header, 512);
        long rounded = Math.multiplyExact(Math.floorDiv(Math.addExact(bytes, alignment - 1), alignment), alignment);
        return rounded / 512;
    }

    // lib/utils_device.c: device_topology_alignment (io_opt when it is a multiple of io_min, else io_min; the 1 MiB
    // default stays when it is already a multiple of that)
    static long requiredAlignment(QueueLimits l) {
        long min = l.ioMin();
        long opt = l.ioOpt();
        long temp = opt > min && min > 0 && opt % min == 0 ? opt : min;
        if (temp > 0 && DEFAULT_ALIGNMENT_BYTES % temp != 0) {
            return temp;
        }
        return DEFAULT_ALIGNMENT_BYTES;
    }

    // ---- open

    private static PlanOp open(ShellCommand c, java.util.Map<String, String> opts, List<Word> rest, String forced) {
        if (rest.size() != 2) {
            throw c.error("cryptsetup open: expected open DEVICE NAME");
        }
        String type = forced != null ? forced : opts.getOrDefault("--type", "luks");
        if (!List.of("luks", "luks1", "luks2", "plain").contains(type)) {
            throw c.error("cryptsetup open --type \"" + type + "\": expected luks, luks2, luks1 or plain");
        }
        String device = rest.get(0).text();
        String name = rest.get(1).text();
        boolean discards = opts.containsKey("--allow-discards");
        List<String> flags = new ArrayList<>();
        for (String f : List.of("same_cpu_crypt", "submit_from_crypt_cpus", "no_read_workqueue", "no_write_workqueue")) {
            if (opts.containsKey("--perf-" + f)) {
                flags.add(f);
            }
        }
        int plainSector = opts.containsKey("--sector-size")
                ? (int) number(c, "--sector-size", opts.get("--sector-size"), 4096) : 512;
        long plainOffset = opts.containsKey("--offset") ? number(c, "--offset", opts.get("--offset"), 1L << 40) : 0;
        long keyBits = opts.containsKey("--key-size") ? number(c, "--key-size", opts.get("--key-size"), 4096) : 256;
        String plainCipher = opts.getOrDefault("--cipher", "aes-cbc-essiv:sha256");
        return PlanOp.of(c.origin(), "cryptsetup", state -> {
            BlockDevice d = state.device(device, "cryptsetup");
            String cipher;
            String key;
            long offset;
            int sector;
            if (type.equals("plain")) {
                cipher = plainCipher;
                key = "0".repeat((int) (keyBits / 4)); // never a real key: the model keeps none
                offset = plainOffset;
                sector = plainSector;
            } else {
                Header h = state.noted("luks:" + d.name(), Header.class).orElseThrow(() -> new PlanOpFailure(
                        "Device " + device + " is not a valid LUKS device (no luksFormat of it earlier in the plan)."));
                cipher = h.cipher();
                // a LUKS2 volume key lives in the kernel keyring; the table names it, never the key
                key = ":64:logon:cryptsetup:dmmodel-" + d.name() + "-d0";
                offset = h.dataOffset();
                sector = h.sectorSize();
            }
            long length = d.size().count() - offset;
            length -= length % (sector / 512);
            if (length <= 0) {
                throw new PlanOpFailure("Device " + device + " is too small.");
            }
            CryptTarget t = new CryptTarget(Sectors.ZERO, Sectors.of(length), cipher, key, Sectors.ZERO, d.name(),
                    Sectors.of(offset), sector, discards, false, flags);
            state.add(new LayoutStep.DmCreate(name, "CRYPT-" + type.toUpperCase(java.util.Locale.ROOT) + "-" + name,
                    DmTable.builder().add(t).build(), Optional.empty(), Optional.empty()));
            BlockDevice m = state.device("/dev/mapper/" + name, "cryptsetup");
            return List.of("/dev/mapper/" + name + " (" + m.name() + "): " + length + " sectors of " + d.path()
                    + " from sector " + offset + ", encryption sector size " + sector
                    + (discards ? ", discards allowed" : ""));
        });
    }

}
