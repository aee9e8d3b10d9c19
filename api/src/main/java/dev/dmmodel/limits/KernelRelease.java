package dev.dmmodel.limits;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A kernel release as {@code uname -r} prints it ({@code 4.18.0-553.el8_10.x86_64}, {@code 6.1.0-32-amd64},
 * {@code 7.2.13+deb14-amd64}), with the upstream version it starts with. Ordered by that version alone
 * (two texts of one version compare as equal but are not {@code equals}).
 *
 * @param major the upstream major version (2 or more)
 * @param minor the upstream minor version
 * @param patch the upstream patch level (0 when the text has none)
 * @param text the release text as given, stripped of surrounding white space
 */
public record KernelRelease(int major, int minor, int patch, String text) implements Comparable<KernelRelease> {

    private static final Pattern VERSION = Pattern.compile("^(\\d{1,4})\\.(\\d{1,4})(?:\\.(\\d{1,6}))?(?![\\d]).*",
            Pattern.DOTALL);

    /**
     * Checks the version numbers.
     *
     * @throws IllegalArgumentException naming the release when a number is out of range
     */
    public KernelRelease {
        Objects.requireNonNull(text, "text");
        if (major < 2 || minor < 0 || patch < 0) {
            throw new IllegalArgumentException("kernel release '" + text + "': version " + major + "." + minor + "."
                    + patch + " is not a Linux version (2.0 or later)");
        }
    }

    /**
     * The release a {@code uname -r} text names.
     *
     * @throws IllegalArgumentException naming the text when it does not start with a version such as
     *     {@code 6.1.0}
     */
    public static KernelRelease parse(String release) {
        Objects.requireNonNull(release, "release");
        String text = release.strip();
        Matcher m = VERSION.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("kernel release '" + release
                    + "' does not start with a version such as 6.1.0 (as uname -r prints it)");
        }
        return new KernelRelease(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                m.group(3) == null ? 0 : Integer.parseInt(m.group(3)), text);
    }

    /** Whether this release is {@code major.minor} or later. */
    public boolean isAtLeast(int major, int minor) {
        return this.major != major ? this.major > major : this.minor >= minor;
    }

    /** {@code major.minor.patch}. */
    public String version() {
        return major + "." + minor + "." + patch;
    }

    @Override
    public int compareTo(KernelRelease o) {
        if (major != o.major) {
            return Integer.compare(major, o.major);
        }
        if (minor != o.minor) {
            return Integer.compare(minor, o.minor);
        }
        return Integer.compare(patch, o.patch);
    }
}
