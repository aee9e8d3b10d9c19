package dev.dmmodel.lvm;

import dev.dmmodel.units.Sectors;
import java.util.Objects;

/**
 * {@code pvcreate} options and the {@code lvm.conf} settings that decide where the data area starts.
 * Zero sectors means "not given".
 *
 * @param dataAlignment {@code --dataalignment} (replaces every detected alignment)
 * @param dataAlignmentOffset {@code --dataalignmentoffset}
 * @param metadataSize {@code --metadatasize}; zero = the default (1 MiB − page size on 2.03, 255 sectors on 2.00)
 * @param metadataCopies {@code --pvmetadatacopies} 0, 1 or 2
 * @param defaultDataAlignmentMib {@code devices/default_data_alignment} in MiB (0 is treated as 1)
 * @param dataAlignmentDetection {@code devices/data_alignment_detection}
 * @param dataAlignmentOffsetDetection {@code devices/data_alignment_offset_detection}
 * @param version the LVM release whose rules apply
 */
public record PvCreateOptions(Sectors dataAlignment, Sectors dataAlignmentOffset, Sectors metadataSize,
                              int metadataCopies, long defaultDataAlignmentMib, boolean dataAlignmentDetection,
                              boolean dataAlignmentOffsetDetection, LvmVersion version) {

    /** {@code pvcreate DEV} with LVM 2.03 defaults. */
    public static final PvCreateOptions DEFAULTS = new PvCreateOptions(Sectors.ZERO, Sectors.ZERO, Sectors.ZERO, 1,
            1, true, true, LvmVersion.LVM2_2_03);

    /** {@code pvcreate DEV} as LVM2 2.00 (2003) did it. */
    public static final PvCreateOptions LEGACY_2_00 = DEFAULTS.withVersion(LvmVersion.LVM2_2_00);

    /** Rejects nulls and impossible copy counts. */
    public PvCreateOptions {
        Objects.requireNonNull(dataAlignment, "dataAlignment");
        Objects.requireNonNull(dataAlignmentOffset, "dataAlignmentOffset");
        Objects.requireNonNull(metadataSize, "metadataSize");
        Objects.requireNonNull(version, "version");
        if (metadataCopies < 0 || metadataCopies > 2) {
            throw new IllegalArgumentException("--pvmetadatacopies (" + metadataCopies + ") must be 0, 1 or 2");
        }
        if (defaultDataAlignmentMib < 0) {
            throw new IllegalArgumentException("devices/default_data_alignment (" + defaultDataAlignmentMib
                    + ") may not be negative");
        }
    }

    /** With {@code --dataalignment}. */
    public PvCreateOptions withDataAlignment(Sectors v) {
        return new PvCreateOptions(v, dataAlignmentOffset, metadataSize, metadataCopies, defaultDataAlignmentMib,
                dataAlignmentDetection, dataAlignmentOffsetDetection, version);
    }

    /** With {@code --dataalignmentoffset}. */
    public PvCreateOptions withDataAlignmentOffset(Sectors v) {
        return new PvCreateOptions(dataAlignment, v, metadataSize, metadataCopies, defaultDataAlignmentMib,
                dataAlignmentDetection, dataAlignmentOffsetDetection, version);
    }

    /** With {@code --metadatasize}. */
    public PvCreateOptions withMetadataSize(Sectors v) {
        return new PvCreateOptions(dataAlignment, dataAlignmentOffset, v, metadataCopies, defaultDataAlignmentMib,
                dataAlignmentDetection, dataAlignmentOffsetDetection, version);
    }

    /** With {@code --pvmetadatacopies}. */
    public PvCreateOptions withMetadataCopies(int v) {
        return new PvCreateOptions(dataAlignment, dataAlignmentOffset, metadataSize, v, defaultDataAlignmentMib,
                dataAlignmentDetection, dataAlignmentOffsetDetection, version);
    }

    /** With {@code devices/default_data_alignment}. */
    public PvCreateOptions withDefaultDataAlignmentMib(long v) {
        return new PvCreateOptions(dataAlignment, dataAlignmentOffset, metadataSize, metadataCopies, v,
                dataAlignmentDetection, dataAlignmentOffsetDetection, version);
    }

    /** With {@code devices/data_alignment_detection} and {@code data_alignment_offset_detection}. */
    public PvCreateOptions withDetection(boolean alignment, boolean offset) {
        return new PvCreateOptions(dataAlignment, dataAlignmentOffset, metadataSize, metadataCopies,
                defaultDataAlignmentMib, alignment, offset, version);
    }

    /** With another LVM release's rules. */
    public PvCreateOptions withVersion(LvmVersion v) {
        return new PvCreateOptions(dataAlignment, dataAlignmentOffset, metadataSize, metadataCopies,
                defaultDataAlignmentMib, dataAlignmentDetection, dataAlignmentOffsetDetection, v);
    }
}
