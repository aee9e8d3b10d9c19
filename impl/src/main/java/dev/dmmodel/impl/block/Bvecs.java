package dev.dmmodel.impl.block;

/**
 * A bio's data as the kernel holds it: bio_vecs of (physical address, length), viewed from a byte
 * offset for a byte length, so that clones and splits share the vectors as {@code bvec_iter} does.
 */
public final class Bvecs {
    public static final long PAGE = 4096;

    private final long[] addr;
    private final long[] len;
    private final int first;
    private final long skip;
    private final long size;
    /** For a regular buffer (no arrays): bytes per physically contiguous run; 0 for explicit vectors. */
    private final long runBytes;

    private Bvecs(long[] addr, long[] len, int first, long skip, long size) {
        this.addr = addr;
        this.len = len;
        this.first = first;
        this.skip = skip;
        this.size = size;
        this.runBytes = 0;
    }

    private Bvecs(long runBytes, long skip, long size) {
        this.addr = null;
        this.len = null;
        this.first = 0;
        this.skip = skip;
        this.size = size;
        this.runBytes = runBytes;
    }

    /**
     * {@code bytes} of a page-aligned buffer from {@code offset}, laid out in physically contiguous runs of
     * {@code runBytes} that never touch each other — computed on the fly, nothing is allocated per vector.
     */
    public static Bvecs regular(long runBytes, long offset, long bytes) {
        return new Bvecs(runBytes, offset, bytes);
    }

    /**
     * Page-cache folios of {@code lengths} bytes, one bvec each ({@code bio_add_folio}): every folio physically
     * contiguous and aligned to its size (as the page allocator hands out a folio), no two physically adjacent, so
     * that they never merge into one bvec or segment.
     */
    public static Bvecs folios(long[] lengths) {
        long stride = PAGE;
        for (long l : lengths) {
            if (l <= 0) {
                throw new IllegalArgumentException("a folio of " + l + " bytes");
            }
            long size = Long.highestOneBit(l) == l ? l : Math.multiplyExact(Long.highestOneBit(l), 2L);
            stride = Math.max(stride, size);
        }
        long[] addr = new long[lengths.length];
        for (int i = 0; i < lengths.length; i++) {
            // folio i at an odd multiple of the largest folio's size: aligned, one stride apart from its neighbours
            addr[i] = Math.multiplyExact(Math.addExact(Math.multiplyExact(2L, i), 1L), stride);
        }
        return of(addr, lengths.clone());
    }

    /** Vectors exactly as given. */
    static Bvecs of(long[] addr, long[] len) {
        long total = 0;
        for (long l : len) {
            total += l;
        }
        return new Bvecs(addr, len, 0, 0, total);
    }

    /** Whether every viewed vector is exactly one whole, page-aligned page (scattered pages). */
    boolean isWholePages() {
        return runBytes == PAGE && skip % PAGE == 0 && size % PAGE == 0;
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
        if (runBytes != 0) {
            return new Bvecs(runBytes, skip + from, bytes);
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
        if (runBytes != 0) {
            long pos = skip;
            long end = skip + size;
            while (pos < end) {
                long run = pos / runBytes;
                long runEnd = Math.min((run + 1) * runBytes, end);
                // runs are placed one run apart so that no two are physically adjacent
                long a = (2 * run + 1) * runBytes + (pos - run * runBytes);
                if (!v.bvec(a, runEnd - pos, a % PAGE)) {
                    return;
                }
                pos = runEnd;
            }
            return;
        }
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

    /** Physical address of the first viewed byte. */
    long firstAddress() {
        long[] a = {-1};
        forEach((addr, l, o) -> {
            a[0] = addr;
            return false;
        });
        return a[0];
    }

    /** Physical address just past the last viewed byte. */
    long endAddress() {
        long[] a = {-1};
        forEach((addr, l, o) -> {
            a[0] = addr + l;
            return true;
        });
        return a[0];
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
