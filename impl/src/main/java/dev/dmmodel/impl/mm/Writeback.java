package dev.dmmodel.impl.mm;

import com.google.common.collect.Range;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.BlockLayer;
import dev.dmmodel.impl.block.Bvecs;
import dev.dmmodel.impl.block.Op;
import java.util.List;

/** Writeback of a block device's page cache ({@code mm/page-writeback.c}, {@code fs/buffer.c}). */
public final class Writeback {

    private Writeback() {
    }

    /**
     * Writes back every dirty buffer of a device: one bio per dirty soft block, in offset order
     * ({@code block_write_full_folio} → {@code submit_bh}), under the writeback plug.
     */
    public static void writeback(PageCache c, BlockLayer kernel, UserBuffer buffer, int flags) {
        if (c.dirty.isEmpty()) {
            return;
        }
        kernel.startPlug();
        long bs = c.blockSize;
        for (Range<Long> r : List.copyOf(c.dirty.asRanges())) {
            long from = r.lowerEndpoint() / bs * bs;
            long to = Math.min(c.sizeBytes, (r.upperEndpoint() + bs - 1) / bs * bs);
            for (long off = from; off < to; off += bs) {
                Bvecs data = buffer.vectors(off % Bvecs.PAGE, bs);
                Bio bio = new Bio(c.device, Op.WRITE, flags, off / 512, bs / 512, data);
                kernel.submitBioNoacct(bio);
            }
        }
        c.dirty.clear();
        kernel.finishPlug();
        kernel.completeAll();
    }
}
