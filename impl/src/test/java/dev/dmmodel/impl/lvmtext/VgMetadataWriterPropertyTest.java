package dev.dmmodel.impl.lvmtext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
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
import dev.dmmodel.units.Bytes;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@code read(write(vg))} equals {@code vg} for volume groups the layout builder makes from seeded random
 * steps: disks, extent sizes and policies, linear and striped LVs, thin pools, thin LVs and thin snapshots.
 * The reader does not know what the text does not hold, so the VG is compared with its dm devices cleared,
 * its PVs' metadata-area sizes zero and its LVs in the order LVM writes them (visible, then hidden).
 */
class VgMetadataWriterPropertyTest {

    private static final long SEED = 0x5EED_1D3AL;
    private static final int TRIES = 1000;

    @Test
    void readOfWriteIsTheVolumeGroup() {
        Random seeds = new Random(SEED);
        int thin = 0;
        int striped = 0;
        for (int t = 0; t < TRIES; t++) {
            long seed = seeds.nextLong();
            VolumeGroup vg = generate(seed);
            String text = VgMetadataWriter.write(vg);
            VolumeGroup back;
            try {
                back = VgMetadataReader.read(text, "<seed " + seed + ">");
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + seed + " (base seed " + SEED + ", try " + t + "): " + e
                        + "\n" + text, e);
            }
            assertThat(back).as("seed %d (base seed %d, try %d):%n%s", seed, SEED, t, text).isEqualTo(expected(vg));
            thin += vg.logicalVolumes().stream().anyMatch(l -> l.thin().isPresent()) ? 1 : 0;
            striped += vg.logicalVolumes().stream().anyMatch(l -> l.segments().get(0).stripes() > 1) ? 1 : 0;
        }
        // the generator does reach thin volumes and striped LVs
        assertThat(thin).isGreaterThan(TRIES / 10);
        assertThat(striped).isGreaterThan(TRIES / 10);
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

    /** A VG from seeded steps; a step the builder refuses (no space, no pool...) is left out. */
    static VolumeGroup generate(long seed) {
        Random r = new Random(seed);
        List<UnaryOperator<LayoutBuilder>> steps = new ArrayList<>();
        int disks = 1 + r.nextInt(4);
        String[] names = new String[disks];
        for (int i = 0; i < disks; i++) {
            String name = "sd" + (char) ('a' + i);
            names[i] = name;
            long mib = 64 + r.nextInt(2048);
            steps.add(b -> b.disk(name, DiskPresets.qemuAhci().size(Bytes.mib(mib))).pvcreate(name));
        }
        long extentMib = new long[] {1, 2, 4, 4, 4, 8}[r.nextInt(6)];
        AllocationPolicy policy = r.nextInt(4) == 0
                ? new AllocationPolicy[] {AllocationPolicy.CONTIGUOUS, AllocationPolicy.CLING,
                    AllocationPolicy.ANYWHERE}[r.nextInt(3)]
                : AllocationPolicy.NORMAL;
        String vgName = r.nextBoolean() ? "vg" : "my-vg" + r.nextInt(10);
        steps.add(b -> b.vgcreate(vgName, new VgCreateOptions(Sectors.of(extentMib * 2048), policy), names));
        build(steps);
        List<String> pools = new ArrayList<>();
        List<String> thins = new ArrayList<>();
        int ops = 1 + r.nextInt(7);
        for (int i = 0; i < ops; i++) {
            int kind = r.nextInt(10);
            String lv = "lv" + i;
            UnaryOperator<LayoutBuilder> step;
            String pool = null;
            String thinName = null;
            if (kind < 4 || (kind >= 7 && pools.isEmpty()) || (kind == 9 && thins.isEmpty())) {
                LvCreateRequest.Builder q = LvCreateRequest.builder(lv).extents(1 + r.nextInt(60));
                int stripes = 1 + r.nextInt(disks);
                if (stripes > 1) {
                    q.stripes(stripes).stripeSize(Bytes.kib(4L << r.nextInt(8)));
                }
                LvCreateRequest req = q.build();
                step = b -> b.lvcreate(vgName, req);
            } else if (kind < 7) {
                ThinPoolRequest req = ThinPoolRequest.builder(lv).extents(1 + r.nextInt(40))
                        .chunkSize(Bytes.kib(64L << r.nextInt(5))).zero(r.nextBoolean())
                        .discards(ThinDiscards.values()[r.nextInt(3)]).errorWhenFull(r.nextBoolean()).build();
                step = b -> b.lvcreateThinPool(vgName, req);
                pool = lv;
            } else if (kind < 9) {
                ThinLvRequest req = ThinLvRequest.of(lv, (1 + r.nextInt(512)) + "M",
                        pools.get(r.nextInt(pools.size())));
                step = b -> b.lvcreateThin(vgName, req);
                thinName = lv;
            } else {
                ThinSnapshotRequest req = new ThinSnapshotRequest(thins.get(r.nextInt(thins.size())), lv);
                step = b -> b.lvcreateSnapshot(vgName, req);
                thinName = lv;
            }
            steps.add(step);
            try {
                build(steps);
                if (pool != null) {
                    pools.add(pool);
                }
                if (thinName != null) {
                    thins.add(thinName);
                }
            } catch (IllegalArgumentException | IllegalStateException e) {
                steps.remove(steps.size() - 1);
            }
        }
        return build(steps).volumeGroup(vgName).orElseThrow();
    }
}
