package dev.dmmodel.impl.mm;

import dev.dmmodel.impl.block.Bvecs;

/**
 * How the pages of a process's I/O buffer lie in physical memory, which decides how many segments a
 * direct-I/O bio has: scattered 4 KiB pages (the usual case for a malloc'd buffer) or physically
 * contiguous runs (transparent huge pages).
 */
public final class UserBuffer {
    public final long runBytes;

    /**
     * @param runBytes bytes per physically contiguous run: 4096 for scattered pages, 2 MiB for huge pages
     */
    public UserBuffer(long runBytes) {
        if (runBytes < Bvecs.PAGE || runBytes % Bvecs.PAGE != 0) {
            throw new IllegalArgumentException("contiguous run (" + runBytes + " bytes) must be whole pages");
        }
        this.runBytes = runBytes;
    }

    public long runBytes() {
        return runBytes;
    }

    /**
     * The bio_vecs for {@code bytes} of a page-aligned buffer from {@code offset} bytes into it:
     * physically contiguous pages merge into one bvec ({@code bio_iov_iter_get_pages}), runs never touch.
     */
    public Bvecs vectors(long offset, long bytes) {
        return Bvecs.regular(runBytes, offset, bytes);
    }

    /** Pages of the buffer range (for the 256-vector bio limit). */
    public static long pages(long offset, long bytes) {
        return (offset + bytes + Bvecs.PAGE - 1) / Bvecs.PAGE - offset / Bvecs.PAGE;
    }
}
