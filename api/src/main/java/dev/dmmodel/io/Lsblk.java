package dev.dmmodel.io;

import dev.dmmodel.spi.ModelProviders;
import java.util.Objects;

/**
 * {@code lsblk --json --bytes --output-all} output (util-linux; values as numbers or, before 2.33, strings):
 * whole disks with the queue limits lsblk shows ({@code log-sec}, {@code phy-sec}, {@code min-io},
 * {@code opt-io}, {@code alignment}, {@code disc-gran}, {@code disc-max}, {@code rota}, {@code ra}) and their
 * partitions (which need lsblk's {@code start} column, util-linux 2.38 and later). Device-mapper devices have
 * no table in lsblk's output: they are listed for {@link DmTables#addTo} with {@code dmsetup table} output.
 *
 * <pre>{@code
 * LsblkImport disks = Lsblk.read(Files.readString(Path.of("lsblk.json")), "lsblk.json");
 * LayoutSpec spec = DmTables.addTo(disks.toLayoutSpec(KernelProfile.LINUX_6_1),
 *         Files.readString(Path.of("table.txt")), "table.txt");
 * }</pre>
 *
 * <p>Limits lsblk does not show ({@code max_sectors_kb}, {@code max_segments}, {@code chunk_sectors},
 * {@code virt_boundary_mask}, ...) keep their defaults; a host snapshot ({@link HostSnapshot}) has them all.
 */
public final class Lsblk {

    private Lsblk() {
    }

    /**
     * Reads the output.
     *
     * @param json the JSON text
     * @param source its name for messages
     * @throws FormatException naming {@code source:line:column} for malformed JSON or a missing
     *     {@code blockdevices} array; a device that cannot be taken is left out with its reason in
     *     {@link LsblkImport#problems()}
     */
    public static LsblkImport read(String json, String source) {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(source, "source");
        return ModelProviders.formats().readLsblk(json, source);
    }
}
