package dev.dmmodel.testkit.property.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.engine.CommandResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.engine.ThinStats;
import dev.dmmodel.finding.Finding;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutBuilder;
import dev.dmmodel.testkit.property.DmGens;
import dev.dmmodel.testkit.property.ForAll;
import dev.dmmodel.testkit.property.Gen;
import dev.dmmodel.testkit.property.Property;
import dev.dmmodel.testkit.property.PropertyTest;
import dev.dmmodel.testkit.property.StackPlan;
import dev.dmmodel.workload.Command;
import java.util.List;
import java.util.Optional;

// docs/property-testing.md, "The property": this class is quoted there; keep them in step.
class ThinStoragePlannerTest {

    /** A host: 1–4 drives of 1 GiB to 1 TiB from dmmodel's presets, with random but valid limits. */
    record Host(List<StackPlan.Disk> disks, int volumes) {
        List<ThinStoragePlanner.Drive> drives() {
            return disks.stream().map(d -> new ThinStoragePlanner.Drive(d.name(), d.spec())).toList();
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("Host with " + volumes + " volume(s)");
            disks.forEach(d -> sb.append("\n    ").append(d));
            return sb.toString();
        }
    }

    Gen<Host> hosts() {
        return Gen.zip(DmGens.diskLists(1, 4, 1L << 30, 1L << 40), Gen.ints(1, 3), Host::new);
    }

    @PropertyTest(tries = 1000)
    void noLvIsMisalignedAndNoThinPoolDefeatsFullBlockOverwrites(@ForAll("hosts") Host host) {
        Optional<LayoutBuilder> plan = ThinStoragePlanner.plan(host.drives(), host.volumes());
        if (plan.isEmpty()) {
            // the planner may refuse only a host where some drive cannot take a 64 KiB I/O
            LayoutBuilder drives = Layout.builder(ThinStoragePlanner.KERNEL);
            host.drives().forEach(d -> drives.disk(d.name(), d.spec()));
            Layout bare = drives.build();
            assertThat(host.drives()).anyMatch(d -> bare.limits(d.name()).maxSectors() < 128);
            return;
        }
        Layout layout = plan.get().build();
        List<Finding> bad = layout.findings().stream()
                .filter(f -> f.id().startsWith("align.") || f.id().equals("thin.pool.block-larger-than-bio"))
                .toList();
        assertThat(bad).isEmpty();
    }

    Gen<Gen.Pair<Host, Long>> hostsAndBlockCounts() {
        return Gen.zip(hosts(), Gen.choose(1, 4));
    }

    /** The same promise, run: whole-block direct writes to a new thin volume provision without zeroing. */
    @PropertyTest(tries = 1000)
    void wholeBlockWritesToANewVolumeAreNeverZeroedFirst(@ForAll("hostsAndBlockCounts") Gen.Pair<Host, Long> p) {
        Host host = p.first();
        Optional<LayoutBuilder> plan = ThinStoragePlanner.plan(host.drives(), host.volumes());
        Property.assume(plan.isPresent());
        Layout layout = plan.get().build();
        long block = layout.volumeGroup("tank").orElseThrow().logicalVolume("pool").orElseThrow()
                .thinPool().orElseThrow().chunkSize().count() * 512;
        Simulation sim = Simulation.of(layout);
        CommandResult r = sim.execute(Command.parse("dd if=/dev/zero of=/dev/tank/vol0 bs=" + block + " count="
                + p.second() + " oflag=direct"), e -> { });
        assertThat(r.ok()).as(r.message()).isTrue();
        ThinStats stats = sim.thinStats().get(0);
        assertThat(stats.blocksProvisioned()).isEqualTo(p.second());
        assertThat(stats.partialFirstWrites()).as("partial first writes (largest bio %d sectors)",
                stats.largestBioSectors()).isZero();
        assertThat(stats.blocksZeroed()).isZero();
    }
}
