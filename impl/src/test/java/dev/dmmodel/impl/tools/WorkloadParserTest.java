package dev.dmmodel.impl.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.dmmodel.units.Bytes;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import dev.dmmodel.workload.WorkloadParseException;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The shell layer and every command but dd (see {@link DdOperandsTest}). */
class WorkloadParserTest {

    private static String reason(String line) {
        WorkloadParseException e = catchThrowableOfType(() -> Command.parse(line), WorkloadParseException.class);
        assertThat(e).as("rejected: %s", line).isNotNull();
        return e.reason();
    }

    @Nested
    class Shell {

        @Test
        void singleAndDoubleQuotesAndBackslashes() {
            Command.Dd d = (Command.Dd) Command.parse("dd 'if=/dev/disk/by-id/My Disk' of=\"/tmp/a \\\"b\\\"\" bs=4\\k");
            assertThat(d.input()).isEqualTo("/dev/disk/by-id/My Disk");
            assertThat(d.output()).isEqualTo("/tmp/a \"b\"");
            assertThat(d.inputBlockSize()).isEqualTo(4096);
            // quotes join with the rest of the word, as in a shell
            assertThat(((Command.Dd) Command.parse("dd of=/dev/'mapper'/\"thin\"")).output())
                    .isEqualTo("/dev/mapper/thin");
            // inside single quotes a backslash is literal; inside double quotes only before $ ` " \
            assertThat(((Command.SysfsWrite) Command.parse("echo 'a\\b' > /sys/x")).value()).isEqualTo("a\\b");
            assertThat(((Command.SysfsWrite) Command.parse("echo \"a\\b\" > /sys/x")).value()).isEqualTo("a\\b");
            // blanks: any run of spaces and tabs
            assertThat(Command.parse("  sync \t ")).isEqualTo(new Command.Sync("sync"));
        }

        @Test
        void unterminatedQuotesFailAsBashSaysIt() {
            assertThat(reason("dd 'if=/dev/zero")).isEqualTo("unexpected EOF while looking for matching `''");
            assertThat(reason("dmsetup message pool 0 \"create_thin 0"))
                    .isEqualTo("unexpected EOF while looking for matching `\"'");
        }

        @Test
        void promptsAreRemoved() {
            String l;
            assertThat(Command.parse(l = "$ sync")).isEqualTo(new Command.Sync(l));
            assertThat(Command.parse(l = "# echo 1 > /proc/sys/vm/drop_caches")).isEqualTo(new Command.DropCaches(l, 1));
            assertThat(Command.parse(l = "> sync")).isEqualTo(new Command.Sync(l));
            assertThat(Command.parse(l = "$ sudo dmsetup resume thin"))
                    .isEqualTo(new Command.DmsetupSuspendResume(l, "thin", false));
        }

        @Test
        void sudoTimeAndShCAreUnwrapped() {
            String l;
            assertThat(Command.parse(l = "sudo sync")).isEqualTo(new Command.Sync(l));
            assertThat(Command.parse(l = "sudo -E sync")).isEqualTo(new Command.Sync(l));
            assertThat(Command.parse(l = "time sync")).isEqualTo(new Command.Sync(l));
            assertThat(Command.parse(l = "sudo sh -c 'echo 3 > /proc/sys/vm/drop_caches'"))
                    .isEqualTo(new Command.DropCaches(l, 3));
            assertThat(Command.parse(l = "bash -c \"echo 128 > /sys/block/sda/queue/read_ahead_kb\""))
                    .isEqualTo(new Command.SysfsWrite(l, "/sys/block/sda/queue/read_ahead_kb", "128"));
        }

        @Test
        void trailingCommentsAreDropped() {
            String l = "dmsetup suspend thin # before the snapshot";
            assertThat(Command.parse(l)).isEqualTo(new Command.DmsetupSuspendResume(l, "thin", true));
            // a # inside a word is not a comment
            assertThat(((Command.SysfsWrite) Command.parse("echo a#b > /sys/x")).value()).isEqualTo("a#b");
        }

        @Test
        void expansionsAndGlobsAreNotGuessed() {
            assertThat(reason("dd if=/dev/zero of=$DEV")).isEqualTo(
                    "shell expansions are not modelled: '$DEV' (write the value out)");
            assertThat(reason("dd if=/dev/zero of=\"${DEV}\"")).startsWith("shell expansions are not modelled");
            assertThat(reason("echo `cat x` > /sys/x")).startsWith("shell expansions are not modelled");
            assertThat(reason("echo 4096 > /sys/block/*/queue/max_sectors_kb")).startsWith("glob patterns");
            // quoted, they are plain characters
            assertThat(((Command.SysfsWrite) Command.parse("echo '$x*' > /sys/x")).value()).isEqualTo("$x*");
        }

        @Test
        void unknownCommands() {
            assertThat(reason("fio --name=x")).isEqualTo("unknown command 'fio'");
            assertThat(reason("sudo pvcreate /dev/sda6")).isEqualTo("unknown command 'pvcreate'");
            assertThat(reason("vgcreate -s 32MiB my-vg /dev/sda6")).isEqualTo("unknown command 'vgcreate'");
            assertThat(reason("iostat -m -x 5")).isEqualTo("unknown command 'iostat'");
            assertThat(reason("'dd ' if=/dev/zero")).isEqualTo("unknown command 'dd '");
        }

        @Test
        void onlyOneCommandForCommandParse() {
            assertThat(reason("sync; sync")).contains("2 commands");
            assertThat(reason("")).isEqualTo("no command on the line");
            assertThat(reason("# just a comment")).isEqualTo("unknown command 'just'");
        }

        @Test
        void unmodelledShellForms() {
            assertThat(reason("dd if=/dev/zero of=/dev/sdb &")).isEqualTo("background jobs ('&') are not modelled");
            assertThat(reason("sync || true")).startsWith("'||' is not modelled");
            assertThat(reason("dd if=/dev/sda | gzip")).startsWith("pipelines are not modelled");
            assertThat(reason("; sync")).isEqualTo("syntax error near unexpected token `;'");
            assertThat(reason("echo 3 >")).isEqualTo("syntax error near unexpected token `newline'");
        }
    }

    @Nested
    class Echo {

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiterString = "=>", value = {
            "echo 1 > /proc/sys/vm/drop_caches                         => 1",
            "echo 2 >/proc/sys/vm/drop_caches                          => 2",
            "echo \"3\" > /proc/sys/vm/drop_caches                     => 3",
            "echo 3 >> /proc/sys/vm/drop_caches                        => 3",
            "echo -n 3 > /proc/sys/vm/drop_caches                      => 3",
            "echo 3 | tee /proc/sys/vm/drop_caches                     => 3",
            "echo 3 | sudo tee /proc/sys/vm/drop_caches                => 3",
            "echo 3 | sudo tee /proc/sys/vm/drop_caches > /dev/null    => 3",
            ">/proc/sys/vm/drop_caches echo 3                          => 3",
            "echo 3 1> /proc/sys/vm/drop_caches                        => 3",
        })
        void dropCaches(String line, int mode) {
            assertThat(Command.parse(line)).isEqualTo(new Command.DropCaches(line, mode));
        }

        @Test
        void dropCachesTakesOneTwoOrThree() {
            assertThat(reason("echo 0 > /proc/sys/vm/drop_caches")).isEqualTo(
                    "echo: write error: Invalid argument (/proc/sys/vm/drop_caches takes 1, 2 or 3, not '0')");
            assertThat(reason("echo 5 > /proc/sys/vm/drop_caches")).contains("not '5'");
            assertThat(reason("echo all > /proc/sys/vm/drop_caches")).contains("not 'all'");
            assertThat(reason("echo 4 > /proc/sys/vm/drop_caches")).contains("'4'").contains("1, 2 or 3");
        }

        @Test
        void sysfsAndProcfsWrites() {
            String l;
            assertThat(Command.parse(l = "echo 2048 > /sys/block/dm-1/queue/max_sectors_kb"))
                    .isEqualTo(new Command.SysfsWrite(l, "/sys/block/dm-1/queue/max_sectors_kb", "2048"));
            assertThat(Command.parse(l = "echo mq-deadline > /sys/block/sda/queue/scheduler"))
                    .isEqualTo(new Command.SysfsWrite(l, "/sys/block/sda/queue/scheduler", "mq-deadline"));
            assertThat(Command.parse(l = "echo 1 > /proc/sys/vm/block_dump"))
                    .isEqualTo(new Command.SysfsWrite(l, "/proc/sys/vm/block_dump", "1"));
            assertThat(Command.parse(l = "echo \"a b\" c > /sys/x"))
                    .isEqualTo(new Command.SysfsWrite(l, "/sys/x", "a b c"));
        }

        @Test
        void teeToSeveralFilesGivesSeveralWrites() {
            String l = "echo 256 | tee /sys/block/sda/queue/read_ahead_kb /sys/block/sdb/queue/read_ahead_kb";
            assertThat(Script.parse(l).commands()).containsExactly(
                    new Command.SysfsWrite(l, "/sys/block/sda/queue/read_ahead_kb", "256"),
                    new Command.SysfsWrite(l, "/sys/block/sdb/queue/read_ahead_kb", "256"));
        }

        @Test
        void onlySysAndProcAreModelled() {
            assertThat(reason("echo 1 > /tmp/x")).isEqualTo("only writes to /sys and /proc are modelled");
            assertThat(reason("echo 1 > sys/block/sda/queue/nr_requests"))
                    .isEqualTo("only writes to /sys and /proc are modelled");
            assertThat(reason("echo 3 | tee /etc/x")).isEqualTo("only writes to /sys and /proc are modelled");
        }

        @Test
        void aFileDescriptorRedirectionIsNotAValue() {
            // "3>" redirects fd 3: drop_caches receives nothing
            assertThat(reason("echo 3>/proc/sys/vm/drop_caches")).contains("redirects file descriptor 3")
                    .contains("echo 3 > /proc/sys/vm/drop_caches");
            assertThat(reason("echo 3")).isEqualTo("echo without '> PATH' only prints: nothing to model");
        }
    }

    @Nested
    class OtherTools {

        @Test
        void sync() {
            assertThat(Command.parse("sync")).isEqualTo(new Command.Sync("sync"));
            assertThat(reason("sync /mnt/x")).contains("not modelled");
        }

        @Test
        void blockdevSetbsz() {
            String l;
            assertThat(Command.parse(l = "blockdev --setbsz 4096 /dev/sda"))
                    .isEqualTo(new Command.SetBlockSize(l, 4096, "/dev/sda"));
            assertThat(Command.parse(l = "sudo blockdev -v --setbsz 512 /dev/mapper/thin"))
                    .isEqualTo(new Command.SetBlockSize(l, 512, "/dev/mapper/thin"));
            assertThat(reason("blockdev --setbsz 4k /dev/sda"))
                    .isEqualTo("blockdev: failed to parse command argument: '4k'");
            assertThat(reason("blockdev --setbsz 3000 /dev/sda"))
                    .isEqualTo("blockdev: ioctl error on BLKBSZSET: Invalid argument");
            assertThat(reason("blockdev --setbsz 256 /dev/sda"))
                    .isEqualTo("blockdev: ioctl error on BLKBSZSET: Invalid argument");
            assertThat(reason("blockdev --setbsz")).isEqualTo("blockdev: --setbsz requires an argument");
            assertThat(reason("blockdev --setra 256 /dev/sda")).contains("not modelled");
        }

        @Test
        void mkfsXfs() {
            String l;
            assertThat(Command.parse(l = "mkfs.xfs /dev/my-vg/my-lv"))
                    .isEqualTo(new Command.Mkfs(l, "xfs", 0, "/dev/my-vg/my-lv"));
            assertThat(Command.parse(l = "mkfs.xfs -f -s size=4096 /dev/vg/lv"))
                    .isEqualTo(new Command.Mkfs(l, "xfs", 4096, "/dev/vg/lv"));
            assertThat(Command.parse(l = "mkfs.xfs -f -s size=4k /dev/vg/lv"))
                    .isEqualTo(new Command.Mkfs(l, "xfs", 4096, "/dev/vg/lv"));
            assertThat(Command.parse(l = "mkfs.xfs -fK -ssize=1024 -L data /dev/vg/lv"))
                    .isEqualTo(new Command.Mkfs(l, "xfs", 1024, "/dev/vg/lv"));
            assertThat(reason("mkfs.xfs -s size=1000 /dev/vg/lv"))
                    .isEqualTo("Invalid value 1000 for -s size option. Value must be a power of 2.");
            assertThat(reason("mkfs.xfs -s size=256 /dev/vg/lv"))
                    .isEqualTo("Invalid value 256 for -s size option. Value is too small.");
            assertThat(reason("mkfs.xfs -s size=64k /dev/vg/lv"))
                    .isEqualTo("Invalid value 64k for -s size option. Value is too large.");
            assertThat(reason("mkfs.xfs -s size=4q /dev/vg/lv"))
                    .isEqualTo("Invalid value 4q for -s size option. Not a valid value or illegal suffix");
            assertThat(reason("mkfs.xfs -Z /dev/vg/lv")).isEqualTo("mkfs.xfs: invalid option -- 'Z'");
            assertThat(reason("mkfs.xfs -f")).isEqualTo("mkfs.xfs: no device name given in argument list");
            assertThat(reason("mkfs.xfs -N /dev/vg/lv")).contains("dry run");
        }

        @Test
        void mkfsExt4() {
            String l;
            assertThat(Command.parse(l = "mkfs.ext4 /dev/vg/lv")).isEqualTo(new Command.Mkfs(l, "ext4", 0, "/dev/vg/lv"));
            // -b is accepted and sets nothing in the record
            assertThat(Command.parse(l = "mkfs.ext4 -b 4096 -F /dev/vg/lv"))
                    .isEqualTo(new Command.Mkfs(l, "ext4", 0, "/dev/vg/lv"));
            assertThat(Command.parse(l = "mkfs.ext4 -b 4k /dev/vg/lv")).isEqualTo(new Command.Mkfs(l, "ext4", 0, "/dev/vg/lv"));
            assertThat(reason("mkfs.ext4 -b 512 /dev/vg/lv")).isEqualTo("mkfs.ext4: invalid block size - 512");
            assertThat(reason("mkfs.ext4 -b big /dev/vg/lv")).isEqualTo("mkfs.ext4: invalid block size - big");
        }

        @Test
        void mountAndUmount() {
            String l;
            assertThat(Command.parse(l = "mount /dev/my-vg/my-lv /mnt/my-lv"))
                    .isEqualTo(new Command.Mount(l, "", "/dev/my-vg/my-lv", "/mnt/my-lv"));
            assertThat(Command.parse(l = "mount -t xfs -o noatime,discard /dev/vg/lv /mnt"))
                    .isEqualTo(new Command.Mount(l, "xfs", "/dev/vg/lv", "/mnt"));
            assertThat(Command.parse(l = "mount -o ro -txfs /dev/vg/lv /mnt"))
                    .isEqualTo(new Command.Mount(l, "xfs", "/dev/vg/lv", "/mnt"));
            assertThat(Command.parse(l = "mount --types=ext4 /dev/vg/lv /mnt"))
                    .isEqualTo(new Command.Mount(l, "ext4", "/dev/vg/lv", "/mnt"));
            assertThat(reason("mount /dev/vg/lv")).contains("fstab");
            assertThat(reason("mount a b c")).isEqualTo("mount: bad usage");
            assertThat(reason("mount -t")).isEqualTo("mount: option requires an argument -- 't'");
            assertThat(Command.parse(l = "umount /mnt")).isEqualTo(new Command.Umount(l, "/mnt"));
            assertThat(Command.parse(l = "umount -l /dev/vg/lv")).isEqualTo(new Command.Umount(l, "/dev/vg/lv"));
            assertThat(reason("umount")).isEqualTo("umount: bad usage");
            assertThat(reason("umount /a /b")).isEqualTo("umount: bad usage");
        }

        @Test
        void dmsetup() {
            String l;
            assertThat(Command.parse(l = "dmsetup message pool 0 create_thin 0"))
                    .isEqualTo(new Command.DmsetupMessage(l, "pool", 0, List.of("create_thin", "0")));
            assertThat(Command.parse(l = "dmsetup message vg-pool-tpool 0 'set_transaction_id  3 4'"))
                    .isEqualTo(new Command.DmsetupMessage(l, "vg-pool-tpool", 0,
                            List.of("set_transaction_id", "3", "4")));
            assertThat(Command.parse(l = "dmsetup message pool 0 delete 1"))
                    .isEqualTo(new Command.DmsetupMessage(l, "pool", 0, List.of("delete", "1")));
            assertThat(reason("dmsetup message pool x create_thin 0")).isEqualTo("Invalid sector.");
            assertThat(reason("dmsetup message pool -1 create_thin 0")).isEqualTo("Invalid sector.");
            assertThat(reason("dmsetup message pool 0")).isEqualTo("No message supplied.");
            assertThat(reason("dmsetup message pool")).isEqualTo("Incorrect number of arguments");
            assertThat(reason("dmsetup suspend")).isEqualTo("Incorrect number of arguments");
            assertThat(reason("dmsetup create thin --table '0 100 zero'")).contains("not modelled");
            assertThat(reason("dmsetup suspend --noflush thin")).contains("not modelled");
        }

        @Test
        void blkdiscard() {
            String l;
            assertThat(Command.parse(l = "blkdiscard /dev/mapper/thin"))
                    .isEqualTo(new Command.Blkdiscard(l, 0, OptionalLong.empty(), "/dev/mapper/thin"));
            assertThat(Command.parse(l = "blkdiscard -v -o 1MiB -l 4M /dev/x"))
                    .isEqualTo(new Command.Blkdiscard(l, 1048576, OptionalLong.of(4194304), "/dev/x"));
            assertThat(Command.parse(l = "blkdiscard --offset=1KB --length 2GB /dev/x"))
                    .isEqualTo(new Command.Blkdiscard(l, 1000, OptionalLong.of(2000000000), "/dev/x"));
            assertThat(Command.parse(l = "blkdiscard -o 1G -l 1TiB /dev/x"))
                    .isEqualTo(new Command.Blkdiscard(l, 1073741824, OptionalLong.of(1099511627776L), "/dev/x"));
            assertThat(Command.parse(l = "blkdiscard -o4096 -l8k /dev/x"))
                    .isEqualTo(new Command.Blkdiscard(l, 4096, OptionalLong.of(8192), "/dev/x"));
            // parse_size reads C integers: 0x hex, leading-0 octal; and fractions with a suffix
            assertThat(((Command.Blkdiscard) Command.parse("blkdiscard -o 0x1000 /dev/x")).offset()).isEqualTo(4096);
            assertThat(((Command.Blkdiscard) Command.parse("blkdiscard -o 010 /dev/x")).offset()).isEqualTo(8);
            assertThat(((Command.Blkdiscard) Command.parse("blkdiscard -l 1.5KiB /dev/x")).length()).hasValue(1536);
            assertThat(((Command.Blkdiscard) Command.parse("blkdiscard -l 0.5MB /dev/x")).length()).hasValue(500000);
            assertThat(reason("blkdiscard -o abc /dev/x"))
                    .isEqualTo("blkdiscard: failed to parse offset: 'abc': Invalid argument");
            assertThat(reason("blkdiscard -l 1Q /dev/x"))
                    .isEqualTo("blkdiscard: failed to parse length: '1Q': Invalid argument");
            assertThat(reason("blkdiscard -l -4096 /dev/x"))
                    .isEqualTo("blkdiscard: failed to parse length: '-4096': Invalid argument");
            assertThat(reason("blkdiscard -l 99999999999999999999 /dev/x"))
                    .isEqualTo("blkdiscard: failed to parse length: '99999999999999999999': Numerical result out"
                            + " of range");
            assertThat(reason("blkdiscard")).isEqualTo("blkdiscard: no device specified");
            assertThat(reason("blkdiscard /dev/a /dev/b")).isEqualTo("blkdiscard: unexpected number of arguments");
            assertThat(reason("blkdiscard -x /dev/a")).isEqualTo("blkdiscard: invalid option -- 'x'");
            assertThat(reason("blkdiscard -o")).isEqualTo("blkdiscard: option requires an argument -- 'o'");
            assertThat(reason("blkdiscard -z /dev/a")).contains("not modelled");
        }

        @Test
        void lvcreateSnapshot() {
            String l;
            assertThat(Command.parse(l = "lvcreate -s -n snap vg/thin"))
                    .isEqualTo(new Command.LvcreateSnapshot(l, "vg/thin", "snap"));
            assertThat(Command.parse(l = "lvcreate -s vg/thin -n snap"))
                    .isEqualTo(new Command.LvcreateSnapshot(l, "vg/thin", "snap"));
            assertThat(Command.parse(l = "lvcreate --snapshot --name snap vg/thin"))
                    .isEqualTo(new Command.LvcreateSnapshot(l, "vg/thin", "snap"));
            assertThat(Command.parse(l = "lvcreate -s vg/thin"))
                    .isEqualTo(new Command.LvcreateSnapshot(l, "vg/thin", ""));
            assertThat(Command.parse(l = "lvcreate -s -kn -n snap /dev/vg/thin"))
                    .isEqualTo(new Command.LvcreateSnapshot(l, "vg/thin", "snap"));
            assertThat(Command.parse(l = "lvcreate -s -n vg/snap /dev/mapper/vg-thin--lv"))
                    .isEqualTo(new Command.LvcreateSnapshot(l, "vg/thin-lv", "snap"));
            assertThat(reason("lvcreate -s")).isEqualTo("Please specify a logical volume to act as the snapshot origin.");
            assertThat(reason("lvcreate -n my-lv -l 15359 my-vg")).startsWith("lvcreate -l (extents) is not modelled");
            assertThat(reason("lvcreate -n my-lv -L 1G my-vg")).startsWith("lvcreate -L without -s makes a linear");
            // with a size, -s is a classic snapshot: 1G, LVM's 4 KiB chunk (8 sectors) unless -c says otherwise
            assertThat(Command.parse(l = "lvcreate -s -L 1G -n snap vg/lv")).isEqualTo(new Command.LvcreateCowSnapshot(
                    l, "vg/lv", new dev.dmmodel.lvm.CowSnapshotRequest("lv", "snap", dev.dmmodel.units.Bytes.gib(1))));
            assertThat(Command.parse(l = "lvcreate --snapshot --size 32M --chunksize 64k -n snap vg/lv"))
                    .isEqualTo(new Command.LvcreateCowSnapshot(l, "vg/lv", new dev.dmmodel.lvm.CowSnapshotRequest("lv",
                            "snap", dev.dmmodel.units.Bytes.mib(32), dev.dmmodel.units.Sectors.of(128),
                            java.util.List.of())));
            assertThat(reason("lvcreate -s -L 1G -c 1M -n snap vg/lv")).contains("Chunk size 2048 sectors must be a"
                    + " power of 2 in the range 4K to 512K");
            assertThat(reason("lvcreate -s -n other/snap vg/thin"))
                    .isEqualTo("Inconsistent volume group names given: \"other\" and \"vg\"");
            assertThat(reason("lvcreate -s -n 'bad name' vg/thin"))
                    .isEqualTo("Logical volume name \"bad name\" is invalid.");
            assertThat(reason("lvcreate -s thin")).contains("VG/LV");
        }

        @Test
        void lvcreateThinVolume() {
            String l;
            // LVM's sizes are binary and a bare number is MiB: 64 * 2^20 = 67108864
            assertThat(Command.parse(l = "lvcreate -y -V 64M -T vgt/pool -n thin"))
                    .isEqualTo(new Command.LvcreateThin(l, "vgt", "pool", "thin", Bytes.of(67_108_864)));
            assertThat(Command.parse(l = "lvcreate -V 64 -T vgt/pool -n thin"))
                    .isEqualTo(new Command.LvcreateThin(l, "vgt", "pool", "thin", Bytes.of(67_108_864)));
            // 1.5g = 1.5 * 2^30 = 1610612736 bytes, which lvcreate accepts (strtod in _size_arg)
            assertThat(Command.parse(l = "lvcreate -V 1.5g --thinpool pool vg"))
                    .isEqualTo(new Command.LvcreateThin(l, "vg", "pool", "", Bytes.of(1_610_612_736L)));
            // 2048s = 2048 sectors of 512 bytes = 1048576
            assertThat(Command.parse(l = "lvcreate --type thin -V 2048s --thinpool vg/pool -n vg/t1"))
                    .isEqualTo(new Command.LvcreateThin(l, "vg", "pool", "t1", Bytes.of(1_048_576)));
            assertThat(reason("lvcreate -V 1b -T vg/pool")).contains("whole number of 512-byte sectors");
            assertThat(reason("lvcreate -V 0.3k -T vg/pool")).contains("whole number of bytes");
            assertThat(reason("lvcreate -V 1x -T vg/pool")).contains("Invalid argument for --virtualsize: 1x");
            assertThat(reason("lvcreate -V 1G vg")).contains("sparse");
            assertThat(reason("lvcreate -V 1G -T vg")).contains("VG/POOL");
            assertThat(reason("lvcreate -V 1G --thinpool pool")).isEqualTo("Please provide a volume group name");
            assertThat(reason("lvcreate -V 1G --thinpool a/pool b"))
                    .isEqualTo("Inconsistent volume group names given: \"b\" and \"a\"");
        }

        @Test
        void lvremove() {
            String l;
            assertThat(Command.parse(l = "lvremove -y vgt/thin"))
                    .isEqualTo(new Command.Lvremove(l, List.of("vgt/thin"), true));
            assertThat(Command.parse(l = "lvremove -f /dev/vg/a /dev/mapper/vg-b--c"))
                    .isEqualTo(new Command.Lvremove(l, List.of("vg/a", "vg/b-c"), true));
            assertThat(Command.parse(l = "lvremove vg/a"))
                    .isEqualTo(new Command.Lvremove(l, List.of("vg/a"), false));
            assertThat(reason("lvremove")).isEqualTo("Please enter one or more logical volume paths.");
            assertThat(reason("lvremove vg")).contains("every LV of the volume group");
            assertThat(reason("lvremove /dev/mapper/vg-pool-tpool")).contains("not a logical volume's dm name");
            assertThat(reason("lvremove -x vg/a")).isEqualTo("lvremove: invalid option -- 'x'");
        }

        @Test
        void sleep() {
            String l;
            assertThat(Command.parse(l = "sleep 2")).isEqualTo(new Command.Sleep(l, Duration.ofSeconds(2)));
            // GNU sleep adds its operands: 1m + 0.5 = 60.5 s; 1.5h = 5400 s; 1d = 86400 s
            assertThat(Command.parse(l = "sleep 1m 0.5")).isEqualTo(new Command.Sleep(l, Duration.ofMillis(60_500)));
            assertThat(Command.parse(l = "sleep 1.5h")).isEqualTo(new Command.Sleep(l, Duration.ofSeconds(5400)));
            assertThat(Command.parse(l = "sleep .25 1d"))
                    .isEqualTo(new Command.Sleep(l, Duration.ofSeconds(86_400).plusMillis(250)));
            // rounded up to the nanosecond: 1e-10 s is 0.1 ns, so 1 ns
            assertThat(Command.parse(l = "sleep 0.0000000001")).isEqualTo(new Command.Sleep(l, Duration.ofNanos(1)));
            assertThat(reason("sleep")).isEqualTo("sleep: missing operand");
            assertThat(reason("sleep 1x")).isEqualTo("sleep: invalid time interval '1x'");
            assertThat(reason("sleep inf")).contains("never ends");
        }
    }

    @Nested
    class Scripts {

        @Test
        void blankLinesCommentsAndPrompts() {
            String text = """
                    #!/bin/sh
                    # prepare the pool

                    $ sudo dmsetup message pool 0 "create_thin 0"
                    # dd if=/dev/zero of=/dev/mapper/thin bs=1M count=8 oflag=direct
                    #dd if=/dev/zero of=/dev/sda   (commented out)
                    $ # a comment after a prompt
                    sync; echo 3 > /proc/sys/vm/drop_caches
                    """;
            List<Command> commands = Script.parse(text).commands();
            assertThat(commands).hasSize(4);
            assertThat(commands.get(0)).isEqualTo(new Command.DmsetupMessage(
                    "$ sudo dmsetup message pool 0 \"create_thin 0\"", "pool", 0, List.of("create_thin", "0")));
            assertThat(commands.get(1)).isInstanceOf(Command.Dd.class);
            assertThat(commands.get(2)).isEqualTo(new Command.Sync("sync; echo 3 > /proc/sys/vm/drop_caches"));
            assertThat(commands.get(3)).isEqualTo(new Command.DropCaches("sync; echo 3 > /proc/sys/vm/drop_caches", 3));
        }

        @Test
        void continuationLinesAndCrLf() {
            Script s = Script.parse("dd if=/dev/zero \\\r\n  of=/dev/sdb \\\r\n  bs=1M count=1\r\nsync\r\n");
            assertThat(s.commands()).hasSize(2);
            Command.Dd d = (Command.Dd) s.commands().get(0);
            assertThat(d.output()).isEqualTo("/dev/sdb");
            assertThat(d.count()).hasValue(1048576);
        }

        @Test
        void andAndJoinsCommands() {
            assertThat(Script.parse("sync && echo 1 > /proc/sys/vm/drop_caches").commands()).hasSize(2);
        }

        @Test
        void errorsNameTheLine() {
            WorkloadParseException e = catchThrowableOfType(
                    () -> Script.parse("sync\n# comment\n\n  frobnicate /dev/sda  \nsync\n"),
                    WorkloadParseException.class);
            assertThat(e.lineNumber()).isEqualTo(4);
            assertThat(e.lineText()).isEqualTo("frobnicate /dev/sda");
            assertThat(e.reason()).isEqualTo("unknown command 'frobnicate'");
        }

        @Test
        void emptyScript() {
            assertThat(Script.parse("").commands()).isEmpty();
            assertThat(Script.parse("\n# nothing\n\n").commands()).isEmpty();
        }
    }
}
