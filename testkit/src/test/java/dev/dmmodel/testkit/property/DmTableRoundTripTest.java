package dev.dmmodel.testkit.property;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.DevNumber;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.dm.DmTable;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.ErrorTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.dm.ThinPoolFeature;
import dev.dmmodel.dm.ThinPoolTarget;
import dev.dmmodel.dm.ThinTarget;
import dev.dmmodel.dm.ZeroTarget;
import dev.dmmodel.impl.dm.table.DmTableFormatter;
import dev.dmmodel.impl.dm.table.DmTableParser;
import dev.dmmodel.impl.dm.table.DmTables;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * {@code dmsetup table} text written by {@code impl.dm.table}'s formatter reads back to the same tables
 * (parse(format(tables)) == tables, and writing again gives the same text): for the dm devices of generated
 * stacks ({@link DmGens#stacks}, every kernel profile: linear and striped LVs, thin pools and volumes), and for
 * generated tables of every target type the model has (zero, error, external origins, pool features, sizes up
 * to 2^40 sectors). Tries as every property: 1000, {@code -Ddmmodel.tries} (or {@code -Pexhaustive}) overrides.
 */
class DmTableRoundTripTest {

    Gen<StackPlan> stacksOfEveryKernel() {
        return DmGens.kernelProfiles().flatMap(DmGens::stacks);
    }

    /**
     * A stack's tables written as {@code dmsetup table} prints them and read back with the stack's device
     * numbers are its tables, each reference to a dm device by its dm name and to any other by its kernel name.
     */
    @PropertyTest(tries = 1000)
    void stackTablesReadBackToTheSameTables(@ForAll("stacksOfEveryKernel") StackPlan plan) {
        Layout layout = plan.build();
        String text = DmTableFormatter.tables(layout);
        Map<String, DevNumber> numbers = new LinkedHashMap<>();
        Map<String, String> dmNameOf = new LinkedHashMap<>();
        for (BlockDevice d : layout.devices()) {
            if (d instanceof DmDevice dm) {
                numbers.put(dm.dmName(), dm.devNumber());
                dmNameOf.put(dm.name(), dm.dmName());
            } else {
                numbers.put(d.name(), d.devNumber());
            }
        }
        DmTables read = DmTableParser.parse(text, "stack", numbers);
        assertThat(read.devices()).hasSameSizeAs(layout.dmDevices());
        for (DmDevice dm : layout.dmDevices()) {
            DmTable expected = rename(dm.table(), n -> dmNameOf.getOrDefault(n, n));
            assertThat(read.device(dm.dmName())).as("%s in\n%s", dm.dmName(), text).hasValueSatisfying(
                    d -> assertThat(d.table()).isEqualTo(expected));
        }
        // every device after the dm devices its table uses
        List<String> order = read.devices().stream().map(DmTables.Device::name).toList();
        for (DmTables.Device d : read.devices()) {
            for (String dep : d.dependencies()) {
                assertThat(order.indexOf(dep)).as("%s before %s", dep, d.name()).isLessThan(order.indexOf(d.name()));
            }
        }
        assertThat(DmTableFormatter.tables(read, numbers)).isEqualTo(text);
        // without numbers the references stay major:minor and the text is the same
        assertThat(DmTableFormatter.tables(DmTableParser.parse(text, "stack"), Map.of())).isEqualTo(text);
    }

    /** Generated tables of every target type, devices as {@code major:minor}, read back to the same tables. */
    @PropertyTest(tries = 1000)
    void everyTargetTypeReadsBackToTheSameTable(@ForAll("tableSets") Map<String, DmTable> tables) {
        String text = DmTableFormatter.tables(tables, UnaryOperator.identity());
        DmTables read = DmTableParser.parse(text, "generated");
        assertThat(read.tables()).as(text).isEqualTo(tables);
        assertThat(DmTableFormatter.tables(read, Map.of())).isEqualTo(text);
    }

    Gen<Map<String, DmTable>> tableSets() {
        return s -> {
            int n = s.draw(Gen.ints(1, 4));
            Map<String, DmTable> out = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                out.put(s.draw(Gen.elements("vg-lv", "pool", "a", "thin_" + i, "x-y_z")) + i, s.draw(tables()));
            }
            return out;
        };
    }

    private static final Gen<String> DEVICES = Gen.elements("8:0", "8:16", "8:17", "259:3", "253:0", "253:1",
            "253:12", "254:1", "7:0");

    static Gen<DmTable> tables() {
        Gen<DmTable> pool = s -> {
            String meta = s.draw(DEVICES);
            String data = s.draw(DEVICES.filter(d -> !d.equals(meta)));
            Set<ThinPoolFeature> features = EnumSet.noneOf(ThinPoolFeature.class);
            for (ThinPoolFeature f : ThinPoolFeature.values()) {
                if (s.bool(0.4)) {
                    features.add(f);
                }
            }
            if (features.size() > ThinPoolTarget.MAX_FEATURES) { // pool_ctr takes at most four feature words
                features.remove(s.draw(Gen.elements(ThinPoolFeature.values())));
            }
            return new DmTable(List.of(new ThinPoolTarget(Sectors.ZERO, Sectors.of(s.draw(Gen.logScale(1, 1L << 40))),
                    meta, data, 128 * s.draw(Gen.choose(1, 16384)), s.draw(Gen.logScale(0, 1L << 40)), features)));
        };
        Gen<DmTable> mixed = s -> {
            int n = s.draw(Gen.ints(1, 4));
            List<DmTarget> targets = new ArrayList<>();
            Sectors at = Sectors.ZERO;
            for (int i = 0; i < n; i++) {
                DmTarget t = s.draw(target(at));
                targets.add(t);
                at = t.end();
            }
            return new DmTable(targets);
        };
        return Gen.frequency(Gen.weighted(1, pool), Gen.weighted(4, mixed));
    }

    private static Gen<DmTarget> target(Sectors at) {
        Gen<Sectors> length = Gen.logScale(1, 1L << 40).map(Sectors::of);
        Gen<Sectors> offset = Gen.logScale(0, 1L << 40).map(Sectors::of);
        Gen<DmTarget> linear = s -> new LinearTarget(at, s.draw(length), s.draw(DEVICES), s.draw(offset));
        Gen<DmTarget> striped = s -> {
            int stripes = s.draw(Gen.ints(1, 4));
            long chunk = s.draw(Gen.choose(8, 4096));
            List<StripedTarget.Stripe> list = new ArrayList<>();
            for (int i = 0; i < stripes; i++) {
                list.add(new StripedTarget.Stripe(s.draw(DEVICES), s.draw(offset)));
            }
            return new StripedTarget(at, Sectors.of(stripes * chunk * s.draw(Gen.choose(1, 1 << 16))), chunk, list);
        };
        Gen<DmTarget> thin = s -> {
            String pool = s.draw(DEVICES);
            Optional<String> origin = s.bool(0.3) ? Optional.of(s.draw(DEVICES.filter(d -> !d.equals(pool))))
                    : Optional.empty();
            return new ThinTarget(at, s.draw(length), pool, s.draw(Gen.choose(0, ThinTarget.MAX_DEVICE_ID)), origin);
        };
        Gen<DmTarget> zero = s -> new ZeroTarget(at, s.draw(length));
        Gen<DmTarget> error = s -> new ErrorTarget(at, s.draw(length));
        return Gen.oneOf(linear, striped, thin, zero, error);
    }

    private static DmTable rename(DmTable table, UnaryOperator<String> name) {
        List<DmTarget> out = new ArrayList<>();
        for (DmTarget t : table.targets()) {
            if (t instanceof LinearTarget x) {
                out.add(new LinearTarget(x.start(), x.length(), name.apply(x.device()), x.offset()));
            } else if (t instanceof StripedTarget x) {
                out.add(new StripedTarget(x.start(), x.length(), x.chunkSectors(), x.stripes().stream()
                        .map(st -> new StripedTarget.Stripe(name.apply(st.device()), st.offset())).toList()));
            } else if (t instanceof ThinPoolTarget x) {
                out.add(new ThinPoolTarget(x.start(), x.length(), name.apply(x.metadataDevice()),
                        name.apply(x.dataDevice()), x.blockSectors(), x.lowWaterMark(), x.features()));
            } else if (t instanceof ThinTarget x) {
                out.add(new ThinTarget(x.start(), x.length(), name.apply(x.poolDevice()), x.deviceId(),
                        x.externalOrigin().map(name)));
            } else {
                out.add(t);
            }
        }
        return new DmTable(out);
    }
}
