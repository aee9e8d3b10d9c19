package dev.dmmodel.io;

import dev.dmmodel.lvm.LvmMetadataException;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.spi.ModelProviders;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * LVM's JSON reports ({@code --reportformat json} or {@code json_std}, LVM 2.02 and 2.03) read back into volume
 * groups: {@code lvm fullreport}, or {@code pvs} with {@code lvs -a --segments} (and optionally {@code vgs}).
 * Sizes must be exact: run the reports with {@code --units s} (or {@code b}); a rounded human size such as
 * {@code <10.00g} is refused, never guessed. The columns needed are in {@code -o +all}; a missing one is
 * named with the option that adds it.
 *
 * <pre>{@code
 * // lvm fullreport --reportformat json --units s -o +all > report.json
 * List<VolumeGroup> vgs = LvmReports.readFullReport(Files.readString(Path.of("report.json")), "report.json");
 * }</pre>
 *
 * <p>Reports sort their rows by name, so PVs and LVs come in name order, not in the order of the VG's
 * metadata.
 */
public final class LvmReports {

    private LvmReports() {
    }

    /**
     * Reads {@code lvm fullreport --reportformat json} output.
     *
     * @throws LvmMetadataException naming {@code source:line:column} for malformed JSON, a missing column, an
     *     inexact size, a segment type the model does not have or an inconsistency LVM would reject
     */
    public static List<VolumeGroup> readFullReport(String json, String source) {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(source, "source");
        return ModelProviders.formats().readLvmFullReport(json, source);
    }

    /**
     * Reads {@code pvs -o +all}, {@code lvs -a --segments -o +all} and optionally {@code vgs -o +all} output.
     *
     * @param pvsJson the {@code pvs} report
     * @param vgsJson the {@code vgs} report, if there is one (it adds the allocation policy and checks counts)
     * @param lvsSegmentsJson the {@code lvs -a --segments} report
     * @param source a name for messages (each report is named {@code source (pvs)}, {@code (vgs)}, {@code (lvs)})
     * @throws LvmMetadataException as {@link #readFullReport}
     */
    public static List<VolumeGroup> read(String pvsJson, Optional<String> vgsJson, String lvsSegmentsJson,
            String source) {
        Objects.requireNonNull(pvsJson, "pvsJson");
        Objects.requireNonNull(vgsJson, "vgsJson");
        Objects.requireNonNull(lvsSegmentsJson, "lvsSegmentsJson");
        Objects.requireNonNull(source, "source");
        return ModelProviders.formats().readLvmReports(pvsJson, vgsJson, lvsSegmentsJson, source);
    }
}
