package dev.dmmodel.impl.engine;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.impl.mm.BufferedRead;
import dev.dmmodel.workload.Command.DdFlag;
import dev.dmmodel.workload.Command;

/**
 * One GNU {@code dd} run: reads of {@code ibs}, writes of {@code obs}, each a {@code read(2)} or
 * {@code write(2)} on a block device ({@code O_DIRECT} or through the page cache), {@code /dev/zero} or
 * {@code /dev/null}; the kernel's refusals become dd's messages and exit status.
 */
final class Dd {
    private final HostSimulation host;
    private final Command.Dd cmd;
    private final BlockDevice in;
    private final BlockDevice out;

    Dd(HostSimulation host, Command.Dd cmd) {
        this.host = host;
        this.cmd = cmd;
        this.in = endpoint(cmd.input(), "/dev/zero");
        this.out = endpoint(cmd.output(), "/dev/null");
    }

    private BlockDevice endpoint(String path, String special) {
        if (path.equals(special) || path.equals("/dev/zero") || path.equals("/dev/null")) {
            return null;
        }
        if (path.equals("-")) {
            throw new UnsupportedOperationException("dd: standard input/output are not modelled: " + cmd.line());
        }
        return host.device(path);
    }

    CommandResult run() {
        boolean directIn = cmd.inputFlags().contains(DdFlag.DIRECT);
        boolean directOut = cmd.outputFlags().contains(DdFlag.DIRECT);
        long total = cmd.count().orElse(Long.MAX_VALUE);
        long inPos = cmd.skipBytes();
        long outPos = cmd.seekBytes();
        long block = cmd.blockSizeGiven() ? cmd.inputBlockSize() : cmd.inputBlockSize();
        long copied = 0;
        if (in != null) {
            host.cache(in);
        }
        if (out != null) {
            host.cache(out);
        }
        try {
            while (copied < total) {
                long n = Math.min(block, total - copied);
                if (in != null) {
                    long size = in.size().count() * 512;
                    if (inPos >= size) {
                        break;
                    }
                    n = Math.min(n, size - inPos);
                    if (directIn && misaligned(in, inPos, n)) {
                        return error("error reading '" + cmd.input() + "': Invalid argument", copied);
                    }
                    if (directIn) {
                        direct(in, Op.READ, directReadFlags(host.kernel().profile), inPos, n);
                        String err = host.kernel().takeIoError();
                        if (err != null) {
                            return error("error reading '" + cmd.input() + "': " + errno(err), copied);
                        }
                    } else {
                        new BufferedRead(host.kernel().block, host.buffer(), host.cache(in)).read(inPos, n);
                    }
                    inPos += n;
                }
                if (out != null) {
                    long size = out.size().count() * 512;
                    if (directOut && misaligned(out, outPos, n)) {
                        return error("error writing '" + cmd.output() + "': Invalid argument", copied);
                    }
                    if (outPos >= size) {
                        return error("error writing '" + cmd.output() + "': No space left on device", copied);
                    }
                    long w = Math.min(n, size - outPos);
                    if (directOut) {
                        // O_DIRECT writes are REQ_SYNC | REQ_IDLE ("WS")
                        direct(out, Op.WRITE, Bio.SYNC | Bio.IDLE, outPos, w);
                        String err = host.kernel().takeIoError();
                        if (err != null) {
                            return error("error writing '" + cmd.output() + "': " + errno(err), copied);
                        }
                    } else {
                        host.cache(out).markDirty(outPos, outPos + w);
                        if (cmd.outputFlags().contains(DdFlag.SYNC) || cmd.outputFlags().contains(DdFlag.DSYNC)) {
                            host.writeback(host.cache(out), Bio.SYNC);
                        }
                    }
                    outPos += w;
                    if (w < n) {
                        copied += w;
                        return error("error writing '" + cmd.output() + "': No space left on device", copied);
                    }
                }
                copied += n;
            }
            if (out != null && (cmd.conversions().contains(Command.DdConv.FSYNC)
                    || cmd.conversions().contains(Command.DdConv.FDATASYNC))) {
                host.writeback(host.cache(out), Bio.SYNC);
            }
            return new CommandResult(cmd, 0, "", copied);
        } finally {
            if (out != null) {
                host.release(out.name());
            }
            if (in != null && (out == null || !in.name().equals(out.name()))) {
                host.release(in.name());
            }
        }
    }

    private static String errno(String kernelMessage) {
        return kernelMessage.contains("out of data space") ? "No space left on device" : "Input/output error";
    }

    private CommandResult error(String what, long copied) {
        return new CommandResult(cmd, 1, "dd: " + what, copied);
    }

    // block/fops.c: blkdev_dio_unaligned — offset and length in whole logical blocks
    static boolean misaligned(BlockDevice d, long pos, long len) {
        long lbs = d.limits().logicalBlockSize();
        return ((pos | len) & (lbs - 1)) != 0;
    }

    private void direct(BlockDevice d, Op op, int flags, long pos, long len) {
        directIo(host, d, op, flags, pos, len);
    }

    // block/fops.c: blkdev_direct_IO — O_DIRECT reads are REQ_SYNC ("RS") on 6.1+, plain "R" on 5.10 and before
    static int directReadFlags(dev.dmmodel.limits.KernelProfile p) {
        return p.directReadsSync() ? Bio.SYNC : 0;
    }

    // block/fops.c: blkdev_direct_IO — the writer's plug (blkdev_write_iter before 6.5), then wait for completion
    static void directIo(HostSimulation host, BlockDevice d, Op op, int flags, long pos, long len) {
        Kernel k = host.kernel();
        boolean outerPlug = op == Op.WRITE && k.profile.plugsDirectWrites();
        if (outerPlug) {
            k.startPlug();
        }
        var bios = host.directBios(d.name(), op, flags, pos, len);
        boolean multi = bios.size() > 1;
        if (multi) {
            k.startPlug();
        }
        for (Bio b : bios) {
            k.submitBioNoacct(b);
        }
        if (multi) {
            k.finishPlug();
        }
        if (outerPlug) {
            k.finishPlug();
        }
        k.completeAll();
    }
}
