package dev.dmmodel.io;

import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.spi.ModelProviders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Layout files: a stack described in YAML or JSON ({@code docs/layout-format.md}), for users who do not write
 * Java — {@code version: 1}, an optional {@code kernel:} and the {@code steps:} an administrator would run
 * ({@code disk}, {@code partition_table}, {@code pvcreate}, {@code vgcreate}, {@code lvcreate},
 * {@code thin_pool}, {@code thin}, {@code dmsetup_create}, ...).
 *
 * <pre>{@code
 * Layout layout = LayoutFiles.build(Files.readString(Path.of("stack.yaml")), "stack.yaml");
 * String yaml = LayoutFiles.write(HostSnapshot.read(Path.of("/tmp/myhost")).toLayoutSpec());
 * }</pre>
 *
 * <p>A text whose first character other than white space is <code>{</code> is JSON, read strictly as RFC 8259
 * defines it; any other is YAML. Anchors, aliases and tags are refused; unknown keys are errors that list the keys
 * allowed there, in either syntax.
 */
public final class LayoutFiles {

    private LayoutFiles() {
    }

    /**
     * Reads a layout file's text into steps under its {@code kernel:} (the default profile without one).
     *
     * @throws FormatException naming {@code source:line:column}, what was found and what was expected
     */
    public static LayoutSpec read(String text, String source) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        return ModelProviders.formats().readLayoutFile(text, source, null);
    }

    /**
     * Reads a layout file's text into steps under a kernel of the caller's choice, whatever its
     * {@code kernel:} says.
     *
     * @throws FormatException as {@link #read(String, String)}
     */
    public static LayoutSpec read(String text, String source, KernelProfile kernel) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(kernel, "kernel");
        return ModelProviders.formats().readLayoutFile(text, source, kernel);
    }

    /**
     * The kernel profile a layout file's text names with {@code kernel:}, or empty when it names none (then
     * {@link #read(String, String)} and {@link #build(String, String)} take {@link KernelProfile#defaultProfile()}).
     *
     * @throws FormatException as {@link #read(String, String)}
     */
    public static Optional<KernelProfile> kernel(String text, String source) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        return ModelProviders.formats().layoutFileKernel(text, source);
    }

    /**
     * Reads and builds a layout file; a step the model refuses (a partition beyond its disk, an LV larger than
     * the free extents) is reported at that step's line.
     *
     * @throws FormatException naming {@code source:line:column} for text that does not read and for the first
     *     step that does not build
     */
    public static Layout build(String text, String source) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        return ModelProviders.formats().buildLayoutFile(text, source, null);
    }

    /**
     * Reads and builds a layout file under a kernel of the caller's choice, whatever its {@code kernel:} says;
     * a step the model refuses under that kernel is reported at that step's line.
     *
     * @throws FormatException as {@link #build(String, String)}
     */
    public static Layout build(String text, String source, KernelProfile kernel) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(kernel, "kernel");
        return ModelProviders.formats().buildLayoutFile(text, source, kernel);
    }

    /**
     * The text of a layout file for the methods that take one, with the file's path as it is given as the source
     * of their messages: the file's bytes decoded as UTF-8, refused rather than read with replacement characters
     * when they are not, and refused unread when the file is larger than a layout file may be.
     *
     * @throws FormatException naming the file (at line 1, column 1) if it does not exist, cannot be read, is too
     *     large or is not UTF-8
     */
    public static String text(Path file) {
        Objects.requireNonNull(file, "file");
        return ModelProviders.formats().readLayoutFileText(file);
    }

    /**
     * {@link #build(String, String)} of a file (UTF-8); messages name the file.
     *
     * @throws IOException if the file cannot be read
     */
    public static Layout build(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        return build(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /**
     * The layout file that {@link #read} reads back as the same layout: a disk as the closest preset and the
     * limits that differ, an imported volume group as its {@code vgcfgbackup} text, keys in a fixed order. Not
     * yet for a target the model does not implement ({@link dev.dmmodel.dm.OpaqueTarget}): its table line is
     * written, but not the limits the kernel recorded for its device, so the file reads back with that device's
     * limits stacked from the devices below it.
     *
     * @throws IllegalArgumentException if the spec's kernel is neither a preset nor a profile
     *     {@link KernelProfile#forRelease(String)} composed (a file names its kernel by version)
     */
    public static String write(LayoutSpec spec) {
        Objects.requireNonNull(spec, "spec");
        return ModelProviders.formats().writeLayoutFile(spec);
    }
}
