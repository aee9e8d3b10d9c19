package dev.dmmodel.io;

import dev.dmmodel.lvm.LvmMetadataException;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.spi.ModelProviders;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * LVM2 text metadata, the format of {@code vgcfgbackup} files and of the metadata areas on a PV: the grammar
 * and keys LVM 2.02 and 2.03 write, with the segment types dmmodel models (linear, striped, thin-pool, thin).
 *
 * <pre>{@code
 * VolumeGroup vg = LvmMetadata.read(Path.of("/etc/lvm/backup/vg0"));
 * String text = LvmMetadata.write(vg);   // what vgcfgbackup would write (ids and times made up)
 * }</pre>
 */
public final class LvmMetadata {

    private LvmMetadata() {
    }

    /**
     * Reads one volume group's metadata text.
     *
     * @param text the whole text
     * @param source the file name for messages, or {@code <input>}
     * @throws LvmMetadataException naming {@code source:line:column}, what was found and what was expected, for
     *     a syntax error, a missing or mistyped key, an inconsistency LVM rejects or a segment type the model
     *     does not have
     */
    public static VolumeGroup read(String text, String source) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
        return ModelProviders.formats().readLvmMetadata(text, source);
    }

    /**
     * Reads a metadata file (UTF-8); messages name the file.
     *
     * @throws LvmMetadataException as {@link #read(String, String)}
     * @throws IOException if the file cannot be read
     */
    public static VolumeGroup read(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        String text = Files.readString(file, StandardCharsets.UTF_8);
        return read(text, file.toString());
    }

    /**
     * The volume group as {@code vgcfgbackup} writes it. What the model does not keep (ids, sequence number,
     * creation times and host) is made up from the names, the same on every run.
     */
    public static String write(VolumeGroup volumeGroup) {
        Objects.requireNonNull(volumeGroup, "volumeGroup");
        return ModelProviders.formats().writeLvmMetadata(volumeGroup);
    }
}
