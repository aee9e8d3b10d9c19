package dev.dmmodel.lvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.layout.Layout;
import dev.dmmodel.layout.LayoutStep;
import dev.dmmodel.limits.KernelProfile;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lvextend and lvconvert requests: what they refuse, their defaults, and the builder steps they make. */
class LvmRequestsTest {

    @Test
    void lvExtendRequestRefusesNothingToAddAndImpossibleStripes() {
        assertThatThrownBy(() -> LvExtendRequest.onRanges("lv", 0, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("extents to add (0)");
        assertThatThrownBy(() -> new LvExtendRequest("lv", 1, 129, null, AllocationPolicy.INHERIT, List.of(),
                List.of())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("(129)");
        assertThatThrownBy(() -> new LvExtendRequest(null, 1, 0, null, AllocationPolicy.INHERIT, List.of(), List.of()))
                .isInstanceOf(NullPointerException.class).hasMessage("name");
        LvExtendRequest r = LvExtendRequest.onRanges("lv", 3, List.of(new ExtentRange("sda", 5, 3)));
        assertThat(r.stripes()).isZero();
        assertThat(r.stripeSize()).isNull();
        assertThat(r.policy()).isEqualTo(AllocationPolicy.INHERIT);
    }

    @Test
    void thinPoolConvertRequestDefaultsAreLvms() {
        ThinPoolConvertRequest r = ThinPoolConvertRequest.of("pool", "meta");
        assertThat(r.zeroOrDefault()).isTrue();
        assertThat(r.discardsOrDefault()).isEqualTo(ThinDiscards.PASSDOWN);
        assertThat(r.poolMetadataSpare()).isTrue();
        assertThat(r.chunkSize()).isNull();
        assertThat(r.errorWhenFull()).isFalse();
        assertThatThrownBy(() -> ThinPoolConvertRequest.of("pool", null)).isInstanceOf(NullPointerException.class)
                .hasMessage("metadataLv");
    }

    @Test
    void theBuilderRecordsTheSteps() {
        LvExtendRequest extend = LvExtendRequest.onRanges("lv", 1, List.of());
        ThinPoolConvertRequest convert = ThinPoolConvertRequest.of("pool", "meta");
        List<LayoutStep> steps = new ArrayList<>(Layout.builder(KernelProfile.LINUX_6_12).lvextend("vg", extend)
                .lvconvertThinPool("vg", convert).steps());
        assertThat(steps).containsExactly(new LayoutStep.LvExtend("vg", extend),
                new LayoutStep.ThinPoolConvert("vg", convert));
    }
}
