package dev.dmmodel.impl.plan.curtin;

import dev.dmmodel.impl.plan.yaml.YamlFields;
import dev.dmmodel.impl.plan.yaml.YamlNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * A {@code size:} (or {@code offset:}) of a curtin entry: bytes, or — in an autoinstall config, which subiquity
 * resolves before curtin runs — {@code -1} (the rest) or {@code N%}.
 *
 * @param kind what was written
 * @param value bytes for {@link Kind#BYTES}, the percentage for {@link Kind#PERCENT}
 */
record CurtinSize(Kind kind, long value) {

    static final long MIB = 1L << 20;
    /** subiquity/models/storage.py: LVM_OVERHEAD, LVM_CHUNK_SIZE. */
    static final long LVM_OVERHEAD = MIB;
    static final long LVM_CHUNK = 4 * MIB;

    enum Kind { BYTES, REST, PERCENT }

    static CurtinSize bytes(long b) {
        return new CurtinSize(Kind.BYTES, b);
    }

    /**
     * Reads a size as curtin does, or subiquity for an autoinstall config.
     */
    static CurtinSize read(YamlFields f, String key, YamlNode.Scalar s, boolean autoinstall) {
        String v = s.value().strip();
        if (autoinstall && s.plain() && v.equals("-1")) {
            return new CurtinSize(Kind.REST, -1);
        }
        if (autoinstall && v.endsWith("%")) {
            // subiquity/models/storage.py: int(p.size[:-1])
            String n = v.substring(0, v.length() - 1);
            if (!n.matches("[0-9]{1,3}") || Integer.parseInt(n) > 100) {
                throw f.expected(key, s, "a percentage from 0% to 100%");
            }
            return new CurtinSize(Kind.PERCENT, Integer.parseInt(n));
        }
        return bytes(human2bytes(f, key, s, autoinstall));
    }

    // curtin/util.py: human2bytes — an optional B, one of B K M G T (powers of 1024), a number that gives whole bytes
    static long human2bytes(YamlFields f, String key, YamlNode.Scalar s, boolean autoinstall) {
        String expected = "a size such as 512M, 10G or 1073741824 (bytes; units B, K, M, G, T of 1024)"
                + (autoinstall ? ", -1 for the rest or N%" : "");
        String v = s.value().strip();
        String t = v.endsWith("B") ? v.substring(0, v.length() - 1) : v;
        long mult = 1;
        if (!t.isEmpty()) {
            int i = "BKMGT".indexOf(t.charAt(t.length() - 1));
            if (i >= 0) {
                mult = 1L << (10 * i);
                t = t.substring(0, t.length() - 1);
            }
        }
        if (t.startsWith("-") && t.substring(1).matches("[0-9]+(\\.[0-9]*)?")) {
            throw f.error(s, key + " " + s.describe() + ": cannot be negative (curtin: human2bytes): expected "
                    + expected);
        }
        if (!t.matches("[0-9]{1,30}(\\.[0-9]{0,30})?|\\.[0-9]{1,30}")) {
            throw f.expected(key, s, expected);
        }
        BigDecimal b = new BigDecimal(t).multiply(BigDecimal.valueOf(mult));
        if (b.signum() != 0 && b.stripTrailingZeros().scale() > 0) {
            throw f.error(s, key + " " + s.describe() + ": resulted in non-integer bytes (curtin: human2bytes): "
                    + "expected whole bytes");
        }
        BigInteger n = b.toBigInteger();
        if (n.bitLength() > 62) {
            throw f.error(s, key + " " + s.describe() + ": more than 2^62 bytes: expected a size a disk can have");
        }
        return n.longValue();
    }

    static long alignUp(long v, long a) {
        return Math.multiplyExact(Math.floorDiv(Math.addExact(v, a - 1), a), a);
    }

    static long alignDown(long v, long a) {
        return Math.floorDiv(v, a) * a;
    }

    /**
     * A partition's bytes as subiquity resolves them before curtin runs.
     *
     * @param diskBytes the disk's size
     * @param gpt whether the label is gpt (1 MiB kept at the end) or msdos
     * @param others the other partitions of the disk, in order (bytes or percentages)
     */
    // subiquity/models/storage.py: apply_autoinstall_config's sizes; common/storage/gaps.py: find_disk_gaps_v1
    long partitionBytes(long diskBytes, boolean gpt, List<CurtinSize> others) {
        long minStart = MIB; // GPT_OVERHEAD // 2, for gpt and msdos
        long minEnd = gpt ? MIB : 0;
        switch (kind) {
            case BYTES:
                return value;
            case PERCENT:
                return alignDown(available(diskBytes, minStart, minEnd) * value / 100, MIB);
            default:
                long used = minStart;
                for (CurtinSize o : others) {
                    used = alignUp(used + o.partitionBytes(diskBytes, gpt, List.of()), MIB);
                }
                if (!gpt && others.size() >= 4) {
                    return 0; // remaining_primary_partitions < 1: no gap
                }
                long end = alignDown(diskBytes - minEnd, MIB);
                return end - used >= MIB ? end - used : 0;
        }
    }

    private static long available(long diskBytes, long minStart, long minEnd) {
        return alignDown(diskBytes, MIB) - minStart - minEnd;
    }

    /**
     * An LV's bytes as subiquity resolves them: the VG's size is each PV's size less 1 MiB, rounded down to 4 MiB.
     *
     * @param pvBytes the sizes of the VG's devices
     * @param others the VG's other LVs
     */
    // subiquity/models/storage.py: get_lvm_size; common/storage/gaps.py: _parts_and_gaps_vg
    long lvBytes(List<Long> pvBytes, List<CurtinSize> others) {
        long vg = 0;
        for (long pv : pvBytes) {
            vg += Math.max(0, alignDown(pv - LVM_OVERHEAD, LVM_CHUNK));
        }
        switch (kind) {
            case BYTES:
                return value;
            case PERCENT:
                return alignDown(vg * value / 100, MIB);
            default:
                long used = 0;
                for (CurtinSize o : others) {
                    used += o.lvBytes(pvBytes, List.of());
                }
                long remaining = alignDown(vg - used, LVM_CHUNK);
                return remaining >= LVM_CHUNK ? remaining : 0;
        }
    }

    @Override
    public String toString() {
        return switch (kind) {
            case BYTES -> value + "B";
            case REST -> "-1";
            case PERCENT -> value + "%";
        };
    }
}
