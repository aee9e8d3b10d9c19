package dev.dmmodel.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The storage-stack examples run and print the numbers their explanations rely on. */
class StackExamplesTest {

    private static String output(Consumer<PrintStream> example) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        example.accept(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void luksOnLvm() {
        String out = output(LuksOnLvm::run);
        // the 1 MiB direct write = 2048 sectors enters dm-1 (crypt) as one bio; get_max_request_size = 256 sectors
        // cuts it into 2048 / 256 = 8 pieces: 7 splits at dm-1, 8 x 256 at the LV (dm-0) and at sda
        assertThat(out).contains("dm-1   bios: 1 x 2048; splits 7\n").contains("dm-0   bios: 8 x 256\n")
                .contains("sda    bios: 8 x 256;");
        // 512-byte crypt sectors over the 512e SSD's 4096-byte physical blocks, and no allow_discards over TRIM
        assertThat(out).contains("WARNING crypt.sector-size-below-physical-block [dm-1]")
                .contains("INFO crypt.discards-dropped [dm-1]");
        // with --sector-size 4096 --allow-discards: lbs 4096, discards stacked from the SSD (4194240 sectors of
        // 512 bytes = 2147450880 bytes), no crypt finding
        assertThat(out).contains("logical_block_size 4096 and discard_max_bytes 2147450880; crypt findings left: 0.");
    }
}
