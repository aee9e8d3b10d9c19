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

    @Test
    void snapshotBackup() {
        String out = output(SnapshotBackup::run);
        // 64 MiB of 1 MiB writes to the origin: 4 KiB chunks → 64 MiB / 4 KiB = 16384 first writes, each a copy.
        // COW use as dmsetup status prints it (used/total metadata, sectors): 16384 data chunks, the header, 64
        // full metadata areas of 4096 / 16 = 256 exceptions and the 65th, zeroed when the 64th filled:
        // (16384 + 1 + 65) * 8 = 131600 of 2097152 (1 GiB); metadata (1 + 65) * 8 = 528
        assertThat(out).contains("dm-3: 16384 chunks copied, 64 commits, status 131600/2097152 528");
        // 64 KiB chunks: 64 MiB / 64 KiB = 1024 copies
        assertThat(out).contains("dm-3: 1024 chunks copied");
        // a 32 MiB COW store of 64 KiB chunks = 512 chunks: header, one metadata chunk (4096 exceptions), 510 data
        // chunks; the 511th first write finds it full and invalidates the snapshot
        assertThat(out).contains("dm-3: 510 chunks copied, 31 commits, status Invalid")
                .contains("ERROR snapshot.cow-full: the COW device dm-2 of snapshot dm-3 (32MiB) filled");
        assertThat(out).contains("256 pieces per write").contains("16 pieces per write");
    }
}
