package dev.dmmodel.testkit.property.md;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.device.DiskPresets;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.limits.KernelProfile;
import dev.dmmodel.lvm.RaidLvRequest;
import dev.dmmodel.testkit.property.DmGens;
import dev.dmmodel.testkit.property.ForAll;
import dev.dmmodel.testkit.property.Gen;
import dev.dmmodel.testkit.property.PropertyTest;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * LVM raid LVs (dm-raid over the md personalities) under random {@code dd} scripts: two to four small virtio PVs, a
 * raid1 LV over two or three of them or a raid5 LV over three or four (2 or 3 data stripes of 4 – 128 KiB), 1 – 16
 * extents of 4 MiB, shrinking to two disks and one extent. The trace is deterministic, every bio lies inside its
 * device, and a raid1 LV writes each of its sectors to every image at the same offset and reads each from one image.
 */
class RaidLvInvariantsTest {

    /** A raid LV stack and a workload on it. */
    record Case(KernelProfile profile, int disks, boolean raid5, int images, long stripeKib, long extents,
                Script script) {
        Layout build() {
            LayoutBuilder b = Layout.builder(profile);
            List<String> pvs = new ArrayList<>();
            for (int i = 0; i < disks; i++) {
                String d = "vd" + (char) ('a' + i);
                b.disk(d, DiskPresets.virtioBlk().withSize(Bytes.mib(256)));
                b.pvcreate(d);
                pvs.add(d);
            }
            b.vgcreate("vgr", pvs.toArray(new String[0]));
            Bytes size = Bytes.mib(4 * extents);
            RaidLvRequest r = raid5 ? RaidLvRequest.striped("r", "raid5", size, images - 1, Bytes.kib(stripeKib))
                    : RaidLvRequest.raid1("r", size, images - 1);
            return b.lvcreateRaid("vgr", r.withNosync().onPvs(pvs.subList(0, images).toArray(new String[0])))
                    .build();
        }

        @Override
        public String toString() {
            return (raid5 ? "raid5 -i " + (images - 1) + " -I " + stripeKib + "k" : "raid1 -m " + (images - 1))
                    + " over " + images + " of " + disks + " disks, " + extents + " extents, " + profile.name()
                    + ":\n    " + script.commands().stream().map(Command::line).collect(Collectors.joining("\n    "));
        }
    }

    Gen<Case> cases() {
        Gen<KernelProfile> profiles = Gen.elements(KernelProfile.LINUX_6_12, KernelProfile.LINUX_6_1,
                KernelProfile.LINUX_5_10, KernelProfile.LINUX_7_2);
        return profiles.flatMap(p -> s -> {
            boolean raid5 = s.bool(0.5);
            int images = raid5 ? 3 + (int) s.choice(1) : 2 + (int) s.choice(1);
            int disks = images + (int) s.choice(4 - images);
            long stripeKib = 4L << s.choice(5);
            long extents = 1 + s.choice(15);
            Case bare = new Case(p, disks, raid5, images, stripeKib, extents, new Script(List.of()));
            Script script = s.draw(DmGens.scripts(bare.build(), "/dev/vgr/r"));
            return new Case(p, disks, raid5, images, stripeKib, extents, script);
        });
    }

    private static List<TraceEvent> run(Layout layout, Script script) {
        return dev.dmmodel.testkit.property.TraceChecks.run(layout, script);
    }

    @PropertyTest(tries = 100)
    void theTraceIsDeterministic(@ForAll("cases") Case c) {
        assertThat(run(c.build(), c.script())).isEqualTo(run(c.build(), c.script()));
    }

    @PropertyTest(tries = 100)
    void everyBioLiesInsideItsDevice(@ForAll("cases") Case c) {
        Layout layout = c.build();
        dev.dmmodel.testkit.property.TraceChecks.assertInsideDevices(layout, run(layout, c.script()));
    }

    @PropertyTest(tries = 100)
    void aRaid1LvWritesEveryImageAndReadsOne(@ForAll("cases") Case c) {
        if (c.raid5()) {
            return;
        }
        Layout layout = c.build();
        String lv = layout.device("/dev/vgr/r").name();
        List<String> images = new ArrayList<>();
        for (int i = 0; i < c.images(); i++) {
            images.add(layout.device("/dev/mapper/vgr-r_rimage_" + i).name());
        }
        Map<Long, Integer> lvW = new HashMap<>();
        Map<Long, Integer> lvR = new HashMap<>();
        Map<String, Map<Long, Integer>> imageW = new HashMap<>();
        Map<Long, Integer> imageR = new HashMap<>();
        for (TraceEvent e : run(layout, c.script())) {
            if (e.type() != EventType.BIO_QUEUE || e.nrSectors() <= 0) {
                continue;
            }
            boolean w = e.rwbs().contains("W");
            for (long s = e.sector(); s < e.sector() + e.nrSectors(); s++) {
                if (e.device().equals(lv)) {
                    (w ? lvW : lvR).merge(s, 1, Integer::sum);
                } else if (images.contains(e.device())) {
                    if (w) {
                        imageW.computeIfAbsent(e.device(), k -> new HashMap<>()).merge(s, 1, Integer::sum);
                    } else {
                        imageR.merge(s, 1, Integer::sum);
                    }
                }
            }
        }
        for (String image : images) {
            assertThat(imageW.getOrDefault(image, Map.of())).as("sectors written to %s", image).isEqualTo(lvW);
        }
        assertThat(imageR).as("sectors read from the images").isEqualTo(lvR);
    }
}
