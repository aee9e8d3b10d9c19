package dev.dmmodel.plan;

import dev.dmmodel.io.FormatException;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.spi.ModelProviders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A provisioning plan read from the file an engineer will really run — a shell script, a kickstart file, a
 * curtin/autoinstall {@code storage:} config or an Ansible play ({@link PlanFormat}) — ready to be dry-run on a
 * host:
 *
 * <pre>{@code
 * Plan plan = Plan.read(Path.of("provision.sh"));
 * PlanResult result = plan.applyTo(HostSnapshot.read(Path.of("host")).toLayoutSpec());
 * result.entries();   // "pvcreate /dev/sda1: pe_start 2048s, ..." one per line
 * result.failure();   // provision.sh:7: lvcreate: Volume group "vg0" has insufficient free space ...
 * result.findings();  // what hurts in the stack it builds
 * }</pre>
 *
 * Reading checks the whole plan (every line is one of the format's documented forms); applying runs each command
 * as its tool would on the host, with the host's sizes and I/O limits. A plan is immutable and can be applied to
 * many hosts.
 */
public final class Plan {

    private final String text;
    private final String source;
    private final PlanFormat format;
    private final List<PlanCommand> commands;

    private Plan(String text, String source, PlanFormat format, List<PlanCommand> commands) {
        this.text = text;
        this.source = source;
        this.format = format;
        this.commands = List.copyOf(commands);
    }

    /**
     * Reads a plan file, recognising its format by name and content ({@link PlanFormat#detect}).
     *
     * @throws PlanException for a plan that cannot be read, naming file, line and column
     * @throws FormatException if the file cannot be read at all (it names the file)
     */
    public static Plan read(Path file) {
        Objects.requireNonNull(file, "file");
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new PlanException(file.toString(), 0, 0, "cannot read the plan file (" + e.getMessage() + ")");
        }
        return parse(text, file.getFileName() == null ? file.toString() : file.getFileName().toString());
    }

    /**
     * Parses a plan, recognising its format by {@code sourceName} and content.
     *
     * @param text the plan
     * @param sourceName its file name, for messages and format detection ({@code provision.sh}, {@code ks.cfg})
     * @throws PlanException for a plan that cannot be read, naming source, line and column
     */
    public static Plan parse(String text, String sourceName) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(sourceName, "sourceName");
        return parse(text, sourceName, PlanFormat.detect(text, sourceName));
    }

    /**
     * Parses a plan in the given format.
     *
     * @throws PlanException for a plan that cannot be read, naming source, line and column
     */
    public static Plan parse(String text, String sourceName, PlanFormat format) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(sourceName, "sourceName");
        Objects.requireNonNull(format, "format");
        return new Plan(text, sourceName, format, ModelProviders.formats().parsePlan(text, sourceName, format));
    }

    /** The plan's text as read. */
    public String text() {
        return text;
    }

    /** The plan's file name, as messages name it. */
    public String source() {
        return source;
    }

    /** Its format. */
    public PlanFormat format() {
        return format;
    }

    /** Its commands, in order. */
    public List<PlanCommand> commands() {
        return commands;
    }

    /**
     * Applies the plan to a host described by its steps (a snapshot's {@code toLayoutSpec()}, a layout file, a
     * builder's steps, a blank host of disks).
     *
     * @return the resulting layout, one entry per command and the first failure, if any
     * @throws dev.dmmodel.layout.LayoutException if {@code host} itself cannot be built
     */
    public PlanResult applyTo(LayoutSpec host) {
        Objects.requireNonNull(host, "host");
        return ModelProviders.formats().applyPlan(this, host);
    }

    /**
     * Applies the plan to a layout that knows its steps ({@link Layout#spec()}: every layout from a builder, a
     * spec or a reader), e.g. another plan's result.
     *
     * @throws IllegalArgumentException if the layout was assembled from devices and has no steps
     */
    public PlanResult applyTo(Layout host) {
        Objects.requireNonNull(host, "host");
        return applyTo(host.spec().orElseThrow(() -> new IllegalArgumentException(
                "a plan applies to a layout built from steps (a builder, Layout.of(spec), a reader); this one was "
                        + "assembled from its devices")));
    }

    @Override
    public String toString() {
        return "Plan[" + source + ", " + format.displayName() + ", " + commands.size() + " commands]";
    }
}
