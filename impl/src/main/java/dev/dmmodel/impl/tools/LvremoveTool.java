package dev.dmmodel.impl.tools;

import dev.dmmodel.impl.tools.Getopt.Opt;
import dev.dmmodel.workload.Command;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** LVM2's {@code lvremove} as a workload line. */
final class LvremoveTool {

    private LvremoveTool() {
    }

    // tools/lvremove.c with tools/command-lines.in: lvremove VG|LV|Tag|Select ...
    static Command lvremove(List<String> args, ParseContext ctx) {
        Map<String, String> longs = new LinkedHashMap<>();
        longs.put("yes", "y");
        longs.put("force", "f");
        longs.put("verbose", "v");
        longs.put("quiet", "q");
        longs.put("autobackup", "A");
        longs.put("noudevsync", "\u0001");
        Getopt g = Getopt.parse("lvremove", args, "yfvqA:", longs, ctx);
        boolean yes = false;
        for (Opt o : g.options()) {
            switch (o.name()) {
                case "y", "f" -> yes = true;
                default -> {
                }
            }
        }
        if (g.operands().isEmpty()) {
            throw ctx.fail("Please enter one or more logical volume paths.");
        }
        List<String> lvs = new ArrayList<>();
        for (String operand : g.operands()) {
            if (!operand.contains("/") && !operand.startsWith("@")) {
                throw ctx.fail("lvremove " + operand + " removes every LV of the volume group: name each LV as"
                        + " VG/LV");
            }
            lvs.add(LvcreateTool.lvPath(operand, "logical volume", ctx));
        }
        return new Command.Lvremove(ctx.line(), lvs, yes);
    }
}
