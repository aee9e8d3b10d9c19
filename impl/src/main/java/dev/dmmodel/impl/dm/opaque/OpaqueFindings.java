package dev.dmmodel.impl.dm.opaque;

import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.OpaqueTarget;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.finding.FindingType;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The finding of a dm device with targets the model does not implement. */
public final class OpaqueFindings {

    private OpaqueFindings() {
    }

    /** {@link FindingType#DM_TARGET_NOT_MODELLED} for the device, naming its unmodelled target types, if any. */
    public static void check(DmDevice dm, List<Finding> out) {
        Set<String> types = new LinkedHashSet<>();
        boolean recorded = true;
        for (DmTarget t : dm.table().targets()) {
            if (t instanceof OpaqueTarget o) {
                types.add(o.type());
                recorded &= o.limits().isPresent();
            }
        }
        if (types.isEmpty()) {
            return;
        }
        String names = String.join(", ", types);
        FindingType type = FindingType.DM_TARGET_NOT_MODELLED;
        out.add(new Finding(type, type.defaultSeverity(), dm.name(), dm.name() + " (" + dm.dmName() + ") has a "
                + names + " target, which the model does not implement: its limits are "
                + (recorded ? "the kernel's as recorded" : "those of the devices below it, without the target's own"
                        + " hints") + ", the devices above it are modelled, and I/O through it cannot be traced",
                "none needed for the layout; a trace of I/O through " + dm.name() + " stops there"));
    }
}
