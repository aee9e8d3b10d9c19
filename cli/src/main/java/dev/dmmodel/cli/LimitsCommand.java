package dev.dmmodel.cli;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.internal.json.JsonWriter;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.limits.Derivation;
import dev.dmmodel.limits.LimitField;
import java.io.PrintWriter;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dmmodel limits}: every device's queue limits as sysfs would show them. */
@Command(name = "limits",
        header = "Every device's queue limits by sysfs name, computed for partitions and dm devices.",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Prints every device's effective queue limits by sysfs name (numbers as sysfs shows them):"
                + " every disk from its recorded hardware limits, every partition and dm device as the kernel"
                + " computes it (their recorded values are never read).",
        footerHeading = "%nExample:%n",
        footer = {
            "  dmmodel limits --snapshot kernel-traces/limits-sd-512e/snapshot --kernel 6.1",
            "  {\"devices\": {",
            "    \"sdg\": {\"alignment_offset\": 0, \"logical_block_size\": 512, ...},",
            "    \"sdg1\": {\"alignment_offset\": 512, ...},",
            "    ...",
            "    \"dm-2\": {\"alignment_offset\": -1, ...}",
            "  }}",
            "",
            "  dmmodel limits --layout examples/hosts/seed-004-thin.yaml \\",
            "      --explain dm-1:max_sectors_kb --format text",
            "  dm-1 max_sectors_kb 512  min_not_zero over its table (line 1 thin ...",
            "    dm-0 max_sectors_kb 512  min_not_zero over its table (line 1 ...",
            "      sdg max_sectors_kb 512  sd: min(max_hw_sectors 65535, BLK_DEF_ ..."})
final class LimitsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StackOptions stack;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "json",
            description = "json (default) or text.")
    String format;

    @Option(names = "--explain", paramLabel = "DEVICE[:FIELD]",
            description = "Explain how the kernel arrives at a device's limits instead of listing them: for each field"
                    + " (or just FIELD, a sysfs name such as max_sectors_kb) the rule that set it, its inputs and"
                    + " theirs down to the hardware values, profile defaults and sysfs writes. DEVICE is any"
                    + " reference (dm-1, /dev/vg0/lv, vg0/lv, /dev/mapper/thin, 253:1).")
    String explain;

    @Override
    public Integer call() {
        String f = CliException.choice("--format", format, "json", "text");
        StackOptions.Stack s = stack.load();
        s.printNotes(spec.commandLine().getErr());
        if (s.reportPlanFailure(spec.commandLine().getErr())) {
            return Main.FAILED;
        }
        String text = explain != null ? explain(s, explain, f) : f.equals("json") ? json(s) : text(s);
        PrintWriter out = spec.commandLine().getOut();
        out.print(text);
        out.flush();
        return Main.OK;
    }

    /** {@code --explain DEVICE[:FIELD]}: the derivations, as trees (text) or nested objects (json). */
    static String explain(StackOptions.Stack s, String what, String format) {
        String device = what.strip();
        java.util.Optional<LimitField> field = java.util.Optional.empty();
        int colon = device.lastIndexOf(':');
        if (colon > 0) {
            try {
                field = java.util.Optional.of(LimitField.of(device.substring(colon + 1)));
                device = device.substring(0, colon);
            } catch (IllegalArgumentException e) {
                if (s.layout().find(device).isEmpty()) {
                    throw new CliException("--explain " + what + ": " + e.getMessage());
                }
            }
        }
        if (s.layout().find(device).isEmpty()) {
            throw new CliException("--explain " + what + ": no device '" + device + "' in this stack (known: "
                    + String.join(", ", s.layout().devices().stream().map(BlockDevice::name).toList()) + ")");
        }
        List<Derivation> ds = field.isPresent() ? List.of(s.layout().explain(device, field.get()))
                : s.layout().explain(device);
        StringBuilder sb = new StringBuilder();
        if (format.equals("text")) {
            sb.append("# kernel ").append(s.profile().name()).append(" (").append(s.profileSource())
                    .append("); each line: device field value, the step, [the kernel function]\n");
            for (Derivation d : ds) {
                sb.append('\n').append(d.tree());
            }
            return sb.toString();
        }
        sb.append("{\"kernel\": ").append(JsonWriter.string(s.profile().name())).append(", \"explanations\": [");
        String sep = "\n  ";
        for (Derivation d : ds) {
            sb.append(sep);
            json(sb, d);
            sep = ",\n  ";
        }
        return sb.append("\n]}\n").toString();
    }

    /** One derivation as a JSON object with its inputs nested. */
    static void json(StringBuilder sb, Derivation d) {
        sb.append("{\"device\": ").append(JsonWriter.string(d.device()))
                .append(", \"field\": ").append(JsonWriter.string(d.field().sysfsName()))
                .append(", \"value\": ").append(d.value())
                .append(", \"source\": ").append(JsonWriter.string(d.source().name().toLowerCase(java.util.Locale.ROOT)))
                .append(", \"rule\": ").append(JsonWriter.string(d.rule()))
                .append(", \"detail\": ").append(JsonWriter.string(d.detail()))
                .append(", \"inputs\": [");
        String sep = "";
        for (Derivation in : d.inputs()) {
            sb.append(sep);
            json(sb, in);
            sep = ", ";
        }
        sb.append("]}");
    }

    /** The sysfs values with {@code alignment_offset} first, then the others in sysfs order. */
    static Map<String, Long> attributes(BlockDevice d) {
        Map<String, Long> sysfs = HostSnapshot.sysfsAttributes(d.limits());
        Map<String, Long> out = new LinkedHashMap<>();
        out.put("alignment_offset", sysfs.get("alignment_offset"));
        out.putAll(sysfs);
        return out;
    }

    private static String json(StackOptions.Stack s) {
        StringBuilder sb = new StringBuilder("{\"devices\": {");
        String sep = "\n";
        for (BlockDevice d : s.layout().devices()) {
            sb.append(sep).append("  ").append(JsonWriter.string(d.name())).append(": {");
            String inner = "";
            for (Map.Entry<String, Long> e : attributes(d).entrySet()) {
                sb.append(inner).append(JsonWriter.string(e.getKey())).append(": ").append(e.getValue());
                inner = ", ";
            }
            sb.append('}');
            sep = ",\n";
        }
        return sb.append("\n}}\n").toString();
    }

    private static String text(StackOptions.Stack s) {
        StringBuilder sb = new StringBuilder();
        sb.append("# kernel ").append(s.profile().name()).append(" (").append(s.profileSource())
                .append("); partitions and dm devices computed\n");
        for (BlockDevice d : s.layout().devices()) {
            sb.append('\n').append(describe(d)).append('\n');
            for (Map.Entry<String, Long> e : attributes(d).entrySet()) {
                sb.append(String.format("  %-24s %d", e.getKey(), e.getValue()));
                if (e.getKey().equals("alignment_offset") && e.getValue() == -1) {
                    sb.append("  (misaligned)");
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    /** {@code sdg1 (partition of sdg, 8:97, start 63, 131009 sectors)} and the like. */
    static String describe(BlockDevice d) {
        if (d instanceof Disk disk) {
            return d.name() + " (disk, " + d.devNumber() + ", " + disk.size().count() + " sectors)";
        }
        if (d instanceof Partition p) {
            return d.name() + " (partition " + p.number() + " of " + p.disk() + ", " + d.devNumber() + ", start "
                    + p.start().count() + ", " + p.size().count() + " sectors)";
        }
        if (d instanceof dev.dmmodel.device.MdDevice md) {
            return d.name() + " (md " + md.spec().level().sysfsName() + ", " + d.devNumber() + ", " + d.size().count()
                    + " sectors)";
        }
        DmDevice dm = (DmDevice) d;
        return d.name() + " (dm " + dm.dmName() + ", " + d.devNumber() + ", " + d.size().count() + " sectors)";
    }
}
