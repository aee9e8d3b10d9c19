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
        // 100,000 two-sector bios in 124-sector requests; 25,000 eight-sector bios in 256-sector requests
        assertThat(out).contains("sda    bios: 100000 x 2; requests 1613, average 124.0 sectors")
                .contains("dm-0   bios: 25000 x 8").contains("requests 782, average 255.8 sectors");
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
