package dev.dmmodel.impl.tools;

/** Quoting as coreutils quotes names in its messages. */
final class Quoting {

    private Quoting() {
    }

    // ------------------------------------------------------------------------------------------------
    // quoting as coreutils quotes in messages

    /** quoteaf: shell-escape-always style, {@code 'X'}; with a single quote inside, {@code "X"} or {@code 'a'\''b'}. */
    static String quoteaf(String s) {
        if (s.indexOf('\'') < 0) {
            return "'" + s + "'";
        }
        boolean cCompatible = s.chars().allMatch(c -> c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '$'
                && c != '`');
        if (cCompatible) {
            return "\"" + s + "\"";
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** quotef: shell-escape style, quoted only where the shell would need it. */
    static String quotef(String s) {
        boolean plain = !s.isEmpty() && s.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9') || "_./@%+=:,-".indexOf(c) >= 0);
        return plain ? s : quoteaf(s);
    }

    /** locale_quoting_style in the C locale: {@code 'X'} with backslash escapes. */
    static String localeQuote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

}
