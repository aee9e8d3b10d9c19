package dev.dmmodel.impl.block;

/** Request operations ({@code enum req_op}). */
public enum Op {
    READ, WRITE, FLUSH, DISCARD, WRITE_ZEROES;

    boolean isWrite() {
        return this != READ;
    }

    boolean hasData() {
        return this == READ || this == WRITE;
    }
}
