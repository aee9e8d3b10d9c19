package dev.dmmodel.impl.dm.table;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DevNumber;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ErrorTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.dm.ZeroTarget;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutSpec;
import dev.dmmodel.layout.LayoutStep;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Puts tables read by {@link DmTableParser} into a layout that already has the devices below them (disks and
 * partitions from the builder or from an import): one {@link LayoutStep.DmCreate} per dm device, in the
 * tables' creation order, placed before the first {@link LayoutStep.ImportVolumeGroup} (whose LVs are matched
 * to dm devices created before) or at the end.
 *
 * <p>References become what the layout resolves: a dm device of the tables its dm name; {@code major:minor}
 * the device of the layout with that number (or the dm device of the tables given that number in
 * {@link Identity}); a path or name is kept if the layout or the tables know it.
 */
public final class DmTableImport {

    /**
     * What {@code dmsetup table} does not print about a dm device: its uuid, kernel name and number
     * ({@code dmsetup info}, {@code /sys/block/dm-N/}).
     *
     * @param uuid the dm uuid, empty for none
     * @param kernelName the kernel name ({@code dm-3}), or empty to number in creation order
     * @param devNumber the device number, or empty to number in creation order
     */
    public record Identity(String uuid, Optional<String> kernelName, Optional<DevNumber> devNumber) {
        /** Rejects nulls. */
        public Identity {
            Objects.requireNonNull(uuid, "uuid");
            Objects.requireNonNull(kernelName, "kernelName");
            Objects.requireNonNull(devNumber, "devNumber");
        }

        /** No uuid, numbered in creation order. */
        public static Identity none() {
            return new Identity("", Optional.empty(), Optional.empty());
        }
    }

    private DmTableImport() {
    }

    /** {@link #addTo(LayoutSpec, DmTables, Map, String)} without identities. */
    public static LayoutSpec addTo(LayoutSpec spec, DmTables tables, String source) {
        return addTo(spec, tables, Map.of(), source);
    }

    /**
     * The spec with a {@code dmsetup create} step for every device of {@code tables}.
     *
     * @param spec the layout with the devices the tables use (its steps before the first volume group import are
     *     built once to learn their names and numbers)
     * @param tables the tables
     * @param identities uuid, kernel name and number by dm name; a device without one gets
     *     {@link Identity#none()}
     * @param source the tables' name for messages
     * @throws DmTableException naming the device's first line if a reference names no device of the layout or
     *     of the tables
     * @throws dev.dmmodel.layout.LayoutException if {@code spec} does not build
     */
    public static LayoutSpec addTo(LayoutSpec spec, DmTables tables, Map<String, Identity> identities,
                                   String source) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(tables, "tables");
        Objects.requireNonNull(identities, "identities");
        Objects.requireNonNull(source, "source");
        List<LayoutStep> steps = new ArrayList<>(spec.steps());
        int at = steps.size();
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i) instanceof LayoutStep.ImportVolumeGroup) {
                at = i;
                break;
            }
        }
        // the devices the new steps can use: those of the steps before them
        Layout base = Layout.of(new LayoutSpec(spec.profile(), steps.subList(0, at)));
        Map<DevNumber, String> byNumber = new HashMap<>();
        for (BlockDevice d : base.devices()) {
            byNumber.put(d.devNumber(), d.name());
        }
        Set<String> dmNames = tables.devices().stream().map(DmTables.Device::name).collect(Collectors.toSet());
        identities.forEach((name, id) -> id.devNumber().ifPresent(n -> {
            if (dmNames.contains(name)) {
                byNumber.put(n, name);
            }
        }));
        List<LayoutStep> creates = new ArrayList<>();
        for (DmTables.Device d : tables.devices()) {
            Identity id = identities.getOrDefault(d.name(), Identity.none());
            DmTable table = translate(d, base, dmNames, byNumber, source);
            creates.add(new LayoutStep.DmCreate(d.name(), id.uuid(), table, id.kernelName(), id.devNumber()));
        }
        steps.addAll(at, creates);
        return new LayoutSpec(spec.profile(), steps);
    }

    private static DmTable translate(DmTables.Device d, Layout base, Set<String> dmNames,
                                     Map<DevNumber, String> byNumber, String source) {
        List<DmTarget> out = new ArrayList<>();
        for (DmTarget t : d.table().targets()) {
            out.add(translate(t, ref -> reference(d, ref, base, dmNames, byNumber, source)));
        }
        return new DmTable(out);
    }

    private static String reference(DmTables.Device d, String ref, Layout base, Set<String> dmNames,
                                    Map<DevNumber, String> byNumber, String source) {
        if (dmNames.contains(ref)) {
            return ref;
        }
        if (ref.matches("\\d+:\\d+")) {
            String name = byNumber.get(DevNumber.parse(ref));
            if (name != null) {
                return name;
            }
        } else if (base.find(ref).isPresent() || (ref.startsWith("/dev/mapper/")
                && dmNames.contains(ref.substring("/dev/mapper/".length())))) {
            return ref;
        }
        throw new DmTableException(source, d.line(), 0, "device " + ref + " in the table of " + d.name()
                + ", which is neither a device of the layout nor of the tables",
                "a device of the layout (" + base.devices().stream().map(b -> b.name() + " " + b.devNumber())
                        .collect(Collectors.joining(", ")) + ") or of the tables");
    }

    private static DmTarget translate(DmTarget t, java.util.function.UnaryOperator<String> ref) {
        if (t instanceof LinearTarget x) {
            return new LinearTarget(x.start(), x.length(), ref.apply(x.device()), x.offset());
        }
        if (t instanceof StripedTarget x) {
            return new StripedTarget(x.start(), x.length(), x.chunkSectors(), x.stripes().stream()
                    .map(s -> new StripedTarget.Stripe(ref.apply(s.device()), s.offset())).toList());
        }
        if (t instanceof ThinPoolTarget x) {
            return new ThinPoolTarget(x.start(), x.length(), ref.apply(x.metadataDevice()), ref.apply(x.dataDevice()),
                    x.blockSectors(), x.lowWaterMark(), x.features());
        }
        if (t instanceof ThinTarget x) {
            return new ThinTarget(x.start(), x.length(), ref.apply(x.poolDevice()), x.deviceId(),
                    x.externalOrigin().map(ref));
        }
        if (t instanceof ZeroTarget || t instanceof ErrorTarget) {
            return t;
        }
        if (t instanceof dev.dmmodel.dm.SnapshotOriginTarget x) {
            return new dev.dmmodel.dm.SnapshotOriginTarget(x.start(), x.length(), ref.apply(x.device()));
        }
        if (t instanceof dev.dmmodel.dm.SnapshotTarget x) {
            return new dev.dmmodel.dm.SnapshotTarget(x.start(), x.length(), ref.apply(x.originDevice()),
                    ref.apply(x.cowDevice()), x.store(), x.chunkSectors(), x.discardZeroesCow(),
                    x.discardPassdownOrigin());
        }
        if (t instanceof dev.dmmodel.dm.CacheTarget x) {
            return new dev.dmmodel.dm.CacheTarget(x.start(), x.length(), ref.apply(x.metadataDevice()),
                    ref.apply(x.cacheDevice()), ref.apply(x.originDevice()), x.blockSectors(), x.features(), x.policy(),
                    x.policyArgs());
        }
        if (t instanceof dev.dmmodel.dm.WritecacheTarget x) {
            return new dev.dmmodel.dm.WritecacheTarget(x.start(), x.length(), x.pmem(), ref.apply(x.originDevice()),
                    ref.apply(x.cacheDevice()), x.blockSize(), x.options());
        }
        if (t instanceof dev.dmmodel.dm.RaidTarget x) {
            return x.withDevices(ref);
        }
        throw new IllegalStateException("unknown target " + t);
    }
}
