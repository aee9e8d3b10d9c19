package dev.dmmodel.lvm;

import dev.dmmodel.units.Bytes;
import java.util.List;
import java.util.Objects;

/**
 * An {@code lvconvert --type thin-pool --poolmetadata VG/META VG/DATA}: two existing linear or striped LVs
 * become a thin pool named as the data LV, the data LV its {@code <pool>_tdata} and the metadata LV its
 * {@code <pool>_tmeta}; the VG's pool metadata spare is created or grown to the metadata LV's size unless
 * refused, from the PVs (or extent ranges) named on the command line. Unset values ({@code null}) take LVM's
 * defaults.
 *
 * @param dataLv the LV that becomes the pool (and its data)
 * @param metadataLv {@code --poolmetadata}: the LV that becomes the pool's metadata
 * @param chunkSize {@code --chunksize}, or null for LVM's selection from data and metadata size
 * @param zero {@code --zero y|n}, or null for the default (zeroing on)
 * @param discards {@code --discards}, or null for the default ({@link ThinDiscards#PASSDOWN})
 * @param errorWhenFull {@code --errorwhenfull y}
 * @param chunkPolicy {@code allocation/thin_pool_chunk_size_policy}, for the device hints when no chunk size
 *     is given
 * @param poolMetadataSpare {@code --poolmetadataspare y|n}
 * @param pvs whole PVs for the spare (device references); empty = any PV of the VG unless ranges are given
 * @param pvRanges extent ranges for the spare ({@code /dev/sdb:0-0})
 */
public record ThinPoolConvertRequest(String dataLv, String metadataLv, Bytes chunkSize, Boolean zero,
                                     ThinDiscards discards, boolean errorWhenFull,
                                     ThinPoolRequest.ChunkPolicy chunkPolicy, boolean poolMetadataSpare,
                                     List<String> pvs, List<ExtentRange> pvRanges) {

    /** Rejects nulls where a value is required. */
    public ThinPoolConvertRequest {
        Objects.requireNonNull(dataLv, "dataLv");
        Objects.requireNonNull(metadataLv, "metadataLv");
        Objects.requireNonNull(chunkPolicy, "chunkPolicy");
        pvs = List.copyOf(pvs);
        pvRanges = List.copyOf(pvRanges);
    }

    /** The discards mode, the default when unset. */
    public ThinDiscards discardsOrDefault() {
        return discards == null ? ThinDiscards.PASSDOWN : discards;
    }

    /** Whether new blocks are zeroed, the default (yes) when unset. */
    public boolean zeroOrDefault() {
        return zero == null || zero;
    }

    /** {@code lvconvert --type thin-pool --poolmetadata META DATA} with every other value LVM's default. */
    public static ThinPoolConvertRequest of(String dataLv, String metadataLv) {
        return new ThinPoolConvertRequest(dataLv, metadataLv, null, null, null, false,
                ThinPoolRequest.ChunkPolicy.GENERIC, true, List.of(), List.of());
    }
}
