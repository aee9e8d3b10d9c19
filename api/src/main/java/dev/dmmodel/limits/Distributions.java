package dev.dmmodel.limits;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a {@code uname -r} text says of the distribution that built the kernel, for the description of a profile
 * {@link KernelProfile#forRelease(String)} composes. Every distribution recognised here puts the upstream version
 * first ({@code 4.18.0-553.el8_10}, {@code 5.15.0-91-generic}), so the version the text starts with is always the
 * base whose rules apply; what this adds is the distribution's name and its caveat (RHEL's backports).
 */
final class Distributions {

    /** RHEL (and its rebuilds: CentOS, Rocky, AlmaLinux, Oracle Linux's Red Hat kernel): {@code .el8_10}. */
    private static final Pattern RHEL = Pattern.compile("\\.el(\\d+)(?:_\\d+)?(?=[.+_-]|$)");
    /** Oracle's Unbreakable Enterprise Kernel: {@code 5.15.0-200.131.27.el8uek}. */
    private static final Pattern UEK = Pattern.compile("\\.el(\\d+)uek");
    /** Fedora: {@code 6.8.5-301.fc40.x86_64}. */
    private static final Pattern FEDORA = Pattern.compile("\\.fc(\\d+)(?=[.+_-]|$)");
    /** Debian 12 and later: {@code 6.12.48+deb13-amd64}. */
    private static final Pattern DEBIAN_TAG = Pattern.compile("\\+deb(\\d+)");
    /** Debian's flavours, named after the architecture: {@code 5.10.0-32-amd64}. */
    private static final Pattern DEBIAN_FLAVOUR = Pattern.compile("-\\d+-(?:cloud-|rt-)?(?:amd64|arm64|i386|686|686-pae"
            + "|armmp|armmp-lpae|powerpc64le|s390x|loong64|riscv64|marvell|rpi|octeon|4kc-malta|5kc-malta"
            + "|mips32r2el|mips64r2el)$");
    /** Ubuntu's flavours: {@code 5.15.0-91-generic}, {@code 6.8.0-1012-aws}. */
    private static final Pattern UBUNTU = Pattern.compile("-\\d+-(?:generic|generic-64k|generic-lpae|lowlatency"
            + "|lowlatency-64k|virtual|aws|azure|gcp|gke|gkeop|oracle|kvm|ibm|nvidia|raspi|intel-iotg|realtime)$");
    /** SUSE: {@code 5.14.21-150500.55.19-default}. */
    private static final Pattern SUSE = Pattern.compile("-default$");

    /** The upstream version each RHEL major release is built on. */
    private static final Map<Integer, RuleHistory.Point> RHEL_BASE = Map.of(
            4, new RuleHistory.Point(2, 6, 9),
            5, new RuleHistory.Point(2, 6, 18),
            6, new RuleHistory.Point(2, 6, 32),
            7, new RuleHistory.Point(3, 10, 0),
            8, new RuleHistory.Point(4, 18, 0),
            9, new RuleHistory.Point(5, 14, 0),
            10, new RuleHistory.Point(6, 12, 0));

    /**
     * What RHEL takes from later kernels, by RHEL major release. RHEL 6, 7 and 10 are on a preset's version, so
     * {@link KernelProfile#forRelease(String)} gives the preset and its description; docs/kernel-releases.md
     * lists what RHEL 7 is known to have taken.
     */
    private static final Map<Integer, String> RHEL_BACKPORTS = Map.of(
            8, "RHEL 8 runs blk-mq only, as upstream does from 5.0, and takes later block and device-mapper changes",
            9, "RHEL 9 takes later block and device-mapper changes in its minor releases");

    private Distributions() {
    }

    /** The distribution a release text names, with its caveat, or empty for an upstream or unknown one. */
    static Optional<String> recognise(KernelRelease r, RuleHistory.Point point) {
        String t = r.text();
        Matcher m = UEK.matcher(t);
        if (m.find()) {
            return Optional.of("Oracle's Unbreakable Enterprise Kernel for EL " + m.group(1)
                    + ", whose leading version is its upstream base");
        }
        m = RHEL.matcher(t);
        if (m.find()) {
            int major = Integer.parseInt(m.group(1));
            RuleHistory.Point base = RHEL_BASE.get(major);
            if (base == null || !base.equals(point)) {
                return Optional.of("built for EL " + major + " but not on RHEL's base (a kernel such as ELRepo's"
                        + " kernel-ml), so its leading version is the upstream base");
            }
            return Optional.of("RHEL " + major + ": upstream " + base.text() + "'s rules, but RHEL backports"
                    + " block-layer changes (" + RHEL_BACKPORTS.getOrDefault(major, "it takes later block and device-mapper"
                    + " changes in its minor releases") + "), so a RHEL " + major
                    + " host can behave like a newer kernel in places");
        }
        m = FEDORA.matcher(t);
        if (m.find()) {
            return Optional.of("Fedora " + m.group(1) + ", whose leading version is the upstream base");
        }
        m = DEBIAN_TAG.matcher(t);
        if (m.find()) {
            return Optional.of("Debian " + m.group(1) + ", whose leading version is the upstream base");
        }
        if (DEBIAN_FLAVOUR.matcher(t).find()) {
            return Optional.of("Debian, whose leading version is the upstream base");
        }
        if (UBUNTU.matcher(t).find()) {
            return Optional.of("Ubuntu, whose leading version is the upstream base");
        }
        if (SUSE.matcher(t).find()) {
            return Optional.of("SUSE, whose leading version is the upstream base (its enterprise kernels backport"
                    + " block-layer changes too)");
        }
        return Optional.empty();
    }

    /**
     * The description of the profile composed for a release: {@code Linux 5.15 (uname -r 5.15.0-91-generic;
     * Ubuntu, ...): upstream 5.15's rules, each as of its latest change at or before 5.15}.
     */
    static String describe(KernelRelease r, RuleHistory.Point point) {
        StringBuilder sb = new StringBuilder("Linux ").append(point.text()).append(" (uname -r ").append(r.text());
        recognise(r, point).ifPresent(d -> sb.append("; ").append(d));
        sb.append("): ");
        if (point.compareTo(RuleHistory.NEWEST_RECORDED) > 0) {
            sb.append("newer than the newest recorded kernel, ").append(RuleHistory.NEWEST_RECORDED.text())
                    .append(": its rules");
        } else if (point.compareTo(RuleHistory.OLDEST) < 0) {
            sb.append("older than the oldest kernel the model knows, ").append(RuleHistory.OLDEST.text())
                    .append(": its rules");
        } else {
            sb.append("upstream ").append(point.text()).append("'s rules, each as of its latest change at or before ")
                    .append(point.text());
        }
        return sb.toString();
    }
}
