package dev.dmmodel.impl.tools;

import dev.dmmodel.device.MdLevel;
import dev.dmmodel.device.MdadmCreateRequest;
import dev.dmmodel.impl.tools.Getopt.Opt;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.Command;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * mdadm's create mode as a workload line ({@code mdadm --create /dev/md0 --level=5 --raid-devices=4 --chunk=64
 * /dev/vd[a-d]}): the options mdadm 4.2 reads for it; sizes as mdadm parses them (a bare number is KiB).
 */
final class MdadmTool {

    private MdadmTool() {
    }

    // mdadm/mdadm.c: main — create mode and the options it takes (ReadOpts.c: long_options)
    static Command mdadm(List<String> args, ParseContext ctx) {
        Map<String, String> longs = new LinkedHashMap<>();
        longs.put("create", "C");
        longs.put("level", "l");
        longs.put("raid-devices", "n");
        longs.put("chunk", "c");
        longs.put("layout", "p");
        longs.put("parity", "\u0001");
        longs.put("metadata", "e");
        longs.put("assume-clean", "\u0002");
        longs.put("run", "R");
        longs.put("force", "f");
        longs.put("verbose", "v");
        longs.put("quiet", "q");
        longs.put("homehost", "\u0003");
        longs.put("name", "N");
        longs.put("bitmap", "b");
        longs.put("data-offset", "\u0004");
        longs.put("spare-devices", "x");
        Getopt g = Getopt.parse("mdadm", args, "Cl:n:c:p:e:RfvqN:b:x:", longs, ctx);
        boolean create = false;
        String level = null;
        Integer raidDevices = null;
        Optional<Bytes> chunk = Optional.empty();
        Optional<String> layout = Optional.empty();
        String metadata = "1.2";
        Optional<Bytes> dataOffset = Optional.empty();
        boolean assumeClean = false;
        for (Opt o : g.options()) {
            switch (o.name()) {
                case "C" -> create = true;
                case "l" -> level = o.arg();
                case "n" -> raidDevices = count(o.arg(), "raid-devices", ctx);
                case "c" -> chunk = Optional.of(size(o.arg(), "chunk", ctx));
                case "p", "\u0001" -> layout = Optional.of(o.arg());
                case "e" -> metadata = o.arg().equals("default") ? "1.2" : o.arg();
                case "\u0002" -> assumeClean = true;
                case "\u0004" -> dataOffset = Optional.of(size(o.arg(), "data-offset", ctx));
                case "b" -> {
                    if (!o.arg().equals("none")) {
                        throw ctx.fail("mdadm --bitmap=" + o.arg() + " is not modelled (its bitmap writes): use "
                                + "--bitmap=none");
                    }
                }
                case "x" -> {
                    if (count(o.arg(), "spare-devices", ctx) != 0) {
                        throw ctx.fail("mdadm --spare-devices is not modelled (spares take no I/O)");
                    }
                }
                case "R", "f", "v", "q", "\u0003", "N" -> {
                }
                default -> throw ctx.fail("mdadm: option not modelled in a workload");
            }
        }
        if (!create) {
            throw ctx.fail("mdadm: only --create is modelled in a workload");
        }
        if (g.operands().isEmpty()) {
            throw ctx.fail("mdadm: an md device to create is needed");
        }
        if (level == null) {
            throw ctx.fail("mdadm: a RAID level is needed to create an array.");
        }
        String given = level;
        MdLevel parsed = MdLevel.parse(given.toLowerCase(Locale.ROOT))
                .orElseThrow(() -> ctx.fail("mdadm: invalid raid level: " + given));
        List<String> devices = g.operands().subList(1, g.operands().size());
        if (raidDevices == null) {
            throw ctx.fail("mdadm: no raid-devices specified.");
        }
        if (devices.size() != raidDevices) {
            throw ctx.fail("mdadm: You have listed " + devices.size() + " devices (" + String.join(" ", devices)
                    + ") but have specified " + raidDevices + " raid-devices");
        }
        return new Command.MdadmCreate(ctx.line(), new MdadmCreateRequest(g.operands().get(0), parsed, devices, chunk,
                layout, metadata, dataOffset, assumeClean));
    }

    private static int count(String v, String what, ParseContext ctx) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw ctx.fail("mdadm: invalid number of " + what + ": " + v);
    }

    // mdadm/util.c: parse_size — a number of KiB, or with a K/M/G/T suffix (a trailing s for sectors)
    private static Bytes size(String v, String what, ParseContext ctx) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)([kKmMgGtTs]?)").matcher(v);
        if (!m.matches()) {
            throw ctx.fail("mdadm: invalid " + what + " size: " + v);
        }
        long n = Long.parseLong(m.group(1));
        long unit = switch (m.group(2)) {
            case "", "k", "K" -> 1024L;
            case "m", "M" -> 1024L * 1024;
            case "g", "G" -> 1024L * 1024 * 1024;
            case "t", "T" -> 1024L * 1024 * 1024 * 1024;
            default -> 512L;
        };
        try {
            return Bytes.of(Math.multiplyExact(n, unit));
        } catch (ArithmeticException e) {
            throw ctx.fail("mdadm: " + what + " size " + v + " is too large");
        }
    }
}
