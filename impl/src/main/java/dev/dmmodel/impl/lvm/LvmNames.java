package dev.dmmodel.impl.lvm;

import java.util.List;
import java.util.Optional;

/** The rules LVM applies to VG and LV names, and to the dm names it makes of them. */
public final class LvmNames {

    /** {@code NAME_LEN} (128) less the terminating NUL. */
    static final int MAX_NAME_CHARS = 127;

    private static final List<String> RESERVED_PREFIXES = List.of("snapshot", "pvmove");

    private static final List<String> RESERVED_SUBSTRINGS = List.of("_cdata", "_cmeta", "_corig", "_cpool", "_cvol",
            "_wcorig", "_mimage", "_mlog", "_rimage", "_rmeta", "_tdata", "_tmeta", "_vdata", "_imeta", "_iorig",
            "_pmspare", "_vorigin");

    private LvmNames() {
    }

    /**
     * Why {@code name} is not a valid VG or LV name, as LVM words it; empty if it is valid.
     */
    // lib/misc/lvm-string.c: _validate_name (texts from lib/display/display.c: display_name_error)
    public static Optional<String> invalidReason(String name) {
        if (name.isEmpty()) {
            return Optional.of("Name is zero length.");
        }
        if (name.charAt(0) == '-') {
            return Optional.of("Name cannot start with hyphen.");
        }
        if (name.equals(".") || name.equals("..")) {
            return Optional.of("Name starts with . or .. and has no following character(s).");
        }
        for (int i = 0; i < name.length(); i++) {
            if (!isNameChar(name.charAt(i))) {
                return Optional.of("Name contains invalid character, valid set includes: [a-zA-Z0-9.-_+].");
            }
        }
        if (name.length() > MAX_NAME_CHARS) {
            return Optional.of("Name length exceeds maximum limit of " + MAX_NAME_CHARS + ".");
        }
        return Optional.empty();
    }

    /** The LV-name reservation {@code name} breaks, as LVM words it; empty if none. */
    // lib/misc/lvm-string.c: apply_lvname_restrictions
    public static Optional<String> reservedLvName(String name) {
        for (String prefix : RESERVED_PREFIXES) {
            if (name.startsWith(prefix)) {
                return Optional.of("Names starting \"" + prefix + "\" are reserved. Please choose a different LV name.");
            }
        }
        for (String part : RESERVED_SUBSTRINGS) {
            if (name.contains(part)) {
                return Optional.of("Names including \"" + part + "\" are reserved. Please choose a different LV name.");
            }
        }
        return Optional.empty();
    }

    // isalnum() in the C locale, plus . _ - +
    private static boolean isNameChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '.' || c == '_' || c == '-' || c == '+';
    }
}
