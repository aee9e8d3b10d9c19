package dev.dmmodel.impl.engine;

/**
 * How the pages of a process's I/O buffer lie in physical memory, which decides how many segments a
 * direct-I/O bio has: scattered 4 KiB pages (the usual case for a malloc'd buffer) or physically
 * contiguous runs (transparent huge pages).
 */
final class UserBuffer {
    private final long runBytes;

    /**
     * @param runBytes bytes per physically contiguous run: 4096 for scattered pages, 2 MiB for huge pages
     */
    UserBuffer(long runBytes) {
        if (runBytes < Bvecs.PAGE || runBytes % Bvecs.PAGE != 0) {
            throw new IllegalArgumentException("contiguous run (" + runBytes + " bytes) must be whole pages");
        }
        this.runBytes = runBytes;
    }

    long runBytes() {
        return runBytes;
    }

    /**
     * The bio_vecs for {@code bytes} of a page-aligned buffer from {@code offset} bytes into it:
     * physically contiguous pages merge into one bvec ({@code bio_iov_iter_get_pages}), runs never touch.
     */
    Bvecs vectors(long offset, long bytes) {
        long firstRun = offset / runBytes;
        long lastRun = (offset + bytes - 1) / runBytes;
        int n = (int) (lastRun - firstRun + 1);
        long[] addr = new long[n];
        long[] len = new long[n];
        long pos = offset;
        for (int i = 0; i < n; i++) {
            long run = firstRun + i;
            long runStart = run * runBytes;
            long end = Math.min(runStart + runBytes, offset + bytes);
            // runs are placed one run apart so that no two are physically adjacent
            addr[i] = (2 * run + 1) * runBytes + (pos - runStart);
            len[i] = end - pos;
            pos = end;
        }
        return Bvecs.of(addr, len);
    }

    /** Pages of the buffer range (for the 256-vector bio limit). */
    static long pages(long offset, long bytes) {
        return (offset + bytes + Bvecs.PAGE - 1) / Bvecs.PAGE - offset / Bvecs.PAGE;
    }
}
