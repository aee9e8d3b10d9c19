package dev.dmmodel.impl.dm.multipath;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dmmodel.dm.MultipathTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** choose_pgpath, multipath_iterate_devices and multipath_status (STATUSTYPE_INFO). */
class MultipathModelTest {

    private static final Function<String, String> DEVNO = Map.of("sda", "8:0", "sdb", "8:16", "sdc", "8:32")::get;

    private static MultipathTarget target(String selector, List<String> args, int initial, List<List<String>> groups) {
        List<MultipathTarget.PriorityGroup> pgs = groups.stream().map(g -> new MultipathTarget.PriorityGroup(selector,
                g.stream().map(d -> new MultipathTarget.Path(d, args)).toList())).toList();
        return new MultipathTarget(Sectors.ZERO, Sectors.of(524288), MultipathTarget.QueueMode.REQUEST_BASED, false,
                false, 0, OptionalInt.empty(), Optional.empty(), List.of(), initial, pgs);
    }

    @Test
    void statusRightAfterTheTableIsLoadedIsTheRecordedOne() {
        // mpath-rr-*/snapshot/dmsetup-status.txt: 2 1 0 0 1 1 E 0 2 0 8:0 A 0 8:16 A 0 — QUEUE_IO still set, no
        // current group yet (next_pg is group 1, state E)
        MultipathModel rr = new MultipathModel(target("round-robin", List.of("1"), 1, List.of(List.of("sda", "sdb"))));
        assertThat(rr.status(DEVNO)).isEqualTo("2 1 0 0 1 1 E 0 2 0 8:0 A 0 8:16 A 0");
        // mpath-st-*: service-time shows in_flight_size and relative_throughput per path (info_args 2)
        MultipathModel st = new MultipathModel(target("service-time", List.of("1", "1"), 1,
                List.of(List.of("sda", "sdb"))));
        assertThat(st.status(DEVNO)).isEqualTo("2 1 0 0 1 1 E 0 2 2 8:0 A 0 0 1 8:16 A 0 0 1");
    }

    @Test
    void theFirstIoSwitchesToTheInitialGroupAndClearsQueueIo() {
        // __switch_pg without a hardware handler clears MPATHF_QUEUE_IO; the group becomes A (current)
        MultipathModel st = new MultipathModel(target("service-time", List.of("1", "1"), 1,
                List.of(List.of("sda", "sdb"))));
        TargetModel.RqMapping m = st.cloneAndMapRq(null, 0, 4096);
        assertThat(m.device()).isEqualTo("sda");
        // in flight until rq_end_io
        assertThat(st.status(DEVNO)).isEqualTo("2 0 0 0 1 1 A 0 2 2 8:0 A 0 4096 1 8:16 A 0 0 1");
        m.endIo().run();
        assertThat(st.status(DEVNO)).isEqualTo("2 0 0 0 1 1 A 0 2 2 8:0 A 0 0 1 8:16 A 0 0 1");
    }

    @Test
    void theInitialGroupIsUsedFirstAndKeptWhileItHasPaths() {
        // two groups, initial 2: choose_pgpath takes next_pg (group 2: sdc) and then stays with the current group
        MultipathModel m = new MultipathModel(target("round-robin", List.of("1"), 2,
                List.of(List.of("sda", "sdb"), List.of("sdc"))));
        assertThat(m.cloneAndMapRq(null, 0, 4096).device()).isEqualTo("sdc");
        assertThat(m.cloneAndMapRq(null, 8, 4096).device()).isEqualTo("sdc");
        assertThat(m.status(DEVNO)).isEqualTo("2 0 0 0 2 2 E 0 2 0 8:0 A 0 8:16 A 0 A 0 1 0 8:32 A 0");
    }

    @Test
    void everyPathIsADeviceAreaOverTheWholeTarget() {
        // multipath_iterate_devices: fn(ti, path, ti->begin, ti->len) for every path of every group
        MultipathModel m = new MultipathModel(target("round-robin", List.of("1"), 1,
                List.of(List.of("sda", "sdb"), List.of("sdc"))));
        assertThat(m.iterateDevices()).containsExactly(new TargetModel.DeviceArea("sda", 0, 524288),
                new TargetModel.DeviceArea("sdb", 0, 524288), new TargetModel.DeviceArea("sdc", 0, 524288));
        assertThat(m.requestBased()).isTrue();
        assertThat(m.numDiscardBios()).isEqualTo(1);
        assertThat(m.numWriteZeroesBios()).isEqualTo(1);
    }
}
