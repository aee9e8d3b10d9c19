package dev.dmmodel.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.io.HostSnapshot.FilledAttribute;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link HostSnapshot} as a value: its filled-in attributes (reading is tested where the reader is, in impl). */
class HostSnapshotTest {

    private static final FilledAttribute WRITE_ZEROES = new FilledAttribute("sda", "write_zeroes_max_bytes", 0,
            "Linux 3.10 has no REQ_OP_WRITE_ZEROES and no such file before 4.10");

    private static HostSnapshot with(List<FilledAttribute> filledIn) {
        return new HostSnapshot(Path.of("snap"), Optional.of("3.10.0-1160.el7.x86_64"), List.of(), Map.of(), Map.of(),
                List.of(), List.of(), filledIn);
    }

    @Test
    void aFilledAttributeSaysDeviceAttributeRuleAndValue() {
        assertThat(WRITE_ZEROES.message()).isEqualTo("sda: queue/write_zeroes_max_bytes not in the snapshot (Linux"
                + " 3.10 has no REQ_OP_WRITE_ZEROES and no such file before 4.10); using 0");
        assertThat(new FilledAttribute("sdb", "dma_alignment", 511, "r").message())
                .isEqualTo("sdb: queue/dma_alignment not in the snapshot (r); using 511");
    }

    @Test
    void aFilledAttributeRefusesNullsBlankNamesAndNegativeValues() {
        assertThatThrownBy(() -> new FilledAttribute(null, "a", 0, "r")).isInstanceOf(NullPointerException.class)
                .hasMessage("device");
        assertThatThrownBy(() -> new FilledAttribute("sda", null, 0, "r")).isInstanceOf(NullPointerException.class)
                .hasMessage("attribute");
        assertThatThrownBy(() -> new FilledAttribute("sda", "a", 0, null)).isInstanceOf(NullPointerException.class)
                .hasMessage("rule");
        assertThatThrownBy(() -> new FilledAttribute(" ", "a", 0, "r")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("' : queue/a = 0'");
        assertThatThrownBy(() -> new FilledAttribute("sda", "chunk_sectors", -1, "r"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'sda: queue/chunk_sectors = -1'");
    }

    @Test
    void theFilledInListIsCopiedAndImmutable() {
        List<FilledAttribute> list = new ArrayList<>(List.of(WRITE_ZEROES));
        HostSnapshot host = with(list);
        list.clear();
        assertThat(host.filledIn()).containsExactly(WRITE_ZEROES);
        assertThatThrownBy(() -> host.filledIn().add(WRITE_ZEROES)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> with(null)).isInstanceOf(NullPointerException.class);
        List<FilledAttribute> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> with(withNull)).isInstanceOf(NullPointerException.class);
    }
}
