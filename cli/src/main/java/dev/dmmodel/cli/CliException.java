package dev.dmmodel.cli;

/**
 * Bad input the command can name: a file that cannot be read, a value out of range, a workload line that
 * does not parse. The message is printed as it is, after {@code dmmodel: },
 * and the command exits with {@link Main#BAD_INPUT}.
 */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CliException(String message) {
        super(message);
    }

    CliException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Checks a {@code --format}-like value against the choices (exact, lower case).
     *
     * @throws CliException naming the option, the value and the choices
     */
    static String choice(String option, String value, String... choices) {
        for (String c : choices) {
            if (c.equals(value)) {
                return c;
            }
        }
        throw new CliException(option + ": expected one of " + String.join(", ", choices) + ", found '" + value + "'");
    }
}
