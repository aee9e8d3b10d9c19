package dev.dmmodel.impl.dm.error;

import dev.dmmodel.impl.dm.ZeroLike;

/** dm-error ({@code drivers/md/dm-target.c: io_err_*}): no devices, no hints. */
final class ErrorModel implements ZeroLike {
    @Override
    public boolean fails() {
        return true;
    }
}
