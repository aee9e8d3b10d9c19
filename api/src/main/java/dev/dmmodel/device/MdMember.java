package dev.dmmodel.device;

import dev.dmmodel.units.Sectors;
import java.util.Objects;

/**
 * One member of an md array ({@code struct md_rdev}), as {@code /sys/block/mdN/md/dev-<kname>/} shows it.
 *
 * @param device the member device: its kernel name ({@code vdb}, {@code sda1}) or any reference a layout resolves
 * @param slot its role, {@code md/dev-<kname>/slot}: 0 to raid disks − 1
 * @param dataOffset where the array's data starts on the member, {@code md/dev-<kname>/offset} (metadata 1.2 on a
 *     1 GiB disk: 4096 sectors)
 * @param dataSize the data area the array may use on the member, {@code md/dev-<kname>/size} (shown in KiB)
 */
public record MdMember(String device, int slot, Sectors dataOffset, Sectors dataSize) {

    /** Rejects nulls and negative slots. */
    public MdMember {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(dataOffset, "dataOffset");
        Objects.requireNonNull(dataSize, "dataSize");
        if (slot < 0) {
            throw new IllegalArgumentException("md member " + device + ": slot " + slot
                    + " is negative (a spare has no slot; the model takes active members only)");
        }
    }
}
