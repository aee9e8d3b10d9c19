package dev.dmmodel.impl.tools;

import dev.dmmodel.workload.Command;
import java.util.ArrayList;
import java.util.List;

/** util-linux {@code blockdev}. */
final class BlockdevTool {

    private BlockdevTool() {
    }

    // --- blockdev ----------------------------------------------------------------------------------

    static Command blockdev(List<String> args, ParseContext ctx) {
        Long size = null;
        List<String> devices = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-v") || a.equals("-q")) {
                continue;
            }
            if (a.equals("--setbsz")) {
                if (i + 1 >= args.size()) {
                    throw ctx.fail("blockdev: --setbsz requires an argument");
                }
                String v = args.get(++i);
                long n;
                try {
                    n = Long.parseLong(v.strip());
                } catch (NumberFormatException e) {
                    n = Long.MIN_VALUE;
                }
                if (n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
                    throw ctx.fail("blockdev: failed to parse command argument: '" + v + "'");
                }
                if (n < 512 || Long.bitCount(n) != 1) {
                    // set_blocksize(): a power of two, at least 512 (and at least the logical block size)
                    throw ctx.fail("blockdev: ioctl error on BLKBSZSET: Invalid argument");
                }
                size = n;
            } else if (a.startsWith("--")) {
                throw ctx.fail("blockdev " + a + " is not modelled, only --setbsz");
            } else if (a.startsWith("-") && a.length() > 1) {
                throw ctx.fail("blockdev: invalid option -- '" + a.charAt(1) + "'");
            } else {
                devices.add(a);
            }
        }
        if (size == null) {
            throw ctx.fail("blockdev without --setbsz is not modelled");
        }
        if (devices.isEmpty()) {
            throw ctx.fail("blockdev: no device specified");
        }
        if (devices.size() > 1) {
            throw ctx.fail("blockdev on several devices in one line is not modelled: one line per device");
        }
        return new Command.SetBlockSize(ctx.line(), size, devices.get(0));
    }

}
