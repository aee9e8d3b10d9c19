package dev.dmmodel.impl.tools;

import dev.dmmodel.workload.Command;
import java.util.List;

/** coreutils {@code sync}. */
final class SyncTool {

    private SyncTool() {
    }

    static Command sync(List<String> args, ParseContext ctx) {
        if (!args.isEmpty()) {
            throw ctx.fail("sync " + String.join(" ", args) + ": syncing single files or filesystems is not"
                    + " modelled, only a plain 'sync'");
        }
        return new Command.Sync(ctx.line());
    }

}
