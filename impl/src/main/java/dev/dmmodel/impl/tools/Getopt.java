package dev.dmmodel.impl.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** getopt_long, GNU style: options and operands may mix; {@code --} ends options. */
record Getopt(List<Getopt.Opt> options, List<String> operands) {

    /** One option as given: its short name (or the code a long-only option stands for) and its argument. */
    record Opt(String name, String arg) {
    }

    /**
     * @param shortSpec getopt's optstring ("o:" takes an argument)
     * @param longs long option name to the short option it stands for
     */
    static Getopt parse(String tool, List<String> args, String shortSpec, Map<String, String> longs, ParseContext ctx) {
        List<Opt> opts = new ArrayList<>();
        List<String> operands = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--")) {
                operands.addAll(args.subList(i + 1, args.size()));
                break;
            }
            if (a.startsWith("--")) {
                int eq = a.indexOf('=');
                String lname = eq < 0 ? a.substring(2) : a.substring(2, eq);
                String key = longs.containsKey(lname) ? lname : null;
                if (key == null) {
                    List<String> matches = longs.keySet().stream().filter(k -> k.startsWith(lname)).toList();
                    if (matches.size() == 1 && !lname.isEmpty()) {
                        key = matches.get(0);
                    }
                }
                if (key == null) {
                    throw ctx.fail(tool + ": unrecognized option '" + (eq < 0 ? a : a.substring(0, eq)) + "'");
                }
                String shortName = longs.get(key);
                boolean takesArg = shortSpec.contains(shortName + ":")
                        || shortName.charAt(0) < ' ';
                String arg = null;
                if (takesArg) {
                    if (eq >= 0) {
                        arg = a.substring(eq + 1);
                    } else if (i + 1 < args.size()) {
                        arg = args.get(++i);
                    } else {
                        throw ctx.fail(tool + ": option '--" + key + "' requires an argument");
                    }
                } else if (eq >= 0) {
                    throw ctx.fail(tool + ": option '--" + key + "' doesn't allow an argument");
                }
                opts.add(new Opt(shortName, arg));
                continue;
            }
            if (a.startsWith("-") && a.length() > 1) {
                for (int j = 1; j < a.length(); j++) {
                    char c = a.charAt(j);
                    int at = shortSpec.indexOf(c);
                    if (at < 0 || c == ':') {
                        throw ctx.fail(tool + ": invalid option -- '" + c + "'");
                    }
                    boolean takesArg = at + 1 < shortSpec.length() && shortSpec.charAt(at + 1) == ':';
                    if (!takesArg) {
                        opts.add(new Opt(String.valueOf(c), null));
                        continue;
                    }
                    String arg;
                    if (j + 1 < a.length()) {
                        arg = a.substring(j + 1);
                    } else if (i + 1 < args.size()) {
                        arg = args.get(++i);
                    } else {
                        throw ctx.fail(tool + ": option requires an argument -- '" + c + "'");
                    }
                    opts.add(new Opt(String.valueOf(c), arg));
                    break;
                }
                continue;
            }
            operands.add(a);
        }
        return new Getopt(opts, operands);
    }
}
