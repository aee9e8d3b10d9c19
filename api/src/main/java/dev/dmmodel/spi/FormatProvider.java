package dev.dmmodel.spi;

import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.lvm.VolumeGroup;
import java.nio.file.Path;

/**
 * The readers and writers behind {@code dev.dmmodel.io}, found with {@link java.util.ServiceLoader}
 * ({@code dmmodel-impl} provides them). Applications call the classes of {@code dev.dmmodel.io}, not this.
 */
public interface FormatProvider {

    /** See {@link HostSnapshot#read(Path)}. */
    HostSnapshot readSnapshot(Path directory);

    /** See {@link dev.dmmodel.io.LvmMetadata#read(String, String)}. */
    VolumeGroup readLvmMetadata(String text, String source);

    /** See {@link dev.dmmodel.io.LvmMetadata#write(VolumeGroup)}. */
    String writeLvmMetadata(VolumeGroup volumeGroup);
}
