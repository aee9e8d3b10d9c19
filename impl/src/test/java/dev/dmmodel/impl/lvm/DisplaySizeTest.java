package dev.dmmodel.impl.lvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** LVM's display_size, as its messages show sizes (lvm2-semantics.md §5.3, §8). */
class DisplaySizeTest {

    @Test
    void exactValuesHaveTwoDecimals() {
        assertThat(DisplaySize.sectors(128)).isEqualTo("64.00 KiB");
        assertThat(DisplaySize.sectors(256)).isEqualTo("128.00 KiB");
        assertThat(DisplaySize.sectors(8192)).isEqualTo("4.00 MiB");
        assertThat(DisplaySize.sectors(2_097_152)).isEqualTo("1.00 GiB");
    }

    @Test
    void largestUnitNotAboveTheSize() {
        assertThat(DisplaySize.sectors(2046)).isEqualTo("1023.00 KiB"); // §5.3: 1023 KiB stays in KiB
    }

    @Test
    void roundingUpIsMarked() {
        // 2559 x 4 MiB = 9.996 GiB -> "<10.00"; 5118 x 4 MiB = 19.992 GiB -> "19.99" (rounded down)
        assertThat(DisplaySize.sectors(2559L * 8192)).isEqualTo("<10.00 GiB");
        assertThat(DisplaySize.sectors(5118L * 8192)).isEqualTo("19.99 GiB");
        // 15.875 GiB: two decimals round half to even, up to 15.88
        assertThat(DisplaySize.sectors(33_292_288)).isEqualTo("<15.88 GiB");
        assertThat(DisplaySize.sectors(0xFFFF_FFFFL)).isEqualTo("<2.00 TiB");
    }

    @Test
    void beyondLong() {
        // the largest LV with 4 GiB extents: (2^32 - 1) x 2^23 sectors = 2^64 - 2^32 bytes, just under 16 EiB
        BigInteger sectors = BigInteger.valueOf(0xFFFF_FFFFL).shiftLeft(23);
        assertThat(DisplaySize.sectors(sectors)).isEqualTo("<16.00 EiB");
    }

    @Test
    void zero() {
        assertThat(DisplaySize.sectors(0)).isEqualTo("0 ");
    }
}
