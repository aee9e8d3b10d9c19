package dev.dmmodel.impl.dm.zero;

import dev.dmmodel.impl.dm.ZeroLike;

/** dm-zero ({@code drivers/md/dm-zero.c}): no devices, no hints. */
final class ZeroModel implements ZeroLike {
    @Override
    public boolean fails() {
        return false;
    }
}
