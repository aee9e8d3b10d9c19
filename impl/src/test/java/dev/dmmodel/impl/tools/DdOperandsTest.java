package dev.dmmodel.impl.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.workload.Command.DdConv;
import dev.dmmodel.workload.Command.DdFlag;
import dev.dmmodel.workload.Command;
import dev.dmmodel.workload.Script;
import dev.dmmodel.workload.WorkloadParseException;
import java.util.OptionalLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** dd operands as GNU coreutils 9.x dd reads them ({@code scanargs} and {@code parse_integer} of dd.c). */
class DdOperandsTest {

    private static Command.Dd dd(String line) {
        return (Command.Dd) Command.parse(line);
    }

    private static String reason(String line) {
        try {
            Command.parse(line);
        } catch (WorkloadParseException e) {
            return e.reason();
        }
        throw new AssertionError("accepted: " + line);
    }

    @Nested
    class Numbers {

        @ParameterizedTest(name = "bs={0} is {1} bytes")
        @CsvSource({
            "1, 1",
            "512, 512",
            "1c, 1",            // c = 1
            "1w, 2",            // w = 2
            "1b, 512",          // b = 512
            "3b, 1536",
            "1k, 1024",         // lower-case k is KiB in dd
            "1K, 1024",
            "1KiB, 1024",
            "1kB, 1000",        // the B second suffix makes it decimal
            "1KB, 1000",
            "4k, 4096",
            "1M, 1048576",
            "1MiB, 1048576",
            "1MB, 1000000",
            "1G, 1073741824",
            "1GiB, 1073741824",
            "1GB, 1000000000",
            "1T, 1099511627776",
            "1TB, 1000000000000",
            "1P, 1125899906842624",
            "1E, 1152921504606846976",
            "2x512, 1024",      // products
            "1Mx2, 2097152",
            "2x3x4, 24",
            "4kx2, 8192",
            "1bB, 512",         // b, then a bare B accepted after it
            "M, 1048576",       // a bare suffix is one of it
            "K, 1024",
            "+8, 8",            // strtoumax takes a plus sign
            "' 8', 8"           // and leading blanks
        })
        void multiplicativeSuffixes(String value, long bytes) {
            Command.Dd d = dd("dd bs='" + value + "'");
            assertThat(d.inputBlockSize()).isEqualTo(bytes);
            assertThat(d.outputBlockSize()).isEqualTo(bytes);
            assertThat(d.blockSizeGiven()).isTrue();
        }

        @ParameterizedTest(name = "bs={0} rejected")
        @CsvSource({
            "0",       // zero block size: n < n_min
            "0x10",    // 0 x 10 = 0 (dd warns about the zero multiplier, then rejects the zero)
            "''",      // empty
            "1x",      // x without a right-hand side
            "x2",
            "2xx3",
            "-1",      // no sign allowed
            "1.5M",    // no fractions
            "1m",      // m, g, t are not dd suffixes
            "1g",
            "1t",
            "1e",      // only capital E
            "1Ki",     // i without B
            "1BB",
            "1B2",
            "abc",
            "1 K"
        })
        void invalidNumbers(String value) {
            assertThat(reason("dd bs='" + value + "'")).isEqualTo("dd: invalid number: '" + value + "'");
        }

        @Test
        void zeroBlockSizesAreInvalidNumbers() {
            assertThat(reason("dd bs=0")).isEqualTo("dd: invalid number: '0'");
            assertThat(reason("dd ibs=0")).isEqualTo("dd: invalid number: '0'");
            assertThat(reason("dd obs=0")).isEqualTo("dd: invalid number: '0'");
            assertThat(reason("dd cbs=0")).isEqualTo("dd: invalid number: '0'");
            // count=0 and skip=0 are fine
            assertThat(dd("dd count=0").count()).hasValue(0);
        }

        @Test
        void overflowSaysValueTooLarge() {
            String eoverflow = ": Value too large for defined data type";
            // beyond UINTMAX_MAX while reading digits
            assertThat(reason("dd count=99999999999999999999"))
                    .isEqualTo("dd: invalid number: '99999999999999999999'" + eoverflow);
            // 8 EiB = 2^63 > INTMAX_MAX
            assertThat(reason("dd count=8E")).isEqualTo("dd: invalid number: '8E'" + eoverflow);
            assertThat(reason("dd skip=1Z")).isEqualTo("dd: invalid number: '1Z'" + eoverflow);
            assertThat(reason("dd seek=1Q")).isEqualTo("dd: invalid number: '1Q'" + eoverflow);
            // a product beyond INTMAX_MAX
            assertThat(reason("dd count=4Ex2")).isEqualTo("dd: invalid number: '4Ex2'" + eoverflow);
            assertThat(reason("dd count=3037000500x3037000500"))
                    .isEqualTo("dd: invalid number: '3037000500x3037000500'" + eoverflow);
            // block sizes stop at SSIZE_MAX - 1 (IDX_MAX - 1): INTMAX_MAX itself is too large for bs=
            assertThat(reason("dd bs=9223372036854775807"))
                    .isEqualTo("dd: invalid number: '9223372036854775807'" + eoverflow);
            // ... but not for count=, where it is dd's "no limit"
            assertThat(dd("dd count=9223372036854775807").count()).isEmpty();
        }

        @Test
        void largestAcceptedValues() {
            // 7E = 8070450532247928832 <= INTMAX_MAX
            assertThat(dd("dd count=7E iflag=count_bytes").count()).hasValue(8070450532247928832L);
            assertThat(dd("dd bs=9223372036854775806").inputBlockSize()).isEqualTo(9223372036854775806L);
            // 0x anything is 0 (with dd's warning): fine for count
            assertThat(dd("dd count=0x99999999999999999999").count()).hasValue(0);
        }
    }

    @Nested
    class BlocksAndBytes {

        @Test
        void defaults() {
            Command.Dd d = dd("dd");
            assertThat(d.input()).isEqualTo("-");
            assertThat(d.output()).isEqualTo("-");
            assertThat(d.inputBlockSize()).isEqualTo(512);
            assertThat(d.outputBlockSize()).isEqualTo(512);
            assertThat(d.blockSizeGiven()).isFalse();
            assertThat(d.count()).isEmpty();
            assertThat(d.skipBytes()).isZero();
            assertThat(d.seekBytes()).isZero();
            assertThat(d.inputFlags()).isEmpty();
            assertThat(d.outputFlags()).isEmpty();
            assertThat(d.conversions()).isEmpty();
        }

        @Test
        void countIsInInputBlocks() {
            // count=3 blocks of ibs=4096 = 12288 bytes; obs does not matter
            assertThat(dd("dd ibs=4k obs=1M count=3").count()).hasValue(12288);
            // default ibs 512: count=3 = 1536 bytes
            assertThat(dd("dd count=3").count()).hasValue(1536);
            assertThat(dd("dd count=3 obs=64k").count()).hasValue(1536);
        }

        @Test
        void countBytes() {
            // iflag=count_bytes: count= is bytes
            Command.Dd d = dd("dd bs=4k count=5000 iflag=count_bytes");
            assertThat(d.count()).hasValue(5000);
            assertThat(d.inputFlags()).containsExactly(DdFlag.COUNT_BYTES);
            // dd 9.1: a B suffix counts bytes too (and dd sets count_bytes itself)
            Command.Dd b = dd("dd bs=4k count=1MB");
            assertThat(b.count()).hasValue(1000000);
            assertThat(b.inputFlags()).containsExactly(DdFlag.COUNT_BYTES);
            assertThat(dd("dd bs=4k count=1MiB").count()).hasValue(1048576);
            assertThat(dd("dd bs=4k count=100B").count()).hasValue(100);
            // without B: 1M blocks of 4096 = 4 GiB
            assertThat(dd("dd bs=4k count=1M").count()).hasValue(4096L * 1048576);
            // oflag=count_bytes is accepted by dd and has no effect on count
            assertThat(dd("dd bs=4k count=2 oflag=count_bytes").count()).hasValue(8192);
        }

        @Test
        void skipIsInInputBlocksAndSeekInOutputBlocks() {
            // skip: ibs blocks; seek: obs blocks
            Command.Dd d = dd("dd ibs=4k obs=64k skip=3 seek=5");
            assertThat(d.skipBytes()).isEqualTo(3 * 4096);
            assertThat(d.seekBytes()).isEqualTo(5 * 65536);
            // iseek= is skip=, oseek= is seek= (dd 9.1)
            Command.Dd o = dd("dd ibs=4k obs=64k iseek=3 oseek=5");
            assertThat(o.skipBytes()).isEqualTo(3 * 4096);
            assertThat(o.seekBytes()).isEqualTo(5 * 65536);
            // the last of skip=/iseek= wins
            assertThat(dd("dd bs=1k skip=1 iseek=2").skipBytes()).isEqualTo(2048);
        }

        @Test
        void skipAndSeekBytes() {
            Command.Dd d = dd("dd bs=1M skip=4096 seek=1536 iflag=skip_bytes oflag=seek_bytes");
            assertThat(d.skipBytes()).isEqualTo(4096);
            assertThat(d.seekBytes()).isEqualTo(1536);
            // B suffix: bytes, and dd adds the flags
            Command.Dd b = dd("dd bs=1M skip=4KiB seek=2KB");
            assertThat(b.skipBytes()).isEqualTo(4096);
            assertThat(b.seekBytes()).isEqualTo(2000);
            assertThat(b.inputFlags()).containsExactly(DdFlag.SKIP_BYTES);
            assertThat(b.outputFlags()).containsExactly(DdFlag.SEEK_BYTES);
            // seek_bytes given as an input flag is accepted and does nothing (dd shares one flag table)
            assertThat(dd("dd bs=1M seek=2 iflag=seek_bytes").seekBytes()).isEqualTo(2 * 1048576);
        }

        @Test
        void bsOverridesIbsAndObsWhereverItIs() {
            Command.Dd d = dd("dd bs=8k ibs=1k obs=2k count=1");
            assertThat(d.inputBlockSize()).isEqualTo(8192);
            assertThat(d.outputBlockSize()).isEqualTo(8192);
            assertThat(d.blockSizeGiven()).isTrue();
            assertThat(d.count()).hasValue(8192);
            Command.Dd split = dd("dd ibs=1k obs=2k");
            assertThat(split.blockSizeGiven()).isFalse();
            assertThat(split.inputBlockSize()).isEqualTo(1024);
            assertThat(split.outputBlockSize()).isEqualTo(2048);
        }

        @Test
        void countBeyondLongIsClampedAndIntmaxMeansNoLimit() {
            // 2^62 blocks of 4 KiB: more than Long.MAX_VALUE bytes, which dd accepts
            assertThat(dd("dd bs=4k count=4611686018427387904").count()).hasValue(Long.MAX_VALUE);
        }

        @Test
        void offsetsBeyondTheLargestFileOffset() {
            // dd's main(): seek=N without notrunc would truncate the output to N blocks first
            assertThat(reason("dd of=/dev/sdb bs=1M seek=9223372036854775807")).isEqualTo(
                    "dd: offset too large: cannot truncate to a length of seek=9223372036854775807 (1048576-byte)"
                            + " blocks");
            // with notrunc dd tries lseek, which cannot reach the offset
            assertThat(reason("dd of=/dev/sdb bs=1M seek=9223372036854775807 conv=notrunc"))
                    .isEqualTo("dd: /dev/sdb: cannot seek: Value too large for defined data type");
            assertThat(reason("dd if=/dev/sda bs=1M skip=9223372036854775807"))
                    .isEqualTo("dd: /dev/sda: cannot skip: Value too large for defined data type");
            assertThat(reason("dd bs=1M skip=9223372036854775807"))
                    .isEqualTo("dd: 'standard input': cannot skip: Value too large for defined data type");
            // in bytes they fit
            assertThat(dd("dd of=/dev/sdb bs=1M seek=9223372036854775807 oflag=seek_bytes").seekBytes())
                    .isEqualTo(Long.MAX_VALUE);
        }
    }

    @Nested
    class FlagsAndConversions {

        @Test
        void everyLinuxFlag() {
            Command.Dd d = dd("dd iflag=append,direct,directory,dsync,noatime,noctty,nofollow,nonblock,sync,"
                    + "fullblock,count_bytes,skip_bytes,seek_bytes oflag=direct,sync,dsync,noatime,append");
            assertThat(d.inputFlags()).containsExactlyInAnyOrder(DdFlag.APPEND, DdFlag.DIRECT, DdFlag.DIRECTORY,
                    DdFlag.DSYNC, DdFlag.NOATIME, DdFlag.NOCTTY, DdFlag.NOFOLLOW, DdFlag.NONBLOCK, DdFlag.SYNC,
                    DdFlag.FULLBLOCK, DdFlag.COUNT_BYTES, DdFlag.SKIP_BYTES, DdFlag.SEEK_BYTES);
            assertThat(d.outputFlags()).containsExactlyInAnyOrder(DdFlag.DIRECT, DdFlag.SYNC, DdFlag.DSYNC,
                    DdFlag.NOATIME, DdFlag.APPEND);
            assertThat(dd("dd oflag=nocache").outputFlags()).containsExactly(DdFlag.NOCACHE);
        }

        @Test
        void repeatedFlagOperandsAccumulate() {
            Command.Dd d = dd("dd oflag=direct oflag=dsync conv=fsync conv=notrunc");
            assertThat(d.outputFlags()).containsExactlyInAnyOrder(DdFlag.DIRECT, DdFlag.DSYNC);
            assertThat(d.conversions()).containsExactlyInAnyOrder(DdConv.FSYNC, DdConv.NOTRUNC);
        }

        @Test
        void conversions() {
            assertThat(dd("dd conv=fsync,fdatasync,notrunc,noerror,sync,sparse,swab,lcase,excl").conversions())
                    .containsExactlyInAnyOrder(DdConv.FSYNC, DdConv.FDATASYNC, DdConv.NOTRUNC, DdConv.NOERROR,
                            DdConv.SYNC, DdConv.SPARSE, DdConv.SWAB, DdConv.LCASE, DdConv.EXCL);
            assertThat(dd("dd conv=nocreat,ucase").conversions())
                    .containsExactlyInAnyOrder(DdConv.NOCREAT, DdConv.UCASE);
        }

        @Test
        void blockAndUnblockNeedCbs() {
            // dd drops block/unblock when cbs= is absent, so it does not reject them together either
            assertThat(dd("dd conv=block,unblock").conversions()).isEmpty();
            assertThat(dd("dd conv=block cbs=80").conversions()).containsExactly(DdConv.BLOCK);
            // ascii implies unblock, ebcdic and ibm imply block
            assertThat(dd("dd conv=ascii cbs=80").conversions())
                    .containsExactlyInAnyOrder(DdConv.ASCII, DdConv.UNBLOCK);
            assertThat(dd("dd conv=ebcdic cbs=80").conversions())
                    .containsExactlyInAnyOrder(DdConv.EBCDIC, DdConv.BLOCK);
            assertThat(dd("dd conv=ibm").conversions()).containsExactly(DdConv.IBM);
        }

        @Test
        void statusLevels() {
            assertThat(dd("dd status=none")).isNotNull();
            assertThat(dd("dd status=noxfer")).isNotNull();
            assertThat(dd("dd status=progress")).isNotNull();
        }
    }

    @Nested
    class Rejections {

        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', value = {
            "dd foo=bar                          | dd: unrecognized operand 'foo=bar'",
            "dd if=/dev/zero count               | dd: unrecognized operand 'count'",
            "dd -                                | dd: unrecognized operand '-'",
            "dd =5                               | dd: unrecognized operand '=5'",
            "dd bs=1x                            | dd: invalid number: '1x'",
            "dd count=abc                        | dd: invalid number: 'abc'",
            "dd skip=-1                          | dd: invalid number: '-1'",
            "dd iflag=directt                    | dd: invalid input flag: 'directt'",
            "dd iflag=binary                     | dd: invalid input flag: 'binary'",
            "dd iflag=text                       | dd: invalid input flag: 'text'",
            "dd oflag=cio                        | dd: invalid output flag: 'cio'",
            "dd oflag=nolinks                    | dd: invalid output flag: 'nolinks'",
            "dd oflag=excl                       | dd: invalid output flag: 'excl'",
            "dd oflag=nocreat                    | dd: invalid output flag: 'nocreat'",
            "dd oflag=DIRECT                     | dd: invalid output flag: 'DIRECT'",
            "dd oflag=direct,                    | dd: invalid output flag: ''",
            "dd oflag=                           | dd: invalid output flag: ''",
            "dd iflag=direct,bogus,sync          | dd: invalid input flag: 'bogus'",
            "dd conv=fsnyc                       | dd: invalid conversion: 'fsnyc'",
            "dd conv=direct                      | dd: invalid conversion: 'direct'",
            "dd conv=,fsync                      | dd: invalid conversion: ''",
            "dd status=quiet                     | dd: invalid status level: 'quiet'",
            "dd oflag=fullblock                  | dd: invalid output flag: 'fullblock'",
            "dd conv=excl,nocreat                | dd: cannot combine excl and nocreat",
            "dd conv=lcase,ucase                 | dd: cannot combine lcase and ucase",
            "dd conv=block,unblock cbs=80        | dd: cannot combine block and unblock",
            "dd conv=ascii,block cbs=80          | dd: cannot combine block and unblock",
            "dd conv=ascii,ebcdic                | dd: cannot combine any two of {ascii,ebcdic,ibm}",
            "dd conv=ebcdic,ibm                  | dd: cannot combine any two of {ascii,ebcdic,ibm}",
            "dd iflag=direct,nocache             | dd: cannot combine direct and nocache",
            "dd oflag=nocache oflag=direct       | dd: cannot combine direct and nocache",
            "dd -x                               | dd: invalid option -- 'x'",
            "dd if=/dev/zero --sparse            | dd: unrecognized option '--sparse'",
        })
        void ddsOwnWords(String line, String reason) {
            assertThat(reason(line)).isEqualTo(reason);
        }

        @Test
        void directOnOneSideAndNocacheOnTheOtherIsFine() {
            Command.Dd d = dd("dd iflag=nocache oflag=direct");
            assertThat(d.inputFlags()).containsExactly(DdFlag.NOCACHE);
            assertThat(d.outputFlags()).containsExactly(DdFlag.DIRECT);
        }

        @Test
        void operandErrorsComeInDdsOrder() {
            // the operand loop reports the first bad operand; an unknown name before its number
            assertThat(reason("dd bs=0 conv=bogus")).isEqualTo("dd: invalid number: '0'");
            assertThat(reason("dd conv=bogus bs=0")).isEqualTo("dd: invalid conversion: 'bogus'");
            assertThat(reason("dd foo=1x")).isEqualTo("dd: unrecognized operand 'foo=1x'");
            // combination checks come after all operands are read
            assertThat(reason("dd conv=lcase,ucase bs=1x")).isEqualTo("dd: invalid number: '1x'");
            assertThat(reason("dd oflag=fullblock conv=lcase,ucase")).isEqualTo("dd: invalid output flag: 'fullblock'");
        }

        @Test
        void quotingInMessagesFollowsCoreutils() {
            // quoteaf: a value holding a single quote is shown in double quotes
            assertThat(reason("dd \"bs=1'x\"")).isEqualTo("dd: invalid number: \"1'x\"");
            assertThat(reason("dd \"foo=a b\"")).isEqualTo("dd: unrecognized operand 'foo=a b'");
        }

        @Test
        void theExceptionNamesLineAndReason() {
            WorkloadParseException e = (WorkloadParseException) org.assertj.core.api.Assertions.catchThrowable(
                    () -> Script.parse("sync\n\ndd bs=1x\n"));
            assertThat(e.lineNumber()).isEqualTo(3);
            assertThat(e.lineText()).isEqualTo("dd bs=1x");
            assertThat(e.reason()).isEqualTo("dd: invalid number: '1x'");
            assertThat(e).hasMessage("line 3: dd: invalid number: '1x' (in: dd bs=1x)");
        }

        @Test
        void helpAndVersionCopyNothing() {
            assertThatThrownBy(() -> Command.parse("dd --help")).isInstanceOf(WorkloadParseException.class);
            assertThatThrownBy(() -> Command.parse("dd --vers")).isInstanceOf(WorkloadParseException.class);
        }
    }

    @Nested
    class Redirections {

        @Test
        void shellRedirectionsStandForIfAndOf() {
            Command.Dd d = dd("dd bs=1M count=1 < /dev/zero > /dev/sdb");
            assertThat(d.input()).isEqualTo("/dev/zero");
            assertThat(d.output()).isEqualTo("/dev/sdb");
            // if= wins over stdin
            assertThat(dd("dd if=/dev/urandom < /dev/zero").input()).isEqualTo("/dev/urandom");
            // dd's statistics thrown away
            assertThat(dd("dd if=/dev/zero of=/dev/sdb count=1 2>/dev/null").count()).isEqualTo(OptionalLong.of(512));
            assertThat(dd("dd if=/dev/zero of=/dev/sdb count=1 2>&1").output()).isEqualTo("/dev/sdb");
        }
    }
}
