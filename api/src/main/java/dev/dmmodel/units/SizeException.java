package dev.dmmodel.units;

/**
 * A size that cannot be represented exactly: negative, fractional where a whole number is needed,
 * beyond {@code Long.MAX_VALUE}, or text that is not a size. The message names the value.
 */
public final class SizeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception with a message that names the offending value. */
    public SizeException(String message) {
        super(message);
    }
}
