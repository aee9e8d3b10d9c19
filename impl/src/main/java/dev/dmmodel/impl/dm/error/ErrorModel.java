package dev.dmmodel.impl.dm;

/** dm-error ({@code drivers/md/dm-target.c: io_err_*}): no devices, no hints. */
final class ErrorModel implements ZeroLike {
    @Override
    public boolean fails() {
        return true;
    }
}
