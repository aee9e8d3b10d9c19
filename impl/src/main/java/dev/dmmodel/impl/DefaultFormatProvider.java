package dev.dmmodel.impl;

import dev.dmmodel.impl.lvmtext.VgMetadataReader;
import dev.dmmodel.impl.lvmtext.VgMetadataWriter;
import dev.dmmodel.impl.snapshot.Snapshot;
import dev.dmmodel.io.HostSnapshot;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.spi.FormatProvider;
import java.nio.file.Path;

/** The format readers and writers the API finds through {@link java.util.ServiceLoader}. */
public final class DefaultFormatProvider implements FormatProvider {

    /** Public no-argument constructor for the service loader. */
    public DefaultFormatProvider() {
    }

    @Override
    public HostSnapshot readSnapshot(Path directory) {
        return Snapshot.read(directory).toHostSnapshot();
    }

    @Override
    public VolumeGroup readLvmMetadata(String text, String source) {
        return VgMetadataReader.read(text, source);
    }

    @Override
    public String writeLvmMetadata(VolumeGroup volumeGroup) {
        return VgMetadataWriter.write(volumeGroup);
    }
}
