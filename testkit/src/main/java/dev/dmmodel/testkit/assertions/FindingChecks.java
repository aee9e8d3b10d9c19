package dev.dmmodel.testkit.assertions;

import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import dev.dmmodel.finding.Severity;
import java.util.List;
import java.util.Objects;

/**
 * The finding checks {@link LayoutAssert} and {@link FindingsAssert} share: each returns null when the check
 * passes and the failure message (without the context, which the caller appends) when it does not.
 */
final class FindingChecks {

    private FindingChecks() {
    }

    static String noFindings(List<Finding> findings) {
        if (findings.isEmpty()) {
            return null;
        }
        return "Expecting no findings but found " + findings.size() + ":\n" + Messages.findings(findings);
    }

    static String noFindingsOfSeverity(List<Finding> findings, Severity severity) {
        Objects.requireNonNull(severity, "severity");
        List<Finding> bad = findings.stream().filter(f -> f.severity().compareTo(severity) >= 0).toList();
        if (bad.isEmpty()) {
            return null;
        }
        return "Expecting no findings of severity " + severity + " or worse but found " + bad.size() + ":\n"
                + Messages.findings(bad);
    }

    static String hasFinding(List<Finding> findings, FindingType type) {
        Objects.requireNonNull(type, "type");
        if (findings.stream().anyMatch(f -> f.type() == type)) {
            return null;
        }
        return "Expecting a finding " + type.id() + " (" + type + ") but the findings were:\n"
                + Messages.findings(findings);
    }

    static String hasFindingWithId(List<Finding> findings, String id) {
        Objects.requireNonNull(id, "id");
        if (findings.stream().anyMatch(f -> f.id().equals(id))) {
            return null;
        }
        return "Expecting a finding with id " + id + " but the findings were:\n" + Messages.findings(findings);
    }

    static String hasNoFinding(List<Finding> findings, FindingType type) {
        Objects.requireNonNull(type, "type");
        List<Finding> bad = findings.stream().filter(f -> f.type() == type).toList();
        if (bad.isEmpty()) {
            return null;
        }
        return "Expecting no finding " + type.id() + " but found " + bad.size() + ":\n" + Messages.findings(bad);
    }
}
