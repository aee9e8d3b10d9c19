package dev.dmmodel.impl.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.plan.PlanException;
import dev.dmmodel.plan.PlanFormat;
import org.junit.jupiter.api.Test;

class PlanFormatsTest {

    @Test
    void byNameThenByContent() {
        assertThat(PlanFormats.detect("anything", "provision.sh")).isEqualTo(PlanFormat.SHELL);
        assertThat(PlanFormats.detect("anything", "anaconda.ks")).isEqualTo(PlanFormat.KICKSTART);
        assertThat(PlanFormats.detect("#!/bin/bash\nsgdisk -Z /dev/sda\n", "provision")).isEqualTo(PlanFormat.SHELL);
        assertThat(PlanFormats.detect("# setup\nVG=vg0\npvcreate /dev/sdb\n", "setup")).isEqualTo(PlanFormat.SHELL);
        assertThat(PlanFormats.detect("""
                lang en_US.UTF-8
                clearpart --all --initlabel
                part /boot --size=1024
                part pv.01 --size=1 --grow
                volgroup vg pv.01
                logvol / --vgname=vg --name=root --size=10240
                """, "ks.cfg")).isEqualTo(PlanFormat.KICKSTART);
        assertThat(PlanFormats.detect("""
                autoinstall:
                  version: 1
                  storage:
                    config:
                      - type: disk
                        id: disk0
                        path: /dev/vda
                """, "user-data")).isEqualTo(PlanFormat.CURTIN);
        assertThat(PlanFormats.detect("""
                - hosts: db
                  tasks:
                    - name: data VG
                      community.general.lvg:
                        vg: data
                        pvs: /dev/sdb
                """, "site.yml")).isEqualTo(PlanFormat.ANSIBLE);
        assertThatThrownBy(() -> PlanFormats.detect("hello: world\n", "notes.yaml"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith("notes.yaml: not a plan dmmodel recognises: expected a shell script");
        assertThat(PlanFormat.named("Curtin")).isEqualTo(PlanFormat.CURTIN);
        assertThatThrownBy(() -> PlanFormat.named("salt")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("plan format \"salt\": expected shell, kickstart, curtin or ansible");
    }
}
