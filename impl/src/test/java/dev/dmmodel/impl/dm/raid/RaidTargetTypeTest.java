package dev.dmmodel.impl.dm.raid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.RaidTarget;
import dev.dmmodel.impl.dm.TargetModel;
import dev.dmmodel.impl.dm.table.DmTableException;
import dev.dmmodel.impl.dm.table.DmTableParser;
import dev.dmmodel.impl.dm.table.DmTables;
import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** raid_ctr's argument rules, and dmsetup table text → RaidTarget → text (raid_status, STATUSTYPE_TABLE). */
class RaidTargetTypeTest {

    /** kernel-traces-6.12-stacks/lvmraid-*: snapshot/dmsetup-table.txt, the two raid lines. */
    static final String R1 = "vgr-r1: 0 131072 raid raid1 4 0 nosync region_size 4096 2 253:0 253:1 253:2 253:3";
    static final String R5 = "vgr-r5: 0 131072 raid raid5_ls 4 128 nosync region_size 4096 3 253:5 253:6 253:7 253:8 "
            + "253:9 253:10";

    static RaidTarget raid(String line) {
        DmTables t = DmTableParser.parse(line + "\n", "t.txt");
        DmTarget target = t.devices().get(0).table().targets().get(0);
        assertThat(target).isInstanceOf(RaidTarget.class);
        return (RaidTarget) target;
    }

    private static String error(String args) {
        return catchThrowableOfType(() -> DmTableParser.parse("r: 0 131072 raid " + args + "\n", "t.txt"),
                DmTableException.class).getMessage();
    }

    @Test
    void theRecordedTablesReadAndPrintBack() {
        RaidTarget r5 = raid(R5);
        assertThat(r5.raidType()).isEqualTo("raid5_ls");
        assertThat(r5.chunkSectors()).isEqualTo(128);
        assertThat(r5.nosync()).isTrue();
        assertThat(r5.regionSize()).hasValue(4096);
        assertThat(r5.raidDevices()).containsExactly(RaidTarget.Device.of("253:5", "253:6"),
                RaidTarget.Device.of("253:7", "253:8"), RaidTarget.Device.of("253:9", "253:10"));
        // devices(): each metadata device, then its data device
        assertThat(r5.devices()).containsExactly("253:5", "253:6", "253:7", "253:8", "253:9", "253:10");
        assertThat(r5.dataStripes()).isEqualTo(2);
        assertThat("vgr-r5: 0 131072 raid " + r5.arguments(Function.identity())).isEqualTo(R5);
        RaidTarget r1 = raid(R1);
        assertThat("vgr-r1: 0 131072 raid " + r1.arguments(Function.identity())).isEqualTo(R1);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // as given | as raid_status prints it: the count recomputed, sync words first, rebuilds by index, ...
        "raid1 4 64 region_size 4096 nosync|raid1 4 0 nosync region_size 4096",
        "raid5_la 7 128 region_size 8192 rebuild 2 rebuild 0|raid5_la 7 128 rebuild 0 rebuild 2 region_size 8192",
        "raid1 3 0 max_write_behind 256|raid1 3 0 max_write_behind 128",
        "RAID6_ZR 4 64 stripe_cache 512 SYNC|raid6_zr 4 64 sync stripe_cache 512",
    })
    void parametersComeOutInRaidStatusOrder(String given, String printed) {
        String devices = given.startsWith("RAID6") ? " 5 - 253:1 - 253:2 - 253:3 - 253:4 - 253:5"
                : " 3 253:0 253:1 253:2 253:3 253:4 253:5";
        String printedDevices = given.startsWith("RAID6") ? " 5 - 253:1 - 253:2 - 253:3 - 253:4 - 253:5" : devices;
        assertThat(raid("r: 0 393216 raid " + given + devices).arguments(Function.identity()))
                .isEqualTo(printed + printedDevices);
    }

    @Test
    void constructorErrorsNameTheKernelsText() {
        assertThat(error("raid7 1 128 2 - 253:1 - 253:2")).contains("raid_ctr: Unrecognised raid_type");
        assertThat(error("raid5_ls 9 128 2 - 253:1 - 253:2")).contains("Cannot understand number of raid parameters");
        assertThat(error("raid5_ls 1 128 5 - 253:1 - 253:2")).contains("Cannot understand number of raid devices");
        assertThat(error("raid5_ls 1 x 2 - 253:1 - 253:2")).contains("Bad numerical argument given for chunk_size");
        assertThat(error("raid5_ls 1 96 2 - 253:1 - 253:2")).contains("Chunk size must be a power of 2");
        assertThat(error("raid5_ls 1 4 2 - 253:1 - 253:2")).contains("Chunk size value is too small");
        assertThat(error("raid5_ls 1 128 1 - 253:1")).contains("Insufficient number of devices");
        assertThat(error("raid5_ls 2 128 bogus 2 - 253:1 - 253:2")).contains("Unable to parse RAID parameter");
        assertThat(error("raid5_ls 2 128 region_size 2 - 253:1 - 253:2")).contains("Wrong number of raid parameters");
        assertThat(error("raid5_ls 3 128 region_size x 2 - 253:1 - 253:2")).contains("Bad numerical argument given in "
                + "raid params");
        assertThat(error("raid5_ls 3 128 sync nosync 2 - 253:1 - 253:2")).contains("sync and nosync are mutually "
                + "exclusive");
        assertThat(error("raid5_ls 3 128 nosync nosync 2 - 253:1 - 253:2")).contains("Only one nosync argument allowed");
        // validate_region_size: 131072 sectors / 2^21 rounds to 0; above the length; not a power of two; below chunk
        assertThat(error("raid5_ls 3 128 region_size 262144 2 - 253:1 - 253:2")).contains("Supplied region size is "
                + "too large");
        assertThat(error("raid5_ls 3 128 region_size 3000 2 - 253:1 - 253:2")).contains("Region size is not a power "
                + "of 2");
        assertThat(error("raid5_ls 3 128 region_size 64 2 - 253:1 - 253:2")).contains("Region size is smaller than the "
                + "chunk size");
        assertThat(error("raid1 3 0 stripe_cache 256 2 - 253:1 - 253:2")).contains("Inappropriate argument: "
                + "stripe_cache");
        assertThat(error("raid5_ls 3 128 write_mostly 0 2 - 253:1 - 253:2")).contains("write_mostly option is only "
                + "valid for RAID1");
        // raid6 does not take nosync (RAID6_VALID_FLAGS)
        assertThat(error("raid6_zr 2 128 nosync 4 - 253:1 - 253:2 - 253:3 - 253:4")).contains("Invalid flags "
                + "combination");
        assertThat(error("raid1 3 0 rebuild 2 2 - 253:1 - 253:2")).contains("Invalid rebuild index given");
        assertThat(error("raid1 1 0 2 - 253:1 - -")).contains("Drive designated for rebuild not specified");
        assertThat(error("raid1 1 0 2 - 253:1 253:3 -")).contains("No data device supplied with metadata device");
        // 131071 sectors over 2 data devices
        assertThat(catchThrowableOfType(() -> DmTableParser.parse("r: 0 131071 raid raid5_ls 1 128 3 - 253:1 - 253:2 - "
                + "253:3\n", "t.txt"), DmTableException.class).getMessage())
                .contains("Target length not divisible by number of data devices");
        assertThat(error("raid10 3 128 raid10_copies 5 4 - 253:1 - 253:2 - 253:3 - 253:4")).contains("Bad value for "
                + "'raid10_copies'");
        assertThat(error("raid5_ls 3 128 journal_dev 253:9 2 - 253:1 - 253:2")).contains("journal_dev is not "
                + "modelled");
    }

    @Test
    void theModelsDeviceAreasMaxIoLenAndStatus() {
        // raid5_ls over 3 devices: each data device holds 131072 / 2 = 65536 sectors from sector 0
        TargetModel m5 = RaidTargetType.INSTANCE.model(raid(R5), d -> 65536L);
        assertThat(m5.iterateDevices()).containsExactly(new TargetModel.DeviceArea("253:6", 0, 65536),
                new TargetModel.DeviceArea("253:8", 0, 65536), new TargetModel.DeviceArea("253:10", 0, 65536));
        // dm_set_target_max_io_len: the chunk (128), for raid1 the region size given (4096)
        assertThat(m5.maxIoLen()).isEqualTo(128);
        // lvmraid-r5-w4k-at1M/snapshot/dmsetup-status.txt
        assertThat(m5.status(Function.identity())).isEqualTo("raid5_ls 3 AAA 65536/65536 idle 0 0 -");
        TargetModel m1 = RaidTargetType.INSTANCE.model(raid(R1), d -> 131072L);
        assertThat(m1.maxIoLen()).isEqualTo(4096);
        assertThat(m1.status(Function.identity())).isEqualTo("raid1 2 AA 131072/131072 idle 0 0 -");
        assertThat(m1.iterateDevices()).containsExactly(new TargetModel.DeviceArea("253:1", 0, 131072),
                new TargetModel.DeviceArea("253:3", 0, 131072));
        // raid_ctr: _check_data_dev_sectors
        assertThatThrownBy(() -> m5.checkDevices(d -> 65535L, d -> null))
                .hasMessageContaining("Component device(s) too small");
        // a resyncing array's progress is not modelled: no status
        TargetModel synced = RaidTargetType.INSTANCE.model(raid(R5.replace("4 128 nosync", "3 128")), d -> 65536L);
        assertThat(synced.status(Function.identity())).isEmpty();
    }

    // the recorded vgr-r5: raid5_ls (ALGORITHM_LEFT_SYMMETRIC, md layout 2), 3 devices, chunk 128 sectors; each data
    // device 131072 / 2 data stripes = 65536 sectors from sector 0 (dm-raid's rimages carry no data offset)
    @Test
    void theArrayMdRunsForTheTarget() {
        dev.dmmodel.device.MdArraySpec spec = ((RaidModel) RaidTargetType.INSTANCE.model(raid(R5), d -> 65536L))
                .arraySpec();
        assertThat(spec.level()).isEqualTo(dev.dmmodel.device.MdLevel.RAID5);
        assertThat(spec.layout()).isEqualTo(2);
        assertThat(spec.chunk().count()).isEqualTo(128);
        assertThat(spec.members()).extracting(m -> m.device() + "@" + m.slot() + "+" + m.dataOffset().count() + "/"
                + m.dataSize().count()).containsExactly("253:6@0+0/65536", "253:8@1+0/65536", "253:10@2+0/65536");
        // dm-raid.c raid_types: raid6_n_6 is ALGORITHM_PARITY_N_6, which raid5.h defines as ALGORITHM_PARITY_N (5):
        // P and Q on the last two devices, as mdadm's parity-last
        dev.dmmodel.device.MdArraySpec r6 = ((RaidModel) RaidTargetType.INSTANCE.model(raid(
                "vgr-r6: 0 196608 raid raid6_n_6 3 128 region_size 4096 5 - 253:1 - 253:2 - 253:3 - 253:4 - 253:5"),
                d -> 65536L)).arraySpec();
        assertThat(r6.level()).isEqualTo(dev.dmmodel.device.MdLevel.RAID6);
        assertThat(r6.layout()).isEqualTo(5);
        // raid1: no chunk, every device 131072 sectors
        dev.dmmodel.device.MdArraySpec r1 = ((RaidModel) RaidTargetType.INSTANCE.model(raid(R1), d -> 131072L))
                .arraySpec();
        assertThat(r1.level()).isEqualTo(dev.dmmodel.device.MdLevel.RAID1);
        assertThat(r1.chunk().count()).isZero();
        assertThat(r1.members()).extracting(m -> m.dataSize().count()).containsExactly(131072L, 131072L);
    }

    @Test
    void theRecordChecksWhatRaidCtrChecks() {
        List<RaidTarget.Device> two = List.of(RaidTarget.Device.of("a", "b"), RaidTarget.Device.of("c", "d"));
        assertThatThrownBy(() -> new RaidTarget(Sectors.ZERO, Sectors.of(8192), "raid1", 128, List.of(), two))
                .hasMessageContaining("raid1 keeps no chunk size");
        assertThatThrownBy(() -> new RaidTarget.Device(Optional.of("a"), Optional.empty()))
                .hasMessageContaining("No data device supplied with metadata device");
        assertThatThrownBy(() -> RaidTarget.Param.flag("region_size")).hasMessageContaining("needs a value");
        RaidTarget t = new RaidTarget(Sectors.ZERO, Sectors.of(8192), "raid1", 0,
                List.of(RaidTarget.Param.of("region_size", 4096), RaidTarget.Param.flag("nosync")), two);
        assertThat(t.arguments(Function.identity())).isEqualTo("raid1 4 0 nosync region_size 4096 2 a b c d");
    }
}
