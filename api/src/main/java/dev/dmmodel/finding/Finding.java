package dev.dmmodel.finding;

import java.util.Objects;

/**
 * Something a validation found: what kind, how bad, which device, what exactly (with the numbers) and
 * what would fix it. A value, not an exception.
 *
 * @param type the kind
 * @param severity how bad
 * @param device the kernel name (or VG name) it concerns
 * @param message what is wrong, with the numbers
 * @param fix what would fix it
 */
public record Finding(FindingType type, Severity severity, String device, String message, String fix) {

    /** Rejects nulls. */
    public Finding {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(fix, "fix");
    }

    /** The stable id of the kind. */
    public String id() {
        return type.id();
    }

    @Override
    public String toString() {
        return severity + " " + type.id() + " [" + device + "] " + message + " Fix: " + fix;
    }
}
