package dev.dmmodel.impl.dm.multipath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.MultipathTarget;
import dev.dmmodel.impl.dm.table.DmTableException;
import dev.dmmodel.impl.dm.table.DmTableParser;
import dev.dmmodel.impl.dm.table.DmTables;
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** multipath_ctr's parsers and their error texts, and dmsetup table text → MultipathTarget → text. */
class MultipathTargetTypeTest {

    private static MultipathTarget mp(String args) {
        DmTables t = DmTableParser.parse("mp: 0 524288 multipath " + args + "\n", "t.txt");
        DmTarget target = t.devices().get(0).table().targets().get(0);
        assertThat(target).isInstanceOf(MultipathTarget.class);
        return (MultipathTarget) target;
    }

    private static String error(String args) {
        DmTableException e = catchThrowableOfType(() -> DmTableParser.parse("mp: 0 524288 multipath " + args + "\n",
                "t.txt"), DmTableException.class);
        assertThat(e).as("a DmTableException for '%s'", args).isNotNull();
        return e.getMessage();
    }

    private static String printed(String args) {
        return mp(args).arguments(Function.identity());
    }

    @Test
    void theRecordedRoundRobinTable() {
        // mpath-rr-*: 0 0 1 1 round-robin 0 2 1 8:0 1 8:16 1
        MultipathTarget m = mp("0 0 1 1 round-robin 0 2 1 8:0 1 8:16 1");
        assertThat(m).isEqualTo(new MultipathTarget(Sectors.ZERO, Sectors.of(524288),
                MultipathTarget.QueueMode.REQUEST_BASED, false, false, 0, OptionalInt.empty(), Optional.empty(),
                List.of(), 1, List.of(new MultipathTarget.PriorityGroup("round-robin", List.of(
                        new MultipathTarget.Path("8:0", List.of("1")), new MultipathTarget.Path("8:16", List.of("1")))))));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // as the setups asked | as the kernel printed (dmsetup-table.txt of the mpath-* cases)
        "0 0 1 1 round-robin 0 2 1 8:0 1 8:16 1|0 0 1 1 round-robin 0 2 1 8:0 1 8:16 1",
        "0 0 1 1 service-time 0 2 2 8:16 1 1 8:0 1 1|0 0 1 1 service-time 0 2 2 8:16 1 1 8:0 1 1",
        // alloc_multipath_stage2: bio-based retains the attached handler, so three feature words
        "2 queue_mode bio 0 1 1 round-robin 0 2 1 8:0 1 8:16 1"
                + "|3 retain_attached_hw_handler queue_mode bio 0 1 1 round-robin 0 2 1 8:0 1 8:16 1",
        // multipath_status's feature order; rq and mq are the default and not printed; names are strcasecmp'd
        "5 QUEUE_MODE mq pg_init_retries 3 queue_if_no_path 0 1 1 round-robin 0 1 0 8:0"
                + "|3 queue_if_no_path pg_init_retries 3 0 1 1 round-robin 0 1 1 8:0 1",
        "2 pg_init_delay_msecs 0 0 1 1 round-robin 0 1 1 8:0 1|2 pg_init_delay_msecs 0 0 1 1 round-robin 0 1 1 8:0 1",
        // the handler prints as its name only; bio-based ignores a handler (parse_hw_handler)
        "0 2 alua 1 1 1 round-robin 0 1 1 8:0 1|0 1 alua 1 1 round-robin 0 1 1 8:0 1",
        "2 queue_mode bio 1 alua 1 1 round-robin 0 1 1 8:0 1"
                + "|3 retain_attached_hw_handler queue_mode bio 0 1 1 round-robin 0 1 1 8:0 1",
        // the selectors ignore their own arguments and print 0; repeat_count > 1 becomes 1 (deprecated);
        // service-time's defaults are repeat_count 1, relative_throughput 1; it prints both
        "0 0 1 1 round-robin 2 a b 2 1 8:0 1000 8:16 7|0 0 1 1 round-robin 0 2 1 8:0 1 8:16 1",
        "0 0 1 1 service-time 0 2 0 8:0 8:16|0 0 1 1 service-time 0 2 2 8:0 1 1 8:16 1 1",
        "0 0 1 1 service-time 0 2 1 8:0 0 8:16 9|0 0 1 1 service-time 0 2 2 8:0 0 1 8:16 1 1",
        "0 0 1 1 service-time 0 1 2 8:0 1 100|0 0 1 1 service-time 0 1 2 8:0 1 100",
        // an initial group beyond the last is never next_pg: the kernel starts with and prints group 1
        "0 0 2 3 round-robin 0 1 1 8:0 1 round-robin 0 1 1 8:16 1|0 0 2 1 round-robin 0 1 1 8:0 1 round-robin 0 1 1 8:16 1",
        "0 0 0 0|0 0 0 0",
    })
    void theKernelPrintsTheTableBackItsOwnWay(String asked, String kernel) {
        assertThat(printed(asked)).isEqualTo(kernel);
        // what it printed reads back as the same target
        assertThat(printed(kernel)).isEqualTo(kernel);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "9 a b c d e f g h i 0 1 1 round-robin 0 1 1 8:0 1|invalid number of feature args",
        "8 queue_if_no_path 0|Insufficient arguments",
        "1 frobnicate 0 1 1 round-robin 0 1 1 8:0 1|Unrecognised multipath feature request",
        "1 pg_init_retries 0 1 1 round-robin 0 1 1 8:0 1|Unrecognised multipath feature request",
        "2 pg_init_retries 51 0 1 1 round-robin 0 1 1 8:0 1|pg_init_retries must be between 1 and 50",
        "2 pg_init_retries 0 0 1 1 round-robin 0 1 1 8:0 1|pg_init_retries must be between 1 and 50",
        "2 pg_init_delay_msecs 60001 0 1 1 round-robin 0 1 1 8:0 1|pg_init_delay_msecs must be between 0 and 60000",
        "2 queue_mode request 0 1 1 round-robin 0 1 1 8:0 1|Unknown 'queue_mode' requested",
        "0 1025 1 1 round-robin 0 1 1 8:0 1|invalid number of hardware handler args",
        "0 0 1025 1|invalid number of priority groups",
        "0 0 1 2000 round-robin 0 1 1 8:0 1|invalid initial priority group number",
        "0 0 1 0 round-robin 0 1 1 8:0 1|invalid initial priority group",
        "0 0 0 1|invalid initial priority group",
        "0 0 1 1 round-robin|not enough priority group arguments",
        "0 0 1 1 least-pending 0 1 1 8:0 1|unknown path selector type",
        "0 0 1 1 round-robin 1025 1 1 8:0 1|invalid number of path selector args",
        "0 0 1 1 round-robin 0 0 1 8:0 1|invalid number of paths",
        "0 0 1 1 round-robin 0 1 1025 8:0 1|invalid number of selector args",
        "0 0 1 1 round-robin 0 2 1 8:0 1 8:16|not enough path parameters",
        "0 0 1 1 round-robin 0 1 2 8:0 1 1|round-robin ps: incorrect number of arguments",
        "0 0 1 1 round-robin 0 1 1 8:0 x|round-robin ps: invalid repeat count",
        "0 0 1 1 service-time 0 1 3 8:0 1 1 1|service-time ps: incorrect number of arguments",
        "0 0 1 1 service-time 0 1 1 8:0 -1|service-time ps: invalid repeat count",
        "0 0 1 1 service-time 0 1 2 8:0 1 101|service-time ps: invalid relative_throughput value",
        "0 0 1 1 queue-length 0 1 1 8:0 1x|queue-length ps: invalid repeat count",
        "0 0 1 1 round-robin 0 1 1 8:x 1|error getting device",
        "0 0 1 1 round-robin 0 1 1 8:0 1 round-robin 0 1 1 8:16 1|priority group count mismatch",
        "0 0 2 1 round-robin 0 1 1 8:0 1|priority group count mismatch",
    })
    void multipathCtrRefusesWithTheKernelsText(String args, String kernelText) {
        assertThat(error(args)).contains(kernelText);
    }

    @Test
    void multipathIsASingletonTarget() {
        // multipath_target.features has DM_TARGET_SINGLETON: dm_table_add_target refuses a second target
        DmTableException e = catchThrowableOfType(() -> DmTableParser.parse(
                "mp: 0 1024 multipath 0 0 1 1 round-robin 0 1 1 8:0 1\nmp: 1024 1024 linear 8:16 0\n", "t.txt"),
                DmTableException.class);
        assertThat(e).isNotNull();
        assertThat(e.getMessage()).contains("a multipath target beside 1 other target(s)")
                .contains("singleton target type must appear alone in table");
    }

    @Test
    void theErrorNamesTheValueAndTheLine() {
        // the relative_throughput 101 is refused at its path's device argument, in the line quoted
        assertThat(error("0 0 1 1 service-time 0 1 2 8:0 1 101")).contains("'8:0'")
                .contains("multipath 0 0 1 1 service-time 0 1 2 8:0 1 101");
    }

    @Test
    void theRecordRefusesWhatTheKernelCannotHold() {
        MultipathTarget.PriorityGroup g = new MultipathTarget.PriorityGroup("round-robin",
                List.of(new MultipathTarget.Path("sda", List.of("1"))));
        assertThatThrownBy(() -> new MultipathTarget(Sectors.ZERO, Sectors.of(8), MultipathTarget.QueueMode.BIO_BASED,
                false, false, 0, OptionalInt.empty(), Optional.of("alua"), List.of(), 1, List.of(g)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bio-based multipath doesn't allow");
        assertThatThrownBy(() -> new MultipathTarget(Sectors.ZERO, Sectors.of(8),
                MultipathTarget.QueueMode.REQUEST_BASED, false, false, 0, OptionalInt.empty(), Optional.empty(),
                List.of(), 2, List.of(g)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("invalid initial priority group");
        assertThatThrownBy(() -> new MultipathTarget.PriorityGroup("round-robin", List.of()))
                .hasMessageContaining("invalid number of paths");
        assertThatThrownBy(() -> new MultipathTarget(Sectors.ZERO, Sectors.of(8),
                MultipathTarget.QueueMode.REQUEST_BASED, false, false, 0, OptionalInt.empty(), null, List.of(), 1,
                List.of(g))).isInstanceOf(NullPointerException.class).hasMessage("hwHandler");
        // a bio-based record always retains, as alloc_multipath_stage2 sets it
        assertThat(new MultipathTarget(Sectors.ZERO, Sectors.of(8), MultipathTarget.QueueMode.BIO_BASED, false, false,
                0, OptionalInt.empty(), Optional.empty(), List.of(), 1, List.of(g)).retainAttachedHwHandler()).isTrue();
    }
}
