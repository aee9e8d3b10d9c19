package dev.dmmodel.dm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.units.Sectors;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DmTableTest {

    @Test
    void targetsArePlacedBackToBackAndFormatLikeDmsetup() {
        DmTable t = DmTable.builder()
                .linear(Sectors.of(16384), "sda", Sectors.of(165888))
                .linear(Sectors.of(16384), "sdb", Sectors.of(247808))
                .build();
        // recorded: ss-span vg-span table
        assertThat(t.format(d -> d.equals("sda") ? "8:0" : "8:16"))
                .isEqualTo("0 16384 linear 8:0 165888\n16384 16384 linear 8:16 247808\n");
        assertThat(t.size()).isEqualTo(Sectors.of(32768));
        assertThat(t.devices()).containsExactly("sda", "sdb");
    }

    @Test
    void thinPoolFeaturesPrintInTheKernelsOrder() {
        DmTable t = DmTable.builder().thinPool(Sectors.of(524288), "dm-0", "dm-1", 2048, 0,
                ThinPoolFeature.ERROR_IF_NO_SPACE, ThinPoolFeature.SKIP_BLOCK_ZEROING).build();
        assertThat(t.format(d -> d)).isEqualTo("0 524288 thin-pool dm-0 dm-1 2048 0 2 skip_block_zeroing error_if_no_space\n");
        ThinPoolTarget p = (ThinPoolTarget) t.targets().get(0);
        assertThat(p.zeroNewBlocks()).isFalse();
        assertThat(p.discardPassdown()).isTrue();
    }

    @Test
    void stripedGeometryIsCheckedAsStripeCtrDoes() {
        List<StripedTarget.Stripe> two = List.of(new StripedTarget.Stripe("sda", Sectors.ZERO),
                new StripedTarget.Stripe("sdb", Sectors.ZERO));
        assertThatThrownBy(() -> new StripedTarget(Sectors.ZERO, Sectors.of(1001), 128, two))
                .hasMessage("striped target: length (1001 sectors) is not divisible by the number of stripes (2)");
        assertThatThrownBy(() -> new StripedTarget(Sectors.ZERO, Sectors.of(1000), 128, two))
                .hasMessage("striped target: stripe width (500 sectors) is not divisible by the chunk size (128 sectors)");
        assertThatThrownBy(() -> new StripedTarget(Sectors.ZERO, Sectors.of(1024), 4, two))
                .hasMessage("striped target: chunk size (4 sectors) must be at least one page (8 sectors)");
    }

    @Test
    void thinPoolBlockSizeIsCheckedAsPoolCtrDoes() {
        assertThatThrownBy(() -> DmTable.builder().thinPool(Sectors.of(1024), "a", "b", 192, 0))
                .hasMessageContaining("Invalid block size 192 sectors");
        assertThatThrownBy(() -> DmTable.builder().thinPool(Sectors.of(1024), "a", "b", 64, 0))
                .hasMessageContaining("Invalid block size 64 sectors");
        assertThatThrownBy(() -> new ThinTarget(Sectors.ZERO, Sectors.of(8), "p", 1L << 24, Optional.empty()))
                .hasMessage("thin: device id (16777216) must be between 0 and 16777215");
    }

    @Test
    void atMostFourPoolFeaturesAsParsePoolFeaturesTakes() {
        assertThatThrownBy(() -> DmTable.builder().thinPool(Sectors.of(1024), "a", "b", 128, 0,
                ThinPoolFeature.values())).hasMessage("thin-pool: Invalid number of pool feature arguments "
                + "(5 features; the kernel takes at most 4 feature words)");
        assertThat(DmTable.builder().thinPool(Sectors.of(1024), "a", "b", 128, 0, ThinPoolFeature.SKIP_BLOCK_ZEROING,
                ThinPoolFeature.IGNORE_DISCARD, ThinPoolFeature.READ_ONLY, ThinPoolFeature.ERROR_IF_NO_SPACE).build()
                .targets()).hasSize(1);
    }

    @Test
    void gapsAreRefused() {
        DmTarget a = new LinearTarget(Sectors.ZERO, Sectors.of(8), "sda", Sectors.ZERO);
        DmTarget b = new LinearTarget(Sectors.of(16), Sectors.of(8), "sda", Sectors.of(8));
        assertThatThrownBy(() -> new DmTable(List.of(a, b)))
                .hasMessage("dm table: Gap in table: target linear starts at sector 16, expected 8");
        assertThatThrownBy(() -> new DmTable(List.of())).hasMessage("a dm table needs at least one target");
        assertThatThrownBy(() -> ThinPoolFeature.ofWord("zero")).hasMessageStartingWith("unknown thin-pool feature 'zero'");
    }
}
