package dev.dmmodel.lvm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** LVM's dm names both ways ({@code dm_build_dm_name} and {@code dm_split_lvm_name}), in one place. */
class LogicalVolumeDmNameTest {

    @Test
    void buildsAndSplitsNamesWithDoubledHyphens() {
        // dm_build_dm_name doubles every hyphen of the VG and LV names and joins them with one hyphen
        assertThat(LogicalVolume.dmName("my-vg", "my-lv")).isEqualTo("my--vg-my--lv");
        assertThat(LogicalVolume.splitDmName("my--vg-my--lv")).contains(List.of("my-vg", "my-lv"));
        assertThat(LogicalVolume.splitDmName("vg0-lv")).contains(List.of("vg0", "lv"));
    }

    @Test
    void aNameWithoutExactlyOneSingleHyphenIsNoLvName() {
        // a layer adds a second single hyphen (vg-pool-tpool); sda has none; "-lv" and "vg-" have an empty side
        assertThat(LogicalVolume.splitDmName("vgt-pool-tpool")).isEmpty();
        assertThat(LogicalVolume.splitDmName("sda")).isEmpty();
        assertThat(LogicalVolume.splitDmName("-lv")).isEmpty();
        assertThat(LogicalVolume.splitDmName("vg-")).isEmpty();
        // "a--b" is one name with a doubled hyphen, not a split
        assertThat(LogicalVolume.splitDmName("a--b")).isEmpty();
    }
}
