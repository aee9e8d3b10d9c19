package dev.dmmodel.io;

import dev.dmmodel.dm.DmTable;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.spi.ModelProviders;
import java.util.Map;
import java.util.Objects;

/**
 * Device-mapper tables as {@code dmsetup table} prints them ({@code vg0-lv: 0 2048 linear 8:16 2048}, every
 * device, devices referenced by {@code major:minor}) and as files for {@code dmsetup create} are written (one
 * device, references by number or by path such as {@code /dev/sdb}). Each target's arguments are checked as
 * the kernel's constructor checks them ({@code linear_ctr}, {@code stripe_ctr}, {@code pool_ctr},
 * {@code thin_ctr}), and each table as {@code dm_table_add_target} does.
 *
 * <pre>{@code
 * LayoutSpec disks = Layout.builder(KernelProfile.LINUX_6_1).disk("sdb", DiskSpec.of(...)).spec();
 * Layout host = Layout.of(DmTables.addTo(disks, Files.readString(Path.of("table.txt")), "table.txt"));
 * String again = DmTables.write(host);   // what dmsetup table would print, byte for byte
 * }</pre>
 */
public final class DmTables {

    private DmTables() {
    }

    /**
     * Reads {@code dmsetup table} output.
     *
     * @param text the output ({@code No devices found} reads as no device)
     * @param source its name for messages
     * @return the table of each device by dm name, in an order in which they can be created (a device after the
     *     devices it uses)
     * @throws FormatException naming {@code source:line:column}, what was found and what the kernel expects, for
     *     a malformed line, an unknown target type, bad target arguments or targets that do not follow each
     *     other from sector 0
     */
    public static Map<String, DmTable> read(String text, String source) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        return ModelProviders.formats().readDmTables(text, source);
    }

    /**
     * Adds the devices of {@code dmsetup table} output to a layout that has the devices below them: one
     * {@link dev.dmmodel.layout.LayoutStep.DmCreate} per device, in creation order, before the first volume
     * group import. {@code major:minor} references resolve to the layout's devices with those numbers.
     *
     * @throws FormatException as {@link #read(String, String)}, and naming the line of a reference to no device
     *     of the layout or the text
     * @throws dev.dmmodel.layout.LayoutException if {@code spec} does not build
     */
    public static LayoutSpec addTo(LayoutSpec spec, String text, String source) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        return ModelProviders.formats().addDmTables(spec, text, source);
    }

    /**
     * What {@code dmsetup table} prints for the layout's dm devices, byte for byte: devices sorted by name,
     * references as {@code major:minor}, thin-pool feature words in the kernel's order each followed by a
     * blank, {@code No devices found} without dm devices. The same as {@link Layout#dmsetupTable()}.
     */
    public static String write(Layout layout) {
        Objects.requireNonNull(layout, "layout");
        return ModelProviders.formats().writeDmTables(layout);
    }
}
