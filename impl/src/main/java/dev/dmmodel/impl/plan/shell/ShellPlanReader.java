package dev.dmmodel.impl.plan.shell;

import dev.dmmodel.impl.parted.PartedCommand;
import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanOpFailure;
import dev.dmmodel.impl.plan.PlanReader;
import dev.dmmodel.impl.plan.PlanState;
import dev.dmmodel.impl.sfdisk.SfdiskCommand;
import dev.dmmodel.impl.sgdisk.SgdiskCommand;
import dev.dmmodel.layout.LayoutException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads a shell provisioning script: {@link ShellLexer} makes its simple commands, and each goes to the reader of
 * its tool. Commands that do not change the block stack ({@code udevadm settle}, {@code partprobe}, {@code sync},
 * {@code mkdir}, ...) are accepted and say so; any other command is an error naming it, since a dry run cannot
 * know what it would do.
 */
public final class ShellPlanReader implements PlanReader {

    /** Commands a provisioning script runs between the storage tools that do not change the block stack. */
    static final Set<String> NO_EFFECT = Set.of("udevadm", "partprobe", "partx", "sync", "sleep", "echo", "printf",
            "mkdir", "true", ":", "set", "blkid", "lsblk", "pvs", "vgs", "lvs", "pvscan", "vgscan", "lvscan",
            "pvdisplay", "vgdisplay", "lvdisplay", "modprobe", "systemctl", "chmod", "chown", "cat", "ls",
            "swapon", "mkswap", "df", "findmnt", "shopt", "trap", "umask", "cd", "logger", "wait");

    private static final Map<String, Function<ShellCommand, PlanOp>> TOOLS = new LinkedHashMap<>();

    static {
        TOOLS.put("sfdisk", SfdiskCommand::parse);
        TOOLS.put("sgdisk", SgdiskCommand::parse);
        TOOLS.put("parted", PartedCommand::parse);
        for (String lvm : List.of("pvcreate", "vgcreate", "vgextend", "lvcreate", "lvextend", "lvconvert")) {
            TOOLS.put(lvm, ShellTools::lvm);
        }
        TOOLS.put("wipefs", ShellTools::wipefs);
        for (String mkfs : List.of("mkfs", "mkfs.xfs", "mkfs.ext4", "mkfs.ext3", "mkfs.ext2")) {
            TOOLS.put(mkfs, ShellTools::mkfs);
        }
        TOOLS.put("mount", ShellTools::mount);
        TOOLS.put("dmsetup", ShellTools::dmsetup);
        TOOLS.put("mdadm", ShellTools::mdadm);
        TOOLS.put("cryptsetup", dev.dmmodel.impl.cryptsetup.CryptsetupCommand::parse);
        TOOLS.put("blockdev", ShellTools::blockdev);
        TOOLS.put("vgchange", ShellTools::vgchange);
    }

    private static final Pattern FIRST_WORD = Pattern.compile("^\\s*(?:sudo\\s+)?([A-Za-z0-9_./:-]+)");

    /**
     * Whether a text reads as a provisioning script: its first command (after comments, blank lines and
     * assignments) is one of the tools a plan runs or {@code set}.
     */
    public static boolean looksLikeShell(String text) {
        for (String line : text.split("\n", -1)) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#") || l.matches("(export\\s+)?[A-Za-z_][A-Za-z0-9_]*=.*")) {
                continue;
            }
            java.util.regex.Matcher m = FIRST_WORD.matcher(l);
            if (!m.find()) {
                return false;
            }
            String name = m.group(1).substring(m.group(1).lastIndexOf('/') + 1);
            return TOOLS.containsKey(name) || name.equals("set") || name.equals("lvm");
        }
        return false;
    }

    @Override
    public List<PlanOp> read(String text, String source) {
        List<PlanOp> ops = new ArrayList<>();
        for (ShellLexer.Parsed p : ShellLexer.read(text, source)) {
            PlanOp op = command(p.command());
            ops.add(p.failureIgnored() ? new FailureIgnored(op) : op);
        }
        return List.copyOf(ops);
    }

    /**
     * Reads one command: the shell's own, or one another format makes for what its entry does (curtin's
     * {@code lvm_partition} runs {@code lvcreate}, Ansible's {@code lvol} runs {@code lvcreate}), with that
     * entry's origin.
     *
     * @throws dev.dmmodel.plan.PlanException naming the word and what was expected
     */
    public static PlanOp command(ShellCommand c) {
        if (c.name().equals("lvm") && c.words().size() > 1) {
            c = new ShellCommand(c.origin(), c.words().subList(1, c.words().size()), c.stdin(), c.stdinLine());
        }
        Function<ShellCommand, PlanOp> tool = TOOLS.get(c.name());
        if (tool != null) {
            return tool.apply(c);
        }
        if (NO_EFFECT.contains(c.name())) {
            if (c.name().equals("set")) {
                for (Word w : c.args()) {
                    if (!w.text().matches("[-+][euxvo]+|errexit|nounset|pipefail|xtrace|verbose")) {
                        throw c.expected(w, "option", "a shell option such as -e, -x, -u or -o pipefail");
                    }
                }
            }
            return new NoEffect(c.origin(), c.name());
        }
        Set<String> known = new TreeSet<>(TOOLS.keySet());
        throw c.error("command \"" + c.words().get(0).text() + "\": expected one of the storage tools a plan runs ("
                + String.join(", ", known) + ") or a command without effect on the block stack (udevadm, partprobe, "
                + "sync, mkdir, echo, ...)");
    }

    /** A command that does not change the block stack. */
    private record NoEffect(Origin origin, String tool) implements PlanOp {
        @Override
        public List<String> apply(PlanState state) {
            return List.of();
        }
    }

    /** {@code COMMAND || true}: a failure is reported and the script goes on. */
    private record FailureIgnored(PlanOp op) implements PlanOp {
        @Override
        public Origin origin() {
            return op.origin();
        }

        @Override
        public String tool() {
            return op.tool();
        }

        @Override
        public List<String> apply(PlanState state) {
            try {
                return op.apply(state);
            } catch (PlanOpFailure | LayoutException e) {
                return List.of("fails (" + e.getMessage() + "); ignored by || true");
            }
        }
    }
}
