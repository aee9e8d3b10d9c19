package dev.dmmodel.testkit.property.lvm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.io.LvmMetadata;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.AllocationPolicy;
import dev.dmmodel.lvm.LogicalVolume;
import dev.dmmodel.lvm.LvCreateRequest;
import dev.dmmodel.lvm.PhysicalVolume;
import dev.dmmodel.lvm.ThinDiscards;
import dev.dmmodel.lvm.ThinLvRequest;
import dev.dmmodel.lvm.ThinPoolRequest;
import dev.dmmodel.lvm.ThinSnapshotRequest;
import dev.dmmodel.lvm.VgCreateOptions;
import dev.dmmodel.lvm.VolumeGroup;
import dev.dmmodel.testkit.property.CoverageGate;
import dev.dmmodel.testkit.property.Gen;
import dev.dmmodel.testkit.property.Property;
import dev.dmmodel.testkit.property.PropertyResult;
import dev.dmmodel.testkit.property.Source;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * <b>Invariant: LVM text metadata reads back as the volume group written</b>: {@code read(write(vg))} equals
 * {@code vg} for volume groups the layout builder makes from generated steps — 1–4 disks made PVs, extent sizes
 * of 1–8 MiB, every allocation policy, VG names with a hyphen, linear and striped LVs, thin pools (chunk size,
 * zeroing, discards, error when full), thin LVs and thin snapshots. The reader does not know what the text does
 * not hold, so the VG is compared with its dm devices cleared, its PVs' metadata-area sizes zero and its LVs in
 * the order LVM writes them (visible, then hidden).
 *
 * <p>The text is written and read through the public API ({@link LvmMetadata#write}, {@link LvmMetadata#read}). A
 * failure shrinks to fewer disks and steps, smaller LVs, 1 MiB extents, the normal policy and linear LVs.
 */
class VgMetadataRoundTripTest {

    private static final long SEED = 0x5EED_1D3AL;

    /** A VG and the steps that made it, for the report. */
    record Case(VolumeGroup vg, List<String> steps) {
        @Override
        public String toString() {
            return String.join("\n", steps);
        }
    }

    @Test
    void readOfWriteIsTheVolumeGroup() {
        AtomicInteger thin = new AtomicInteger();
        AtomicInteger striped = new AtomicInteger();
        AtomicInteger snapshots = new AtomicInteger();
        PropertyResult result = Property.forAll(volumeGroups())
                .named("lvm-metadata-round-trip")
                .seed(SEED)
                .check(c -> {
                    VolumeGroup vg = c.vg();
                    String text = LvmMetadata.write(vg);
                    VolumeGroup back;
                    try {
                        back = LvmMetadata.read(text, "<written>");
                    } catch (RuntimeException e) {
                        throw new AssertionError("the written text does not read back: " + e + "\n" + text, e);
                    }
                    assertThat(back).as("%s", text).isEqualTo(expected(vg));
                    thin.addAndGet(vg.logicalVolumes().stream().anyMatch(l -> l.thin().isPresent()) ? 1 : 0);
                    striped.addAndGet(vg.logicalVolumes().stream()
                            .anyMatch(l -> l.segments().get(0).stripes() > 1) ? 1 : 0);
                    snapshots.addAndGet(c.steps().stream().anyMatch(s -> s.contains("ThinSnapshotRequest")) ? 1 : 0);
                });
        System.out.printf(Locale.ROOT, "[lvm-metadata-round-trip] %s; %d with thin LVs, %d striped, %d snapshots%n",
                result, thin.get(), striped.get(), snapshots.get());
        CoverageGate.assumeEnoughTries("lvm-metadata-round-trip", result.tries());
        // the generator does reach thin volumes, striped LVs and thin snapshots
        assertThat(thin.get()).isGreaterThan(result.tries() / 10);
        assertThat(striped.get()).isGreaterThan(result.tries() / 10);
        assertThat(snapshots.get()).isPositive();
    }

    static VolumeGroup expected(VolumeGroup vg) {
        List<PhysicalVolume> pvs = vg.physicalVolumes().stream()
                .map(p -> new PhysicalVolume(p.device(), p.devSize(), p.peStart(), Sectors.ZERO, Sectors.ZERO,
                        p.vgName(), p.peCount(), p.extentSize()))
                .toList();
        List<LogicalVolume> lvs = new ArrayList<>();
        vg.logicalVolumes().stream().filter(LogicalVolume::visible).map(l -> l.withDmDevice("")).forEach(lvs::add);
        vg.logicalVolumes().stream().filter(l -> !l.visible()).map(l -> l.withDmDevice("")).forEach(lvs::add);
        return new VolumeGroup(vg.name(), vg.extentSize(), pvs, lvs, vg.allocationPolicy());
    }

    private static Layout build(List<UnaryOperator<LayoutBuilder>> steps) {
        LayoutBuilder b = Layout.builder(KernelProfile.LINUX_6_1);
        for (UnaryOperator<LayoutBuilder> s : steps) {
            b = s.apply(b);
        }
        return b.build();
    }

    /**
     * VGs from generated steps; a step the builder refuses (no space, no pool...) is left out. Disks and LV steps
     * are spans of their own, so shrinking deletes them.
     */
    static Gen<Case> volumeGroups() {
        return s -> {
            List<UnaryOperator<LayoutBuilder>> steps = new ArrayList<>();
            List<String> java = new ArrayList<>();
            List<String> names = new ArrayList<>();
            while (names.isEmpty() || names.size() < 4 && s.bool(0.6)) {
                String name = "sd" + (char) ('a' + names.size());
                long mib = s.draw(Gen.logScale(64, 2111));
                names.add(name);
                steps.add(b -> b.disk(name, DiskPresets.qemuAhci().withSize(Bytes.mib(mib))).pvcreate(name));
                java.add(".disk(\"" + name + "\", DiskPresets.qemuAhci().withSize(Bytes.mib(" + mib + "))).pvcreate(\""
                        + name + "\")");
            }
            int disks = names.size();
            long extentMib = s.draw(Gen.powerOfTwo(1, 8, 4));
            AllocationPolicy policy = s.draw(Gen.elements(AllocationPolicy.NORMAL, AllocationPolicy.CONTIGUOUS,
                    AllocationPolicy.CLING, AllocationPolicy.ANYWHERE));
            String vgName = s.bool(0.5) ? "my-vg" + s.choice(9) : "vg";
            String[] pvs = names.toArray(new String[0]);
            steps.add(b -> b.vgcreate(vgName, new VgCreateOptions(Sectors.of(extentMib * 2048), policy), pvs));
            java.add(".vgcreate(\"" + vgName + "\", new VgCreateOptions(Sectors.of(" + extentMib * 2048
                    + "), AllocationPolicy." + policy + "), " + String.join(", ", names) + ")");
            build(steps);
            List<String> pools = new ArrayList<>();
            List<String> thins = new ArrayList<>();
            int i = 0;
            while (i < 7 && (i == 0 || s.bool(0.75))) {
                int index = i++;
                s.draw(src -> {
                    lvStep(src, index, disks, vgName, pools, thins, steps, java);
                    return null;
                });
            }
            Layout layout = build(steps);
            List<String> all = new ArrayList<>();
            all.add("Layout.builder(KernelProfile.LINUX_6_1)");
            java.forEach(j -> all.add("    " + j));
            return new Case(layout.volumeGroup(vgName).orElseThrow(), all);
        };
    }

    private static void lvStep(Source s, int i, int disks, String vgName, List<String> pools, List<String> thins,
                               List<UnaryOperator<LayoutBuilder>> steps, List<String> java) {
        // linear or striped (the simplest), thin pool, thin LV, thin snapshot
        int kind = (int) s.choice(3);
        String lv = "lv" + i;
        UnaryOperator<LayoutBuilder> step;
        String text;
        String pool = null;
        String thinName = null;
        if (kind == 0 || kind == 2 && pools.isEmpty() || kind == 3 && thins.isEmpty()) {
            long extents = s.draw(Gen.logScale(1, 60));
            LvCreateRequest.Builder q = LvCreateRequest.builder(lv).extents(extents);
            int stripes = (int) (1 + s.choice(disks - 1));
            text = "LvCreateRequest.builder(\"" + lv + "\").extents(" + extents + ")";
            if (stripes > 1) {
                long kib = s.draw(Gen.powerOfTwo(4, 512, 64));
                q.stripes(stripes).stripeSize(Bytes.kib(kib));
                text += ".stripes(" + stripes + ").stripeSize(Bytes.kib(" + kib + "))";
            }
            LvCreateRequest req = q.build();
            step = b -> b.lvcreate(vgName, req);
            text = ".lvcreate(\"" + vgName + "\", " + text + ".build())";
        } else if (kind == 1) {
            long extents = s.draw(Gen.logScale(1, 40));
            long chunkKib = s.draw(Gen.powerOfTwo(64, 1024));
            boolean zero = !s.bool(0.5);
            ThinDiscards discards = s.draw(Gen.elements(ThinDiscards.PASSDOWN, ThinDiscards.NOPASSDOWN,
                    ThinDiscards.IGNORE));
            boolean errorWhenFull = s.bool(0.5);
            ThinPoolRequest req = ThinPoolRequest.builder(lv).extents(extents).chunkSize(Bytes.kib(chunkKib))
                    .zero(zero).discards(discards).errorWhenFull(errorWhenFull).build();
            step = b -> b.lvcreateThinPool(vgName, req);
            text = ".lvcreateThinPool(\"" + vgName + "\", ThinPoolRequest.builder(\"" + lv + "\").extents(" + extents
                    + ").chunkSize(Bytes.kib(" + chunkKib + ")).zero(" + zero + ").discards(ThinDiscards." + discards
                    + ").errorWhenFull(" + errorWhenFull + ").build())";
            pool = lv;
        } else if (kind == 2) {
            long mib = s.draw(Gen.logScale(1, 512));
            String onPool = pools.get((int) s.choice(pools.size() - 1));
            ThinLvRequest req = ThinLvRequest.of(lv, mib + "M", onPool);
            step = b -> b.lvcreateThin(vgName, req);
            text = ".lvcreateThin(\"" + vgName + "\", ThinLvRequest.of(\"" + lv + "\", \"" + mib + "M\", \"" + onPool
                    + "\"))";
            thinName = lv;
        } else {
            String origin = thins.get((int) s.choice(thins.size() - 1));
            ThinSnapshotRequest req = new ThinSnapshotRequest(origin, lv);
            step = b -> b.lvcreateSnapshot(vgName, req);
            text = ".lvcreateSnapshot(\"" + vgName + "\", new ThinSnapshotRequest(\"" + origin + "\", \"" + lv
                    + "\"))";
            thinName = lv;
        }
        steps.add(step);
        try {
            build(steps);
            java.add(text);
            if (pool != null) {
                pools.add(pool);
            }
            if (thinName != null) {
                thins.add(thinName);
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            steps.remove(steps.size() - 1);
            java.add("// refused: " + text + ": " + e.getMessage());
        }
    }
}
