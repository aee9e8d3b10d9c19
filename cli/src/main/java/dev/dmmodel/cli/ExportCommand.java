package dev.dmmodel.cli;

import dev.dmmodel.impl.layoutfile.LayoutFileWriter;
import dev.dmmodel.impl.lvmtext.VgMetadataWriter;
import dev.dmmodel.lvm.VolumeGroup;
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
        header = "The stack in another tool's format (dmsetup table, LVM text metadata) or as a layout file.",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {
            "Writes the stack in another tool's format:",
            "  dm-tables     dmsetup table (every dm device by name, devices as major:minor)",
            "  lvm-commands  not available yet",
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
        if (to.equals("lvm-commands")) {
            throw CliException.notAvailableYet("--to " + to);
        }
        StackOptions.Stack s = stack.load();
        PrintWriter out = spec.commandLine().getOut();
        if (to.equals("dm-tables")) {
            out.print(s.layout().dmsetupTable());
        } else if (to.equals("layout")) {
            out.print(LayoutFileWriter.write(s.spec()));
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
                out.print(VgMetadataWriter.write(vg));
            }
        }
        out.flush();
        return Main.OK;
    }
}
