package dev.dmmodel.cli;

import dev.dmmodel.io.DmTables;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.io.LayoutFiles;
import dev.dmmodel.io.LvmCommands;
import dev.dmmodel.io.LvmMetadata;
import dev.dmmodel.io.LvmScript;
import dev.dmmodel.lvm.VolumeGroup;
import java.util.ArrayList;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dmmodel export}: the stack in another tool's format. */
@Command(name = "export",
        header = "The stack in another tool's format (dmsetup table, LVM commands, LVM text metadata) or as a"
            + " layout file.",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
            "Writes the stack in another tool's format:",
            "  dm-tables     dmsetup table, byte for byte (every dm device by name, devices",
            "                as major:minor; 'No devices found' without dm devices)",
            "  lvm-commands  a shell script of pvcreate, vgcreate, lvcreate, lvextend and",
            "                lvconvert commands that recreate every VG on blank devices with",
            "                the same extent placement (explicit PV:first-last ranges); what",
            "                they cannot express is a '# not expressible:' line, a warning",
            "                on stderr and exit status 1",
            "  lvm-metadata  each volume group as vgcfgbackup writes it; with several VGs,",
            "                a line '# --- vg NAME' before each. Ids, seqno, times and host",
            "                are not in the model: they are made up, the same on every run",
            "                (ids from names, seqno 1, time 0, host dmmodel)",
            "  layout        the stack as a layout file (docs/layout-format.md) to edit and",
            "                read back with --layout: a snapshot's disks with their recorded",
            "                limits and numbers, partitions, dm tables and VGs (as vgcfgbackup",
            "                text); the kernel is the one applied"},
        footerHeading = "%nExample:%n",
        footer = {
            "  dmmodel export --snapshot kernel-traces/ss-str-1M-at32k/snapshot \\",
            "      --to dm-tables",
            "  vg-span: 0 16384 linear 8:0 165888",
            "  vg-span: 16384 16384 linear 8:16 247808",
            "  vg-striped: 0 131072 striped 2 128 8:0 2048 8:16 2048"})
final class ExportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StackOptions stack;

    @Option(names = "--to", paramLabel = "TARGET", required = true,
            description = "dm-tables, lvm-commands, lvm-metadata or layout.")
    String target;

    @Override
    public Integer call() {
        String to = CliException.choice("--to", target, "dm-tables", "lvm-commands", "lvm-metadata", "layout");
        StackOptions.Stack s = stack.load();
        s.printNotes(spec.commandLine().getErr());
        if (s.reportPlanFailure(spec.commandLine().getErr())) {
            return Main.FAILED;
        }
        PrintWriter out = spec.commandLine().getOut();
        if (to.equals("dm-tables")) {
            out.print(DmTables.write(s.layout()));
        } else if (to.equals("layout")) {
            out.print(LayoutFiles.write(s.spec()));
        } else if (to.equals("lvm-commands")) {
            if (s.layout().volumeGroups().isEmpty() && s.layout().physicalVolumes().isEmpty()
                    && lvmProblems(s).isEmpty()) {
                throw new CliException(s.snapshot().isPresent() ? "the snapshot has no LVM volume group (no lvm/*.vg)"
                        : "the layout file has no LVM volume group (no vgcreate or import_vg step)");
            }
            LvmScript r = LvmCommands.write(s.layout());
            // what the snapshot holds but the layout could not take is not in the script: said, not dropped
            List<String> warnings = new ArrayList<>(r.notExpressible());
            out.print(r.script());
            for (String problem : lvmProblems(s)) {
                out.print(LvmScript.NOT_EXPRESSIBLE + problem + "\n");
                warnings.add(problem);
            }
            out.flush();
            PrintWriter err = spec.commandLine().getErr();
            for (String w : warnings) {
                err.println("dmmodel: warning: not expressible: " + w);
            }
            err.flush();
            return warnings.isEmpty() ? Main.OK : Main.FAILED;
        } else {
            List<VolumeGroup> vgs = s.layout().volumeGroups();
            if (vgs.isEmpty()) {
                throw new CliException(s.snapshot().isPresent() ? "the snapshot has no LVM volume group (no lvm/*.vg)"
                        : "the layout file has no LVM volume group (no vgcreate or import_vg step)");
            }
            for (VolumeGroup vg : vgs) {
                if (vgs.size() > 1) {
                    out.print("# --- vg " + vg.name() + "\n");
                }
                out.print(LvmMetadata.write(vg));
            }
        }
        out.flush();
        return Main.OK;
    }

    /** What the snapshot holds but the model could not take (none for a layout file). */
    private static List<String> lvmProblems(StackOptions.Stack s) {
        return s.snapshot().map(HostSnapshot::lvmProblems).orElse(List.of());
    }
}
