package dev.dmmodel.impl.engine;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.engine.JobResult;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Bios;
import dev.dmmodel.impl.block.Bvecs;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.impl.mm.BufferedRead;
import dev.dmmodel.workload.IoJob;
import java.util.Iterator;

/**
 * Runs an fio-style job the way fio's {@code psync} engine does: one system call per operation, each
 * waited for ({@code pread}/{@code pwrite} with or without {@code O_DIRECT}, {@code BLKDISCARD},
 * {@code BLKZEROOUT}, {@code fsync}).
 */
final class JobRunner {
    private final HostSimulation host;
    private final IoJob job;

    JobRunner(HostSimulation host, IoJob job) {
        this.host = host;
        this.job = job;
    }

    JobResult run() {
        BlockDevice d = host.device(job.target());
        Kernel k = host.kernel();
        long size = d.size().count() * 512;
        long ops = 0;
        long bytes = 0;
        long errors = 0;
        String first = "";
        for (Iterator<IoJob.IoOp> it = job.ops(); it.hasNext(); ) {
            IoJob.IoOp op = it.next();
            ops++;
            String err = null;
            if (op.op() != IoJob.OpType.FLUSH && op.offsetBytes() + op.lengthBytes() > size) {
                err = "offset " + op.offsetBytes() + " + " + op.lengthBytes() + " lies beyond " + job.target()
                        + " (" + size + " bytes): No space left on device";
            } else {
                err = one(d, k, op);
            }
            if (err != null) {
                errors++;
                if (first.isEmpty()) {
                    first = err;
                }
            } else {
                bytes += op.lengthBytes();
            }
        }
        if (!job.direct()) {
            host.release(d.name());
        }
        return new JobResult(job, ops, bytes, errors, first);
    }

    private String one(BlockDevice d, Kernel k, IoJob.IoOp op) {
        long pos = op.offsetBytes();
        long len = op.lengthBytes();
        switch (op.op()) {
            case READ:
            case WRITE: {
                boolean write = op.op() == IoJob.OpType.WRITE;
                if (job.direct()) {
                    if (Dd.misaligned(d, pos, len)) {
                        return (write ? "pwrite" : "pread") + ": Invalid argument";
                    }
                    Dd.directIo(host, d, write ? Op.WRITE : Op.READ, write ? Bio.SYNC | Bio.IDLE
                        : Dd.directReadFlags(host.kernel().profile), pos, len);
                } else if (write) {
                    host.cache(d).markDirty(pos, pos + len);
                } else {
                    new BufferedRead(host.kernel().block, host.buffer(), host.cache(d)).read(pos, len);
                }
                break;
            }
            case DISCARD:
                if (!k.supportsDiscard(d.name(), 1)) {
                    return "BLKDISCARD: Operation not supported";
                }
                k.block.issueDiscard(d.name(), pos / 512, len / 512, Bio.SYNC);
                k.completeAll();
                break;
            case WRITE_ZEROES:
                // block/blk-lib.c: blkdev_issue_zeroout — REQ_OP_WRITE_ZEROES where the queue takes it, else
                // writes of the zero page (__blkdev_issue_zero_pages), BIO_MAX_VECS pages a bio
                if (k.queueLimits(d.name()).maxWriteZeroesSectors > 0) {
                    k.submitBioNoacct(new Bio(d.name(), Op.WRITE_ZEROES, Bio.SYNC, pos / 512, len / 512, null));
                } else {
                    for (long done = 0; done < len; done += Bios.BIO_MAX_VECS * Bvecs.PAGE) {
                        long n = Math.min(len - done, Bios.BIO_MAX_VECS * Bvecs.PAGE);
                        k.submitBioNoacct(new Bio(d.name(), Op.WRITE, Bio.SYNC, (pos + done) / 512, n / 512,
                                k.pages(n / 512)));
                    }
                }
                k.completeAll();
                break;
            case FLUSH:
                host.writeback(host.cache(d), Bio.SYNC);
                k.submitBioNoacct(new Bio(d.name(), Op.WRITE, Bio.SYNC | Bio.PREFLUSH, 0, 0, null));
                k.completeAll();
                break;
            default:
                throw new AssertionError(op.op());
        }
        return k.takeIoError();
    }
}
