package dev.dmmodel.impl.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.Command.DdFlag;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import dev.dmmodel.workload.WorkloadParseException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every distinct line of the recorded kernel cases ({@code shared/kernel-traces*}/{@code *}/{@code setup.txt}
 * and {@code workload.txt}) and every dd line of the seed reports ({@code shared/seeds}), copied here, with
 * the record each must give, worked out by hand.
 */
class RecordedWorkloadLinesTest {

    private static final long K = 1024;
    private static final long M = 1024 * 1024;

    private static Command.Dd dd(String line, String in, String out, long bs, OptionalLong count, long skip,
            long seek, Set<DdFlag> iflags, Set<DdFlag> oflags) {
        return new Command.Dd(line, in, out, bs, bs, true, count, skip, seek, iflags, oflags, Set.of());
    }

    private static Arguments line(String line, Command expected) {
        return Arguments.of(line, expected);
    }

    static Stream<Arguments> traceLines() {
        String l;
        return Stream.of(
                // --- the lines every case has
                line("sync", new Command.Sync("sync")),
                line(l = "echo 3 > /proc/sys/vm/drop_caches", new Command.DropCaches(l, 3)),

                // --- thin-snap-*: the pool messages and the snapshot dance
                // the quoted message is one word with spaces: split into words
                line(l = "dmsetup message pool 0 \"create_thin 0\"",
                        new Command.DmsetupMessage(l, "pool", 0, List.of("create_thin", "0"))),
                line(l = "dmsetup message pool 0 \"create_snap 1 0\"",
                        new Command.DmsetupMessage(l, "pool", 0, List.of("create_snap", "1", "0"))),
                line(l = "dmsetup suspend thin", new Command.DmsetupSuspendResume(l, "thin", true)),
                line(l = "dmsetup resume thin", new Command.DmsetupSuspendResume(l, "thin", false)),
                // bs=1M: 1048576; count=8 blocks of ibs=1M: 8 * 1048576 = 8388608 bytes
                line(l = "dd if=/dev/zero of=/dev/mapper/thin bs=1M count=8 oflag=direct",
                        dd(l, "/dev/zero", "/dev/mapper/thin", M, OptionalLong.of(8 * M), 0, 0, Set.of(),
                                Set.of(DdFlag.DIRECT))),
                // bs=4k: 4096; count=16 * 4096 = 65536 bytes
                line(l = "dd if=/dev/zero of=/dev/mapper/thin bs=4k count=16 oflag=direct",
                        dd(l, "/dev/zero", "/dev/mapper/thin", 4 * K, OptionalLong.of(65536), 0, 0, Set.of(),
                                Set.of(DdFlag.DIRECT))),
                // bs=64k: 65536; count=4 * 65536 = 262144; seek=32 obs-blocks = 32 * 65536 = 2097152 (2 MiB)
                line(l = "dd if=/dev/zero of=/dev/mapper/thin bs=64k count=4 seek=32 oflag=direct",
                        dd(l, "/dev/zero", "/dev/mapper/thin", 64 * K, OptionalLong.of(262144), 0, 2097152,
                                Set.of(), Set.of(DdFlag.DIRECT))),
                // util-linux sizes, bare = bytes
                line(l = "blkdiscard -o 4096 -l 65536 /dev/mapper/snap",
                        new Command.Blkdiscard(l, 4096, OptionalLong.of(65536), "/dev/mapper/snap")),
                line(l = "blkdiscard -o 0 -l 1048576 /dev/mapper/snap",
                        new Command.Blkdiscard(l, 0, OptionalLong.of(1048576), "/dev/mapper/snap")),
                // skip=32 ibs-blocks of 1M = 33554432 bytes (32 MiB); count=4 * 1M = 4194304
                line(l = "dd if=/dev/mapper/thin of=/dev/null bs=1M count=4 skip=32 iflag=direct",
                        dd(l, "/dev/mapper/thin", "/dev/null", M, OptionalLong.of(4 * M), 32 * M, 0,
                                Set.of(DdFlag.DIRECT), Set.of())),

                // --- thin-b*-z*, thin-lvm-*: 16 MiB writes, direct and buffered; 1024 x 4k = 4 MiB
                line(l = "dd if=/dev/zero of=/dev/mapper/thin bs=1M count=16 oflag=direct",
                        dd(l, "/dev/zero", "/dev/mapper/thin", M, OptionalLong.of(16 * M), 0, 0, Set.of(),
                                Set.of(DdFlag.DIRECT))),
                line(l = "dd if=/dev/zero of=/dev/mapper/thin bs=1M count=16",
                        dd(l, "/dev/zero", "/dev/mapper/thin", M, OptionalLong.of(16 * M), 0, 0, Set.of(),
                                Set.of())),
                line(l = "dd if=/dev/zero of=/dev/mapper/thin bs=4k count=1024 oflag=direct",
                        dd(l, "/dev/zero", "/dev/mapper/thin", 4 * K, OptionalLong.of(4 * M), 0, 0, Set.of(),
                                Set.of(DdFlag.DIRECT))),
                line(l = "dd if=/dev/zero of=/dev/vgt/thin bs=1M count=16 oflag=direct",
                        dd(l, "/dev/zero", "/dev/vgt/thin", M, OptionalLong.of(16 * M), 0, 0, Set.of(),
                                Set.of(DdFlag.DIRECT))),
                line(l = "dd if=/dev/zero of=/dev/vgt/thin bs=1M count=16",
                        dd(l, "/dev/zero", "/dev/vgt/thin", M, OptionalLong.of(16 * M), 0, 0, Set.of(),
                                Set.of())),

                // --- thin-lvm-zy-buffered1M/setup.txt: the host's history after its snapshot was taken
                // -y answers LVM's question; one LV given as VG/LV
                line(l = "lvremove -y vgt/thin", new Command.Lvremove(l, List.of("vgt/thin"), true)),
                // -V 64M: a bare M is MiB in LVM, 64 * 1048576 = 67108864 bytes; -T with VG/POOL as the operand
                line(l = "lvcreate -y -V 64M -T vgt/pool -n thin",
                        new Command.LvcreateThin(l, "vgt", "pool", "thin", Bytes.of(64 * M))),

                // --- kernel-traces-6.12-stacks/*/workload.txt: idle time after the dd (dm-raid's bitmap, caches)
                line(l = "sleep 2", new Command.Sleep(l, Duration.ofSeconds(2))),
                line(l = "sleep 16", new Command.Sleep(l, Duration.ofSeconds(16))),

                // --- ss-*, s3-*: seek_bytes, so seek= is already bytes
                // seek=204800 bytes (200 KiB); count=1 * 1M = 1048576
                line(l = "dd if=/dev/zero of=/dev/vg/striped bs=1M count=1 seek=204800 oflag=direct,seek_bytes",
                        dd(l, "/dev/zero", "/dev/vg/striped", M, OptionalLong.of(M), 0, 204800, Set.of(),
                                Set.of(DdFlag.DIRECT, DdFlag.SEEK_BYTES))),
                line(l = "dd if=/dev/zero of=/dev/vg/striped bs=1M count=1 seek=0 oflag=direct,seek_bytes",
                        dd(l, "/dev/zero", "/dev/vg/striped", M, OptionalLong.of(M), 0, 0, Set.of(),
                                Set.of(DdFlag.DIRECT, DdFlag.SEEK_BYTES))),
                // seek=32768 bytes (32 KiB)
                line(l = "dd if=/dev/zero of=/dev/vg/striped bs=1M count=1 seek=32768 oflag=direct,seek_bytes",
                        dd(l, "/dev/zero", "/dev/vg/striped", M, OptionalLong.of(M), 0, 32768, Set.of(),
                                Set.of(DdFlag.DIRECT, DdFlag.SEEK_BYTES))),
                // bs=4k, seek=63488 bytes (62 KiB); count=4096
                line(l = "dd if=/dev/zero of=/dev/vg/striped bs=4k count=1 seek=63488 oflag=direct,seek_bytes",
                        dd(l, "/dev/zero", "/dev/vg/striped", 4 * K, OptionalLong.of(4 * K), 0, 63488, Set.of(),
                                Set.of(DdFlag.DIRECT, DdFlag.SEEK_BYTES))),
                // bs=2k: 2048 bytes at 0
                line(l = "dd if=/dev/zero of=/dev/vg/striped bs=2k count=1 seek=0 oflag=direct,seek_bytes",
                        dd(l, "/dev/zero", "/dev/vg/striped", 2 * K, OptionalLong.of(2 * K), 0, 0, Set.of(),
                                Set.of(DdFlag.DIRECT, DdFlag.SEEK_BYTES))),
                // bs=12k: 12288; seek=389120 bytes (380 KiB)
                line(l = "dd if=/dev/zero of=/dev/vg/striped bs=12k count=1 seek=389120 oflag=direct,seek_bytes",
                        dd(l, "/dev/zero", "/dev/vg/striped", 12 * K, OptionalLong.of(12 * K), 0, 389120, Set.of(),
                                Set.of(DdFlag.DIRECT, DdFlag.SEEK_BYTES))),
                // seek=8386560 bytes = 8 MiB - 2 KiB
                line(l = "dd if=/dev/zero of=/dev/vg/span bs=4k count=1 seek=8386560 oflag=direct,seek_bytes",
                        dd(l, "/dev/zero", "/dev/vg/span", 4 * K, OptionalLong.of(4 * K), 0, 8386560, Set.of(),
                                Set.of(DdFlag.DIRECT, DdFlag.SEEK_BYTES))),
                // seek=7864320 bytes = 8 MiB - 512 KiB
                line(l = "dd if=/dev/zero of=/dev/vg/span bs=1M count=1 seek=7864320 oflag=direct,seek_bytes",
                        dd(l, "/dev/zero", "/dev/vg/span", M, OptionalLong.of(M), 0, 7864320, Set.of(),
                                Set.of(DdFlag.DIRECT, DdFlag.SEEK_BYTES))),

                // --- lp-*: 1600 x 64k = 104857600 (100 MiB); 25000 x 4k = 102400000
                line(l = "dd if=/dev/zero of=/dev/vg/lv bs=64k count=1600 oflag=direct",
                        dd(l, "/dev/zero", "/dev/vg/lv", 64 * K, OptionalLong.of(104857600), 0, 0, Set.of(),
                                Set.of(DdFlag.DIRECT))),
                line(l = "dd if=/dev/zero of=/dev/vg/lv bs=4k count=25000",
                        dd(l, "/dev/zero", "/dev/vg/lv", 4 * K, OptionalLong.of(102400000), 0, 0, Set.of(),
                                Set.of())),
                line(l = "dd if=/dev/zero of=/dev/sda1 bs=4k count=25000",
                        dd(l, "/dev/zero", "/dev/sda1", 4 * K, OptionalLong.of(102400000), 0, 0, Set.of(),
                                Set.of())),

                // --- mr-*: reads of a mounted LV; 4096 x 8192 = 33554432 (32 MiB); 32 x 1M likewise
                line(l = "mkfs.xfs -f -K -s size=512 /dev/vg/lv", new Command.Mkfs(l, "xfs", 512, "/dev/vg/lv")),
                line(l = "mount -t xfs /dev/vg/lv /mnt", new Command.Mount(l, "xfs", "/dev/vg/lv", "/mnt")),
                line(l = "dd if=/dev/vg/lv of=/dev/null bs=8192 count=4096",
                        dd(l, "/dev/vg/lv", "/dev/null", 8192, OptionalLong.of(32 * M), 0, 0, Set.of(), Set.of())),
                line(l = "dd if=/dev/vg/lv of=/dev/null bs=1M count=32",
                        dd(l, "/dev/vg/lv", "/dev/null", M, OptionalLong.of(32 * M), 0, 0, Set.of(), Set.of())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("traceLines")
    void everyRecordedCaseLineParses(String line, Command expected) {
        assertThat(Command.parse(line)).isEqualTo(expected);
    }

    static Stream<Arguments> seedLines() {
        String l;
        return Stream.of(
                // 000 (prose): "Then I do a dd if=/dev/zero bs=4096 to both ..." - no of=: standard output "-",
                // no count: to the end of the input
                line(l = "dd if=/dev/zero bs=4096",
                        dd(l, "/dev/zero", "-", 4096, OptionalLong.empty(), 0, 0, Set.of(), Set.of())),
                // 000: 100000 x 4096 = 409600000 bytes (the report says "200 MB" and shows 400000 sectors: its
                // own numbers disagree with its command; dd's rule is count x ibs)
                line(l = "dd if=/dev/zero of=/dev/sda1 bs=4096 count=100000",
                        dd(l, "/dev/zero", "/dev/sda1", 4096, OptionalLong.of(409600000), 0, 0, Set.of(), Set.of())),
                // 001: root prompt "# "; 5000000 x 8192 = 40960000000 bytes, as dd reported ("40960000000 bytes")
                line(l = "# dd if=/dev/my-vg/my-lv of=/dev/null bs=8192 count=5000000",
                        dd(l, "/dev/my-vg/my-lv", "/dev/null", 8192, OptionalLong.of(40960000000L), 0, 0, Set.of(),
                                Set.of())),
                line(l = "# dd if=/dev/zero of=/mnt/my-lv/dd.tmp bs=8192 count=5000000",
                        dd(l, "/dev/zero", "/mnt/my-lv/dd.tmp", 8192, OptionalLong.of(40960000000L), 0, 0, Set.of(),
                                Set.of())),
                // 003 (inside time -p sh -c "...; sync", see below): 100000 x 4k = 409600000, as reported
                line(l = "dd if=/dev/zero of=/dev/sda bs=4k count=100000",
                        dd(l, "/dev/zero", "/dev/sda", 4096, OptionalLong.of(409600000), 0, 0, Set.of(), Set.of())),
                line(l = "dd if=/dev/zero of=/dev/sda1 bs=4k count=100000",
                        dd(l, "/dev/zero", "/dev/sda1", 4096, OptionalLong.of(409600000), 0, 0, Set.of(), Set.of())),
                line(l = "dd if=/dev/zero of=/dev/vg0/test bs=4k count=100000",
                        dd(l, "/dev/zero", "/dev/vg0/test", 4096, OptionalLong.of(409600000), 0, 0, Set.of(),
                                Set.of())),
                // 004: "> " prompt; count=10K = 10240 blocks x 1M = 10737418240 bytes, as reported (the second
                // run's output shows 1024 records: the report's own inconsistency)
                line(l = "> dd if=/dev/zero of=/dev/sdg bs=1M count=10K",
                        dd(l, "/dev/zero", "/dev/sdg", M, OptionalLong.of(10240 * M), 0, 0, Set.of(), Set.of())),
                line(l = "> dd if=/dev/zero of=/dev/mapper/thin bs=1M count=10K",
                        dd(l, "/dev/zero", "/dev/mapper/thin", M, OptionalLong.of(10240 * M), 0, 0, Set.of(),
                                Set.of())),
                line(l = "> dd if=/dev/zero of=/dev/mapper/thin oflag=direct bs=1M count=10K",
                        dd(l, "/dev/zero", "/dev/mapper/thin", M, OptionalLong.of(10240 * M), 0, 0, Set.of(),
                                Set.of(DdFlag.DIRECT))),
                line(l = "> echo 2048 > /sys/block/dm-1/queue/max_sectors_kb",
                        new Command.SysfsWrite(l, "/sys/block/dm-1/queue/max_sectors_kb", "2048")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("seedLines")
    void everySeedDdLineParses(String line, Command expected) {
        assertThat(Command.parse(line)).isEqualTo(expected);
    }

    @Test
    void seed003WrapsDdAndSyncInShC() {
        String l = "time -p sh -c \"dd if=/dev/zero of=/dev/sda bs=4k count=100000; sync\"";
        // two commands on one line: a script takes them, each with the whole line
        assertThat(Script.parse(l).commands()).containsExactly(
                dd(l, "/dev/zero", "/dev/sda", 4096, OptionalLong.of(409600000), 0, 0, Set.of(), Set.of()),
                new Command.Sync(l));
        // Command.parse takes exactly one
        assertThatThrownBy(() -> Command.parse(l))
                .isInstanceOfSatisfying(WorkloadParseException.class,
                        e -> assertThat(e.reason()).contains("2 commands"));
    }

    @Test
    void aRecordedSetupParsesAsAScript() {
        // kernel-traces/thin-snap-b128-read-unprovisioned/setup.txt
        String setup = """
                dmsetup message pool 0 "create_thin 0"
                dd if=/dev/zero of=/dev/mapper/thin bs=1M count=8 oflag=direct
                dmsetup suspend thin
                dmsetup message pool 0 "create_snap 1 0"
                dmsetup resume thin
                dd if=/dev/zero of=/dev/mapper/thin bs=4k count=16 oflag=direct
                dd if=/dev/zero of=/dev/mapper/thin bs=64k count=4 seek=32 oflag=direct
                blkdiscard -o 4096 -l 65536 /dev/mapper/snap
                blkdiscard -o 0 -l 1048576 /dev/mapper/snap
                sync
                echo 3 > /proc/sys/vm/drop_caches
                """;
        List<Command> commands = Script.parse(setup).commands();
        assertThat(commands).hasSize(11);
        assertThat(commands).extracting(c -> c.getClass().getSimpleName()).containsExactly(
                "DmsetupMessage", "Dd", "DmsetupSuspendResume", "DmsetupMessage", "DmsetupSuspendResume", "Dd",
                "Dd", "Blkdiscard", "Blkdiscard", "Sync", "DropCaches");
    }

    /** The shared folder itself, when present: every setup.txt and workload.txt parses as a script. */
    @TestFactory
    Stream<DynamicTest> everySharedSetupAndWorkloadFileParses() {
        String property = System.getProperty("dmmodel.shared.dir");
        Path shared = property == null || property.isBlank() ? null : Path.of(property).toAbsolutePath().normalize();
        if (shared == null || !Files.isDirectory(shared)) {
            return Stream.of(dynamicTest("shared workload files", () -> Assumptions.assumeTrue(false,
                    "shared/ folder not found (" + property + "): the recorded lines above still run")));
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(shared)) {
            files = s.filter(p -> p.getFileName().toString().startsWith("kernel-traces") && Files.isDirectory(p))
                    .flatMap(RecordedWorkloadLinesTest::list)
                    .flatMap(c -> Stream.of(c.resolve("setup.txt"), c.resolve("workload.txt")))
                    .filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files.stream().map(f -> dynamicTest(shared.relativize(f).toString(), () -> {
            String text = Files.readString(f, StandardCharsets.UTF_8);
            assertThat(Script.parse(text).commands()).isNotEmpty();
        }));
    }

    private static Stream<Path> list(Path dir) {
        try {
            return Files.list(dir).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
