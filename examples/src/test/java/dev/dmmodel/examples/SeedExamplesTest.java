package dev.dmmodel.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Each seed example runs and prints the numbers its explanation relies on. */
class SeedExamplesTest {

    private static String output(Consumer<PrintStream> example) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        example.accept(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void seed000() {
        String out = output(Seed000SeekyLvm::run);
        // dd bs=4096 count=25000 writes 25,000 x 4096 bytes = 200,000 sectors, written back once, in order.
        // To /dev/sda1: the partition's size is 2 mod 4 sectors, so its soft block size is 1 KiB and writeback
        // sends one 2-sector bio per buffer: 200,000 / 2 = 100,000 bios. 2.6.0 counts each bio as a hardware
        // segment and the 3ware takes 62 (TW_MAX_SGL_LENGTH), so a request holds 62 bios = 124 sectors (the
        // seed's "maximum number of sectors per request is 124"): 200,000 / 124 = 1612.9, so 1612 full requests
        // and one of 112, 1613 in all, on average 200,000 / 1613 = 123.99 sectors; the other
        // 100,000 - 1613 = 98,387 bios are merged into them.
        // To /dev/vg0/test: whole extents, so 4 KiB blocks, 8-sector bios: 200,000 / 8 = 25,000, at dm-0 and,
        // remapped, at sda. A request fills the 3ware's max_sectors of 256 with 32 of them (32 segments <= 62;
        // the seed's "256 sectors per request in most cases"): 200,000 / 256 = 781.25, so 781 full requests and
        // one of 64, 782 in all ("half that of the RAID device": 782 against 1613), on average 200,000 / 782 =
        // 255.75 sectors, with 25,000 - 782 = 24,218 bios merged.
        assertThat(out).contains("sda    bios: 100000 x 2; requests 1613, average 124.0 sectors, 98387 bios merged")
                .contains("dm-0   bios: 25000 x 8\n")
                .contains("sda    bios: 25000 x 8; requests 782, average 255.8 sectors, 24218 bios merged");
    }

    @Test
    void seed001() {
        String out = output(Seed001RawReadWhileMounted::run);
        assertThat(out).contains("dm-0   bios: 2108 x 8").contains("dm-0   bios: 16864 x 1")
                .contains("dm-0 receives 16864 bios instead of 2108");
    }

    @Test
    void seed002() {
        String out = output(Seed002IostatOnDm::run);
        assertThat(out).containsPattern("dm-0 +0\\.00 +0\\.00 +0\\.00 +2560\\.00 +0\\.00 +20480\\.00 +8\\.00")
                .contains("avgrq-sz is 8.00 sectors");
    }

    @Test
    void seed004() {
        String out = output(Seed004ThinSplit::run);
        assertThat(out).contains("dm-1   bios: 16 x 704 16 x 1344").contains("dm-1   bios: 32 x 1024")
                .contains("dm-1   bios: 16 x 2048");
    }
}
