package dev.dmmodel.impl.tools;

import dev.dmmodel.impl.lvm.LvmNames;
import dev.dmmodel.impl.lvm.LvmSizeArg;
import dev.dmmodel.impl.tools.Getopt.Opt;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.Command;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * LVM2's {@code lvcreate} as a workload line: a thin volume ({@code -V SIZE -T VG/POOL}, {@code -V SIZE
 * --thinpool POOL VG}) or a thin snapshot ({@code -s VG/THIN}). Sizes and names follow LVM's own rules
 * ({@link LvmSizeArg}, {@link LvmNames}).
 */
final class LvcreateTool {

    private LvcreateTool() {
    }

    // tools/lvcreate.c: lvcreate — which kind of LV the options ask for (_lvcreate_params)
    static Command lvcreate(List<String> args, ParseContext ctx) {
        Map<String, String> longs = new LinkedHashMap<>();
        longs.put("snapshot", "s");
        longs.put("name", "n");
        longs.put("setactivationskip", "k");
        longs.put("ignoreactivationskip", "K");
        longs.put("activate", "a");
        longs.put("yes", "y");
        longs.put("verbose", "v");
        longs.put("quiet", "q");
        longs.put("size", "L");
        longs.put("chunksize", "c");
        longs.put("extents", "l");
        longs.put("virtualsize", "V");
        longs.put("thin", "T");
        longs.put("thinpool", "\u0001");
        longs.put("type", "\u0002");
        Getopt g = Getopt.parse("lvcreate", args, "sn:k:Ka:yvqL:l:V:Tc:i:I:r:Zt", longs, ctx);
        boolean snapshot = false;
        boolean thin = false;
        String name = "";
        String virtualSize = null;
        String thinpool = null;
        String type = null;
        String size = null;
        String chunk = null;
        for (Opt o : g.options()) {
            switch (o.name()) {
                case "s" -> snapshot = true;
                case "L" -> size = o.arg();
                case "c" -> chunk = o.arg();
                case "T" -> thin = true;
                case "n" -> name = o.arg();
                case "V" -> virtualSize = o.arg();
                case "\u0001" -> thinpool = o.arg();
                case "\u0002" -> type = o.arg();
                case "k", "K", "a", "y", "v", "q" -> {
                }
                case "l" -> throw ctx.fail("lvcreate -l (extents) is not modelled in a workload: thin volumes"
                        + " (-V SIZE -T VG/POOL), thin snapshots (-s VG/LV) and classic snapshots (-s -L SIZE VG/LV)");
                default -> throw ctx.fail("lvcreate " + (o.name().length() == 1
                        && Character.isLetter(o.name().charAt(0)) ? "-" + o.name() : "option")
                        + " is not modelled in a workload (thin volumes: lvcreate -V SIZE -T VG/POOL [-n NAME];"
                        + " thin snapshots: lvcreate -s [-n NAME] VG/LV)");
            }
        }
        if (type != null && !type.equals("thin") && !(type.equals("snapshot") && snapshot)) {
            throw ctx.fail("lvcreate --type " + type + " is not modelled in a workload (only thin volumes and"
                    + " thin snapshots)");
        }
        if (size != null && !snapshot) {
            throw ctx.fail("lvcreate -L without -s makes a linear, striped or pool LV: in a workload only thin volumes"
                    + " (-V SIZE -T VG/POOL), thin snapshots (-s VG/LV) and classic snapshots (-s -L SIZE VG/LV) are"
                    + " modelled");
        }
        if (chunk != null && size == null) {
            throw ctx.fail("lvcreate -c is modelled in a workload for classic snapshots only (-s -L SIZE -c CHUNK)");
        }
        if (snapshot && size != null) {
            return cowSnapshot(g, name, size, chunk, ctx);
        }
        if (snapshot) {
            if (virtualSize != null) {
                throw ctx.fail("lvcreate -s -V makes a sparse (COW) snapshot: only thin snapshots are modelled");
            }
            return snapshot(g, name, ctx);
        }
        if (virtualSize == null) {
            throw ctx.fail("lvcreate without -V or -s is not modelled in a workload (thin volumes: lvcreate"
                    + " -V SIZE -T VG/POOL [-n NAME]; thin snapshots: lvcreate -s [-n NAME] VG/LV)");
        }
        if (!thin && thinpool == null && !"thin".equals(type)) {
            throw ctx.fail("lvcreate -V without -T or --thinpool makes a sparse (COW) LV: only thin volumes are"
                    + " modelled");
        }
        return thinVolume(g, name, virtualSize, thinpool, ctx);
    }

    // tools/lvcreate.c: _lvcreate_name_params with _determine_snapshot_type (no size: a thin snapshot)
    private static Command snapshot(Getopt g, String name, ParseContext ctx) {
        if (g.operands().isEmpty()) {
            throw ctx.fail("Please specify a logical volume to act as the snapshot origin.");
        }
        if (g.operands().size() > 1) {
            throw ctx.fail("Too many arguments: " + String.join(" ", g.operands().subList(1, g.operands().size())));
        }
        String origin = lvPath(g.operands().get(0), "origin", ctx);
        return new Command.LvcreateSnapshot(ctx.line(), origin, lvName(name, vgOf(origin), ctx));
    }

    // tools/lvcreate.c: _lvcreate_params with a size and -s: a classic snapshot (_read_snapshot_params for -c)
    private static Command cowSnapshot(Getopt g, String name, String size, String chunk, ParseContext ctx) {
        if (g.operands().size() != 1) {
            throw ctx.fail(g.operands().isEmpty() ? "Please specify a logical volume to act as the snapshot origin."
                    : "Too many arguments: " + String.join(" ", g.operands().subList(1, g.operands().size()))
                            + " (PVs for a classic snapshot's COW store are not modelled in a workload)");
        }
        String origin = lvPath(g.operands().get(0), "origin", ctx);
        LvmSizeArg.Sized sized = LvmSizeArg.read(size, 'm');
        Bytes bytes = sized.size().orElseThrow(() -> ctx.fail("lvcreate: Invalid argument for --size: " + size
                + " (expected " + sized.expected() + ")"));
        dev.dmmodel.units.Sectors chunkSectors = dev.dmmodel.lvm.CowSnapshotRequest.DEFAULT_CHUNK;
        if (chunk != null) {
            LvmSizeArg.Sized c = LvmSizeArg.read(chunk, 'k');
            Bytes cb = c.size().orElseThrow(() -> ctx.fail("lvcreate: Invalid argument for --chunksize: " + chunk
                    + " (expected " + c.expected() + ")"));
            if (cb.count() % 512 != 0) {
                throw ctx.fail("lvcreate: Chunk size must be a power of 2 in the range 4K to 512K: " + chunk);
            }
            chunkSectors = dev.dmmodel.units.Sectors.of(cb.count() / 512);
        }
        String vg = vgOf(origin);
        try {
            return new Command.LvcreateCowSnapshot(ctx.line(), origin, new dev.dmmodel.lvm.CowSnapshotRequest(
                    origin.substring(vg.length() + 1), lvName(name, vg, ctx), bytes, chunkSectors, java.util.List.of()));
        } catch (IllegalArgumentException e) {
            throw ctx.fail("lvcreate: " + e.getMessage());
        }
    }

    // tools/lvcreate.c: _lvcreate_name_params (VG/POOL as the operand, or --thinpool POOL with VG)
    private static Command thinVolume(Getopt g, String name, String virtualSize, String thinpool, ParseContext ctx) {
        if (g.operands().size() > 1) {
            throw ctx.fail("Too many arguments: " + String.join(" ", g.operands().subList(1, g.operands().size())));
        }
        String vg;
        String pool;
        if (thinpool != null && thinpool.contains("/")) {
            String path = lvPath(thinpool, "thin pool", ctx);
            vg = vgOf(path);
            pool = path.substring(vg.length() + 1);
            if (!g.operands().isEmpty() && !g.operands().get(0).equals(vg)) {
                throw ctx.fail("Inconsistent volume group names given: \"" + g.operands().get(0) + "\" and \""
                        + vg + "\"");
            }
        } else if (thinpool != null) {
            if (g.operands().isEmpty()) {
                throw ctx.fail("Please provide a volume group name");
            }
            vg = g.operands().get(0);
            pool = thinpool;
            checkName(vg, ctx);
            checkName(pool, ctx);
        } else {
            if (g.operands().isEmpty() || !g.operands().get(0).contains("/")) {
                throw ctx.fail("Please specify the thin pool as VG/POOL (lvcreate -V SIZE -T VG/POOL) or with"
                        + " --thinpool");
            }
            String path = lvPath(g.operands().get(0), "thin pool", ctx);
            vg = vgOf(path);
            pool = path.substring(vg.length() + 1);
        }
        LvmSizeArg.Sized size = LvmSizeArg.read(virtualSize, 'm');
        Bytes bytes = size.size().orElseThrow(() -> ctx.fail("lvcreate: Invalid argument for --virtualsize: "
                + virtualSize + " (expected " + size.expected() + ")"));
        return new Command.LvcreateThin(ctx.line(), vg, pool, lvName(name, vg, ctx), bytes);
    }

    /** {@code -n NAME} or {@code -n VG/NAME}: the name, checked by LVM's rule and against the VG. */
    private static String lvName(String given, String vg, ParseContext ctx) {
        String name = given;
        if (name.contains("/")) {
            String nameVg = name.substring(0, name.lastIndexOf('/'));
            if (nameVg.startsWith("/dev/")) {
                nameVg = nameVg.substring(5);
            }
            if (!nameVg.equals(vg)) {
                throw ctx.fail("Inconsistent volume group names given: \"" + nameVg + "\" and \"" + vg + "\"");
            }
            name = name.substring(name.lastIndexOf('/') + 1);
        }
        if (!name.isEmpty() && LvmNames.invalidReason(name).isPresent()) {
            throw ctx.fail("Logical volume name \"" + name + "\" is invalid.");
        }
        return name;
    }

    private static String vgOf(String vgLv) {
        return vgLv.substring(0, vgLv.indexOf('/'));
    }

    private static void checkName(String name, ParseContext ctx) {
        LvmNames.invalidReason(name).ifPresent(reason -> {
            throw ctx.fail("'" + name + "': " + reason);
        });
    }

    /** {@code vg/lv}, {@code /dev/vg/lv} or {@code /dev/mapper/vg-lv} to {@code vg/lv}. */
    static String lvPath(String arg, String what, ParseContext ctx) {
        String a = arg;
        if (a.startsWith("/dev/mapper/")) {
            java.util.List<String> vgLv = dev.dmmodel.lvm.LogicalVolume.splitDmName(a.substring("/dev/mapper/".length()))
                    .orElseThrow(() -> ctx.fail(what + " '" + arg + "' is not a logical volume's dm name (VG-LV)"));
            return vgLv.get(0) + "/" + vgLv.get(1);
        }
        if (a.startsWith("/dev/")) {
            a = a.substring(5);
        }
        int slash = a.indexOf('/');
        if (slash <= 0 || slash != a.lastIndexOf('/') || slash == a.length() - 1) {
            throw ctx.fail(what + " '" + arg + "' must be given as VG/LV");
        }
        if (LvmNames.invalidReason(a.substring(0, slash)).isPresent()
                || LvmNames.invalidReason(a.substring(slash + 1)).isPresent()) {
            throw ctx.fail(what + " '" + arg + "' is not a valid VG/LV name");
        }
        return a;
    }
}
