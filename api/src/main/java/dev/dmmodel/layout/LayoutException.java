package dev.dmmodel.layout;

/**
 * A layout that cannot exist: overlapping partitions, a partition beyond its disk, insufficient free
 * extents, a stripe size that is not a power of two, a device used twice, name collisions, cycles,
 * sizes that are not multiples of the logical block size. The message names the device, the field, the
 * value and the rule, like LVM's own messages; the parts are also available separately.
 */
public final class LayoutException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String device;
    private final String field;
    private final String value;

    /**
     * Creates the exception.
     *
     * @param device the device (or VG/LV) concerned
     * @param field the field or option at fault
     * @param value the offending value
     * @param message the full message, naming all of them and the rule
     */
    public LayoutException(String device, String field, String value, String message) {
        super(message);
        this.device = device;
        this.field = field;
        this.value = value;
    }

    /** The device (or VG/LV) concerned. */
    public String device() {
        return device;
    }

    /** The field or option at fault. */
    public String field() {
        return field;
    }

    /** The offending value as text. */
    public String value() {
        return value;
    }
}
