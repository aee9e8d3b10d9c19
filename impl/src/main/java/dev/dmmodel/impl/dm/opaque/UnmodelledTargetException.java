package dev.dmmodel.impl.dm.opaque;

/**
 * I/O reached a target the model does not implement: the engine ends the command that sent it with this
 * message, and the commands after it still run.
 */
public final class UnmodelledTargetException extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;

    private final String device;
    private final String type;

    /** I/O reached {@code device}'s target of {@code type}. */
    public UnmodelledTargetException(String device, String type) {
        super(device + ": I/O reached its " + type + " target, which the model does not implement: I/O through "
                + device + " cannot be traced (every other device can)");
        this.device = device;
        this.type = type;
    }

    /**
     * I/O reached {@code device}'s target of {@code type}, whose I/O the model does not run yet, for the reason
     * {@code message} gives (dm-raid before its md personalities are wired).
     */
    public UnmodelledTargetException(String device, String type, String message) {
        super(message);
        this.device = device;
        this.type = type;
    }

    /** The dm device's kernel name. */
    public String device() {
        return device;
    }

    /** The target type. */
    public String type() {
        return type;
    }
}
