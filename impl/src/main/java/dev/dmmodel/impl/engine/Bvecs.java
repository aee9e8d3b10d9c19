package dev.dmmodel.impl.engine;

/**
 * A bio's data as the kernel holds it: bio_vecs of (physical address, length), viewed from a byte
 * offset for a byte length, so that clones and splits share the vectors as {@code bvec_iter} does.
 */
final class Bvecs {
    static final long PAGE = 4096;

    private final long[] addr;
    private final long[] len;
    private final int first;
    private final long skip;
    private final long size;

    private Bvecs(long[] addr, long[] len, int first, long skip, long size) {
        this.addr = addr;
        this.len = len;
        this.first = first;
        this.skip = skip;
        this.size = size;
    }

    /** Vectors exactly as given. */
    static Bvecs of(long[] addr, long[] len) {
        long total = 0;
        for (long l : len) {
            total += l;
        }
        return new Bvecs(addr, len, 0, 0, total);
    }

    /** The bytes viewed. */
    long size() {
        return size;
    }

    /** A view of {@code bytes} bytes from {@code from} bytes into this view ({@code bio_advance}/{@code bio_trim}). */
    Bvecs slice(long from, long bytes) {
        if (from < 0 || bytes < 0 || from + bytes > size) {
            throw new IllegalArgumentException("slice " + from + "+" + bytes + " of " + size);
        }
        int i = first;
        long off = skip + from;
        while (i < len.length && off >= len[i]) {
            off -= len[i];
            i++;
        }
        return new Bvecs(addr, len, i, off, bytes);
    }

    /** The visitor over the viewed segments of each bvec. */
    interface Visitor {
        /** Returns false to stop. */
        boolean bvec(long physAddr, long length, long offsetInPage);
    }

    /** Visits the viewed part of each bvec in order. */
    void forEach(Visitor v) {
        long remaining = size;
        int i = first;
        long off = skip;
        while (remaining > 0 && i < len.length) {
            long l = Math.min(len[i] - off, remaining);
            long a = addr[i] + off;
            if (!v.bvec(a, l, a % PAGE)) {
                return;
            }
            remaining -= l;
            off = 0;
            i++;
        }
    }

    /** Number of viewed bvecs. */
    int count() {
        int[] n = {0};
        forEach((a, l, o) -> {
            n[0]++;
            return true;
        });
        return n[0];
    }
}
