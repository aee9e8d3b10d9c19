package dev.dmmodel.impl.dm;

/** dm-zero ({@code drivers/md/dm-zero.c}): no devices, no hints. */
final class ZeroModel implements ZeroLike {
    @Override
    public boolean fails() {
        return false;
    }
}
