package dev.dmmodel.device;

import dev.dmmodel.units.Bytes;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code mdadm --create}: what the command line says, with mdadm's defaults left empty for the model to apply
 * (chunk 512 KiB, metadata 1.2 with its data offset, left-symmetric for raid5/6, near=2 for raid10).
 *
 * <pre>{@code
 * // mdadm --create /dev/md0 --level=5 --raid-devices=4 --chunk=64 --assume-clean /dev/vd[a-d]
 * MdadmCreateRequest.of("md0", MdLevel.RAID5, "vda", "vdb", "vdc", "vdd").withChunk(Bytes.kib(64)).withAssumeClean()
 * }</pre>
 *
 * @param name the array's kernel name ({@code md0}; {@code /dev/md0} and {@code /dev/md/0} are accepted)
 * @param level {@code --level}
 * @param devices the member devices in slot order ({@code --raid-devices} of them); {@code missing} leaves a slot
 *     empty
 * @param chunk {@code --chunk}, empty for mdadm's default (512 KiB; none for raid1)
 * @param layout {@code --layout} as mdadm names it ({@code left-symmetric}, {@code n2}, {@code f2}, {@code o2},
 *     {@code parity-last}, ...), empty for the level's default
 * @param metadata {@code --metadata}: {@code 1.2} (the default), {@code 1.1}, {@code 1.0} or {@code 0.90}
 * @param dataOffset {@code --data-offset}, empty for mdadm's choice
 * @param assumeClean {@code --assume-clean}: no initial resync (the model always takes the array as in sync)
 */
public record MdadmCreateRequest(String name, MdLevel level, List<String> devices, Optional<Bytes> chunk,
                                 Optional<String> layout, String metadata, Optional<Bytes> dataOffset,
                                 boolean assumeClean) {

    /** Rejects nulls and an empty member list. */
    public MdadmCreateRequest {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(level, "level");
        devices = List.copyOf(devices);
        Objects.requireNonNull(chunk, "chunk");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(dataOffset, "dataOffset");
        if (devices.isEmpty()) {
            throw new IllegalArgumentException("mdadm: no devices given for " + name);
        }
    }

    /**
     * The kernel name of the array: {@code md0}, {@code /dev/md0} and {@code /dev/md/0} are {@code md0}; empty for a
     * named array ({@code /dev/md/home}), whose kernel name mdadm chooses when it runs.
     */
    public Optional<String> kernelName() {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?:/dev/)?md/?(\\d{1,6})").matcher(name);
        return m.matches() ? Optional.of("md" + Integer.parseInt(m.group(1))) : Optional.empty();
    }

    /** An array of the level over the devices, every option at mdadm's default. */
    public static MdadmCreateRequest of(String name, MdLevel level, String... devices) {
        return new MdadmCreateRequest(name, level, List.of(devices), Optional.empty(), Optional.empty(), "1.2",
                Optional.empty(), false);
    }

    /** With {@code --chunk}. */
    public MdadmCreateRequest withChunk(Bytes c) {
        return new MdadmCreateRequest(name, level, devices, Optional.of(c), layout, metadata, dataOffset, assumeClean);
    }

    /** With {@code --layout}. */
    public MdadmCreateRequest withLayout(String l) {
        return new MdadmCreateRequest(name, level, devices, chunk, Optional.of(l), metadata, dataOffset, assumeClean);
    }

    /** With {@code --metadata}. */
    public MdadmCreateRequest withMetadata(String m) {
        return new MdadmCreateRequest(name, level, devices, chunk, layout, m, dataOffset, assumeClean);
    }

    /** With {@code --data-offset}. */
    public MdadmCreateRequest withDataOffset(Bytes o) {
        return new MdadmCreateRequest(name, level, devices, chunk, layout, metadata, Optional.of(o), assumeClean);
    }

    /** With {@code --assume-clean}. */
    public MdadmCreateRequest withAssumeClean() {
        return new MdadmCreateRequest(name, level, devices, chunk, layout, metadata, dataOffset, true);
    }
}
