package dev.dmmodel.finding;

import dev.dmmodel.limits.LimitRef;
import java.util.List;
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
 * @param basis the queue limits the finding rests on, each explainable with
 *     {@link dev.dmmodel.layout.Layout#explain(String, dev.dmmodel.limits.LimitField)}; empty when it rests on
 *     none (an LVM extent layout, a table)
 */
public record Finding(FindingType type, Severity severity, String device, String message, String fix,
                      List<LimitRef> basis) {

    /** Rejects nulls; copies the basis. */
    public Finding {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(fix, "fix");
        basis = List.copyOf(basis);
    }

    /** A finding that rests on no queue limit. */
    public Finding(FindingType type, Severity severity, String device, String message, String fix) {
        this(type, severity, device, message, fix, List.of());
    }

    /** This finding resting on the given limits as well. */
    public Finding withBasis(List<LimitRef> refs) {
        java.util.LinkedHashSet<LimitRef> all = new java.util.LinkedHashSet<>(basis);
        all.addAll(refs);
        return new Finding(type, severity, device, message, fix, List.copyOf(all));
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
