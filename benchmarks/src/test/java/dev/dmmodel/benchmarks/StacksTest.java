package dev.dmmodel.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.engine.JobResult;
import dev.dmmodel.engine.Simulation;
import dev.dmmodel.layout.Layout;
import dev.dmmodel.trace.EventType;
import dev.dmmodel.trace.TraceEvent;
import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.IoJob;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The benchmarks' fixtures build the stacks they claim, and a short run of each job has no error. */
class StacksTest {

    @Test
    void theLinearStackIsAnLvOnAPartition() {
        Layout layout = Stacks.linear();
        assertThat(layout.logicalVolume("vg", "lv")).isPresent();
        assertThat(layout.physicalVolume("sda1")).isPresent();
        assertThat(layout.device(Stacks.LINEAR_LV).size().count()).isEqualTo(Bytes.gib(32).count() / 512);
        assertThat(layout.dmsetupTable()).startsWith("vg-lv: 0 67108864 linear ");
    }

    @Test
    void theStripedStackIsTwoStripesOf64KiB() {
        Layout layout = Stacks.striped();
        assertThat(layout.logicalVolume("vg", "striped")).isPresent();
        // dmsetup: striped <#stripes> <chunk sectors> dev offset dev offset
        assertThat(layout.dmsetupTable()).contains(" striped 2 128 ");
    }

    @Test
    void theHugeStackHoldsA10TiBJob() {
        Layout layout = Stacks.linearHuge();
        assertThat(layout.device(Stacks.LINEAR_LV).size().count() * 512).isGreaterThanOrEqualTo(Bytes.tib(10).count());
        IoJob job = LongSequentialWriteMemory.job(Bytes.tib(10));
        assertThat(job.opCount()).isEqualTo(10L * 1024 * 1024);
    }

    @Test
    void eachBenchmarkJobRunsWithoutErrorAndReachesTheDisks() {
        for (String stack : List.of("linear", "striped", "raid5")) {
            Layout layout = stack.equals("linear") ? Stacks.linear() : stack.equals("raid5") ? Stacks.raid5()
                    : Stacks.striped();
            String target = stack.equals("linear") ? Stacks.LINEAR_LV : stack.equals("raid5") ? Stacks.RAID5_LV
                    : Stacks.STRIPED_LV;
            for (String workload : List.of("rand4k", "seq1m")) {
                List<TraceEvent> events = new ArrayList<>();
                IoJob job = BioEventThroughput.job(workload, target);
                // the first few writes only: the tests stay fast
                IoJob head = IoJob.builder().target(job.target()).write().direct().pattern(job.pattern())
                        .seed(job.seed()).blockSize(job.blockSize()).size(job.blockSize() * 8).build();
                JobResult r = Simulation.of(layout).run(head, events::add);
                assertThat(r.errors()).as(stack + " " + workload).isZero();
                assertThat(r.operations()).isEqualTo(8);
                assertThat(events).as(stack + " " + workload)
                        .anyMatch(e -> e.device().equals("sda") && e.type() == EventType.RQ_COMPLETE);
                if (stack.equals("striped") && workload.equals("seq1m")) {
                    assertThat(events).anyMatch(e -> e.device().equals("sdb") && e.type() == EventType.RQ_COMPLETE);
                }
            }
        }
    }
}
