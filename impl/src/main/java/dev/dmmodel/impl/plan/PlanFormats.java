package dev.dmmodel.impl.plan;

import dev.dmmodel.impl.plan.ansible.AnsiblePlanReader;
import dev.dmmodel.impl.plan.curtin.CurtinPlanReader;
import dev.dmmodel.impl.plan.kickstart.KickstartPlanReader;
import dev.dmmodel.impl.plan.shell.ShellPlanReader;
import dev.dmmodel.plan.PlanException;
import dev.dmmodel.plan.PlanFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/** Recognises a plan's format and finds its reader. */
public final class PlanFormats {

    private static final Pattern KICKSTART = Pattern.compile(
            "(?m)^\\s*(clearpart|zerombr|ignoredisk|part|partition|volgroup|logvol|autopart|reqpart|bootloader|raid"
                    + "|%packages|%pre|%post)(\\s|$)");
    // block style (- type: disk) or flow style ({type: disk, id: ...}), as subiquity writes it
    private static final Pattern CURTIN = Pattern.compile(
            "(?m)(^\\s*(-\\s+)?|[{,]\\s*)type:\\s*['\"]?(disk|partition|lvm_volgroup|lvm_partition|format|mount|raid"
                    + "|dm_crypt)['\"]?\\s*($|[,}])");
    private static final Pattern ANSIBLE = Pattern.compile(
            "(?m)^\\s*(-\\s+)?(community\\.general\\.)?(parted|lvg|lvol|filesystem|lvg_rename)\\s*:");
    private static final Pattern ANSIBLE_PLAY = Pattern.compile("(?m)^\\s*(-\\s+)?(hosts|tasks)\\s*:");

    private PlanFormats() {
    }

    /** The reader of a format. */
    public static PlanReader reader(PlanFormat format) {
        return switch (format) {
            case SHELL -> new ShellPlanReader();
            case KICKSTART -> new KickstartPlanReader();
            case CURTIN -> new CurtinPlanReader();
            case ANSIBLE -> new AnsiblePlanReader();
        };
    }

    /**
     * The format of a plan: by its name's extension where that decides it ({@code .sh}/{@code .bash} shell,
     * {@code .ks} kickstart), then by content (a {@code #!} line is a shell script; kickstart's storage commands;
     * YAML with curtin's entry types; YAML naming the Ansible modules or a play's {@code hosts:}/{@code tasks:};
     * otherwise a shell script whose first command is one of the tools a plan runs).
     *
     * @throws PlanException naming the source when nothing fits
     */
    public static PlanFormat detect(String text, String source) {
        String name = source.toLowerCase(Locale.ROOT);
        if (name.endsWith(".sh") || name.endsWith(".bash")) {
            return PlanFormat.SHELL;
        }
        if (name.endsWith(".ks")) {
            return PlanFormat.KICKSTART;
        }
        String body = text.startsWith("\uFEFF") ? text.substring(1) : text;
        if (body.startsWith("#!")) {
            return PlanFormat.SHELL;
        }
        boolean yamlName = name.endsWith(".yaml") || name.endsWith(".yml");
        if (CURTIN.matcher(body).find() && !ANSIBLE.matcher(body).find()) {
            return PlanFormat.CURTIN;
        }
        if (ANSIBLE.matcher(body).find() || (yamlName && ANSIBLE_PLAY.matcher(body).find())) {
            return PlanFormat.ANSIBLE;
        }
        if (!yamlName && KICKSTART.matcher(body).find()) {
            return PlanFormat.KICKSTART;
        }
        if (!yamlName && ShellPlanReader.looksLikeShell(body)) {
            return PlanFormat.SHELL;
        }
        throw new PlanException(source, 0, 0, "not a plan dmmodel recognises: expected a shell script (a #! line or "
                + "sfdisk/parted/pvcreate/... commands), a kickstart file (part, volgroup, logvol ...), a curtin "
                + "storage config (entries with type: disk, partition, lvm_volgroup ...) or an Ansible play "
                + "(community.general.parted, lvg, lvol, filesystem tasks); name the format with --plan-format");
    }
}
