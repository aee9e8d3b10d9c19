package dev.dmmodel.impl.tools;

import dev.dmmodel.workload.Command;
import java.util.ArrayList;
import java.util.List;

/** {@code dmsetup message|suspend|resume} (libdm's dmsetup). */
final class DmsetupTool {

    private DmsetupTool() {
    }

    // --- dmsetup -----------------------------------------------------------------------------------

    static Command dmsetup(List<String> args, ParseContext ctx) {
        if (args.isEmpty()) {
            throw ctx.fail("dmsetup without a command is not modelled");
        }
        if (args.get(0).startsWith("-")) {
            throw ctx.fail("dmsetup option " + args.get(0) + " is not modelled");
        }
        String sub = args.get(0);
        List<String> rest = args.subList(1, args.size());
        switch (sub) {
            case "message": {
                if (rest.size() < 2) {
                    throw ctx.fail("Incorrect number of arguments");
                }
                String sectorText = rest.get(1);
                if (!sectorText.matches("[0-9]{1,18}")) {
                    throw ctx.fail("Invalid sector.");
                }
                List<String> words = new ArrayList<>();
                for (String a : rest.subList(2, rest.size())) {
                    for (String w : a.strip().split("\\s+")) {
                        if (!w.isEmpty()) {
                            words.add(w);
                        }
                    }
                }
                if (words.isEmpty()) {
                    throw ctx.fail("No message supplied.");
                }
                return new Command.DmsetupMessage(ctx.line(), rest.get(0), Long.parseLong(sectorText), words);
            }
            case "suspend":
            case "resume": {
                List<String> devices = new ArrayList<>();
                for (String a : rest) {
                    if (a.equals("--nolockfs") || a.equals("--noudevsync") || a.equals("--noudevrules")) {
                        continue;
                    }
                    if (a.startsWith("-")) {
                        throw ctx.fail("dmsetup " + sub + " " + a + " is not modelled");
                    }
                    devices.add(a);
                }
                if (devices.size() != 1) {
                    throw ctx.fail(devices.isEmpty() ? "Incorrect number of arguments"
                            : "dmsetup " + sub + " of several devices in one line is not modelled");
                }
                return new Command.DmsetupSuspendResume(ctx.line(), devices.get(0), sub.equals("suspend"));
            }
            default:
                throw ctx.fail("dmsetup " + sub + " is not modelled (only message, suspend and resume)");
        }
    }

}
