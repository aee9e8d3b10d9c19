package dev.dmmodel.device;

/**
 * A device number as the kernel prints it, {@code major:minor} (e.g. {@code 8:16}, {@code 253:2}).
 *
 * @param major the major number, 0..4095
 * @param minor the minor number, 0..1048575
 */
public record DevNumber(int major, int minor) implements Comparable<DevNumber> {

    /** Validates the ranges of the kernel's {@code dev_t}. */
    public DevNumber {
        if (major < 0 || major > 4095) {
            throw new IllegalArgumentException("major number (" + major + ") must be between 0 and 4095");
        }
        if (minor < 0 || minor > 0xFFFFF) {
            throw new IllegalArgumentException("minor number (" + minor + ") must be between 0 and 1048575");
        }
    }

    /**
     * Parses {@code major:minor}.
     *
     * @throws IllegalArgumentException naming the text if it is not two decimal numbers joined by ':'
     */
    public static DevNumber parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("device number must not be null");
        }
        String t = text.strip();
        int colon = t.indexOf(':');
        if (colon <= 0 || colon == t.length() - 1) {
            throw new IllegalArgumentException("device number '" + text + "' is not major:minor");
        }
        try {
            return new DevNumber(Integer.parseInt(t.substring(0, colon)), Integer.parseInt(t.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("device number '" + text + "' is not major:minor with decimal numbers");
        }
    }

    @Override
    public int compareTo(DevNumber o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return major + ":" + minor;
    }
}
