package dev.dmmodel.limits;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * How one queue limit of one device got its value: the rule that set it (the kernel function), what it
 * started from, and the derivations of its inputs, down to the hardware values, the profile's defaults and the
 * sysfs writes. A small immutable tree; {@link #tree()} prints it for a person, {@link #summary()} on one line.
 *
 * <pre>{@code
 * Derivation d = layout.explain("/dev/vg0/thin", LimitField.MAX_SECTORS_KB);
 * d.value();   // 512
 * d.tree();    // dm-1 max_sectors_kb 512 = min_not_zero over its table [drivers/md/dm-table.c: ...]
 *              //   line 1 thin → dm-0: 512 ...
 * }</pre>
 *
 * @param device the kernel name of the device the value belongs to ({@code dm-1}, {@code sda})
 * @param field the limit
 * @param value its value in sysfs units ({@link LimitField#valueOf(QueueLimits)})
 * @param source what kind of step produced it
 * @param rule the kernel (or LVM, or udev) function that produced it, as {@code file: function}
 * @param detail what the step did, in words with its numbers ({@code min_not_zero over its table},
 *     {@code sd: BLK_DEF_MAX_SECTORS 1024 under Linux 3.10})
 * @param inputs the derivations this value was computed from, in the order the rule took them; empty for a leaf
 */
public record Derivation(String device, LimitField field, long value, Source source, String rule, String detail,
                         List<Derivation> inputs) {

    /** What kind of step produced a value. */
    public enum Source {
        /** What the hardware reports (a preset's or snapshot's disk value before the block layer touched it). */
        HARDWARE,
        /** A driver's choice ({@code sd_revalidate_disk}, virtio_blk, nvme). */
        DRIVER,
        /** A block-layer default of the kernel profile ({@code BLK_DEF_MAX_SECTORS}, stacking defaults). */
        PROFILE_DEFAULT,
        /** Stacked from the devices below ({@code blk_stack_limits}). */
        STACKED,
        /** A device-mapper target's {@code io_hints}. */
        TARGET_HINTS,
        /** An md personality's settings. */
        PERSONALITY,
        /** A write to the sysfs attribute ({@code echo 512 > max_sectors_kb}, udev, {@code blockdev --setra}). */
        SYSFS_WRITE,
        /** The commit of the limits ({@code blk_validate_limits}, {@code dm_table_set_restrictions}). */
        COMMIT,
        /** A value the kernel reported that the model does not derive (an unmodelled dm target, a recorded value). */
        RECORDED
    }

    /** Rejects nulls; copies the inputs. */
    public Derivation {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(detail, "detail");
        inputs = List.copyOf(inputs);
    }

    /** A leaf: a value with no inputs. */
    public static Derivation leaf(String device, LimitField field, long value, Source source, String rule,
                                  String detail) {
        return new Derivation(device, field, value, source, rule, detail, List.of());
    }

    /** This node and every node below it, depth first, parents before children. */
    public Stream<Derivation> walk() {
        return Stream.concat(Stream.of(this), inputs.stream().flatMap(Derivation::walk));
    }

    /** The nodes without inputs, in order: where the value ultimately comes from. */
    public List<Derivation> leaves() {
        return walk().filter(d -> d.inputs.isEmpty()).toList();
    }

    /** The devices this derivation passes through, in order of first appearance. */
    public List<String> devices() {
        return walk().map(Derivation::device).distinct().toList();
    }

    /**
     * One line: {@code device field value = detail (input, input ...)}, each input as {@code device value} with its
     * own inputs in parentheses or its detail in brackets, e.g. {@code dm-1 max_sectors_kb 512 = min_not_zero over
     * its table (dm-0 512 = min_not_zero over its table (sdg 512 [sd: BLK_DEF_MAX_SECTORS ...], sdh 512 [...]))}.
     */
    public String summary() {
        StringBuilder b = new StringBuilder();
        b.append(device).append(' ').append(field.sysfsName()).append(' ').append(value);
        appendBody(b);
        return b.toString();
    }

    private void appendBody(StringBuilder b) {
        if (inputs.isEmpty()) {
            b.append(" [").append(detail).append(']');
            return;
        }
        b.append(" = ").append(detail).append(" (");
        for (int i = 0; i < inputs.size(); i++) {
            Derivation in = inputs.get(i);
            if (i > 0) {
                b.append(", ");
            }
            b.append(in.device);
            if (in.field != field) {
                b.append(' ').append(in.field.sysfsName());
            }
            b.append(' ').append(in.value);
            in.appendBody(b);
        }
        b.append(')');
    }

    /**
     * The tree, one node a line, indented two spaces a level: {@code device field value  detail  [rule]}.
     */
    public String tree() {
        List<String> lines = new ArrayList<>();
        appendTree(lines, 0);
        return String.join("\n", lines) + "\n";
    }

    private void appendTree(List<String> lines, int depth) {
        lines.add("  ".repeat(depth) + device + " " + field.sysfsName() + " " + value + "  " + detail + "  [" + rule
                + "]");
        for (Derivation in : inputs) {
            in.appendTree(lines, depth + 1);
        }
    }
}
