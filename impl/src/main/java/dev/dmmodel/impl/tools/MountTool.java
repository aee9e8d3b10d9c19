package dev.dmmodel.impl.tools;

import dev.dmmodel.impl.tools.Getopt.Opt;
import dev.dmmodel.workload.Command;
import java.util.List;
import java.util.Map;

/** util-linux {@code mount} and {@code umount}. */
final class MountTool {

    private MountTool() {
    }

    // --- mount / umount ----------------------------------------------------------------------------

    static Command mount(List<String> args, ParseContext ctx) {
        Getopt g = Getopt.parse("mount", args, "aBcfFhilL:Mno:O:rRsU:vVwt:N:",
                Map.of("types", "t", "options", "o", "read-only", "r", "rw", "w", "read-write", "w",
                        "verbose", "v", "no-mtab", "n"), ctx);
        String type = "";
        for (Opt o : g.options()) {
            switch (o.name()) {
                case "t": type = o.arg(); break;
                case "o": case "v": case "w": case "r": case "n": case "s": case "i": case "c": break;
                case "f": throw ctx.fail("mount -f (fake) mounts nothing: nothing to model");
                default: throw ctx.fail("mount -" + o.name() + " is not modelled");
            }
        }
        if (g.operands().size() < 2) {
            throw ctx.fail(g.operands().isEmpty() ? "mount without a device and a directory lists mounts:"
                    + " nothing to model" : "mount with one argument (looked up in fstab) is not modelled:"
                    + " give the device and the directory");
        }
        if (g.operands().size() > 2) {
            throw ctx.fail("mount: bad usage");
        }
        return new Command.Mount(ctx.line(), type, g.operands().get(0), g.operands().get(1));
    }

    static Command umount(List<String> args, ParseContext ctx) {
        Getopt g = Getopt.parse("umount", args, "aAcdfhilnRrt:O:vVqN:",
                Map.of("lazy", "l", "force", "f", "verbose", "v", "no-mtab", "n"), ctx);
        for (Opt o : g.options()) {
            if (!"lfvndcq".contains(o.name())) {
                throw ctx.fail("umount -" + o.name() + " is not modelled");
            }
        }
        if (g.operands().size() != 1) {
            throw ctx.fail("umount: bad usage");
        }
        return new Command.Umount(ctx.line(), g.operands().get(0));
    }

}
