package dev.dmmodel.limits;

import java.util.Objects;

/**
 * One limit of one device: what a {@link dev.dmmodel.finding.Finding} rests on, to be explained with
 * {@link dev.dmmodel.layout.Layout#explain(String, LimitField)}.
 *
 * @param device the kernel name
 * @param field the limit
 */
public record LimitRef(String device, LimitField field) {

    /** Rejects nulls and blank names. */
    public LimitRef {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(field, "field");
        if (device.isBlank()) {
            throw new IllegalArgumentException("device name of a limit reference is blank");
        }
    }

    @Override
    public String toString() {
        return device + ":" + field.sysfsName();
    }
}
