package dev.dmmodel.io;

import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.spi.ModelProviders;
import java.util.List;
import java.util.Objects;

/**
 * LVM commands ({@code pvcreate}, {@code vgcreate}, {@code lvcreate}, {@code lvextend},
 * {@code lvconvert --type thin-pool}) that build a layout's volume groups with the same extent placement:
 * areas are named as {@code PV:first-last} ranges, {@code pvcreate} options are chosen so that {@code pe_start}
 * comes out as in the layout, thin LVs and snapshots are created in thin device id order.
 *
 * <pre>{@code
 * LvmScript script = LvmCommands.write(layout);
 * if (!script.isExact()) { ... script.notExpressible() ... }
 * List<LayoutStep> again = LvmCommands.read(script.script(), "recreate.sh");   // the round trip
 * }</pre>
 */
public final class LvmCommands {

    private LvmCommands() {
    }

    /** The script that recreates every volume group of the layout, and what it cannot express. */
    public static LvmScript write(Layout layout) {
        Objects.requireNonNull(layout, "layout");
        return ModelProviders.formats().writeLvmCommands(layout);
    }

    /**
     * Reads such a script (and hand-written ones: long and short options, LVM size units, {@code sudo} and
     * {@code lvm} prefixes, line continuations) into layout steps to append after the steps that make the
     * disks and partitions.
     *
     * @param script the script's text
     * @param source its name for messages
     * @throws FormatException naming {@code source:line:column}, the command or option, the value found and what
     *     was expected
     */
    public static List<LayoutStep> read(String script, String source) {
        Objects.requireNonNull(script, "script");
        Objects.requireNonNull(source, "source");
        return ModelProviders.formats().readLvmCommands(script, source);
    }
}
