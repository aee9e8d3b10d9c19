package dev.dmmodel.dm;

import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code thin}: thin device {@code deviceId} of the pool device {@code poolDevice}, optionally with an
 * external origin ({@code dm-thin.c: thin_ctr}).
 *
 * @param start first sector in the dm device
 * @param length the virtual size mapped
 * @param poolDevice kernel name of the thin-pool device
 * @param deviceId the thin device id, 0 … 2^24 − 1
 * @param externalOrigin kernel name of a read-only external origin, if any
 */
public record ThinTarget(Sectors start, Sectors length, String poolDevice, long deviceId,
                         Optional<String> externalOrigin) implements DmTarget {

    /** The largest thin device id ({@code MAX_DEV_ID}, 2^24 − 1). */
    public static final long MAX_DEVICE_ID = (1L << 24) - 1;

    /** Rejects nulls and out-of-range ids. */
    public ThinTarget {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(length, "length");
        Objects.requireNonNull(poolDevice, "poolDevice");
        Objects.requireNonNull(externalOrigin, "externalOrigin");
        Targets.requirePositive("thin", length);
        if (deviceId < 0 || deviceId > MAX_DEVICE_ID) {
            throw new IllegalArgumentException("thin: device id (" + deviceId + ") must be between 0 and " + MAX_DEVICE_ID);
        }
    }

    @Override
    public String type() {
        return "thin";
    }

    @Override
    public List<String> devices() {
        return externalOrigin.map(o -> List.of(poolDevice, o)).orElse(List.of(poolDevice));
    }

    @Override
    public String arguments(Function<String, String> fmt) {
        return fmt.apply(poolDevice) + " " + deviceId + externalOrigin.map(o -> " " + fmt.apply(o)).orElse("");
    }

    @Override
    public ThinTarget at(Sectors newStart) {
        return new ThinTarget(newStart, length, poolDevice, deviceId, externalOrigin);
    }
}
