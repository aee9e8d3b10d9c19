package dev.dmmodel.impl.plan.kickstart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.dmmodel.plan.PlanException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Mutated kickstart files: reading one only ever throws PlanException (seeded, deterministic). */
class KickstartFuzzTest {

    private static final String SEED = """
            ignoredisk --only-use=sda,sdb
            clearpart --all --initlabel --disklabel=gpt --drives=sda
            zerombr
            reqpart --add-boot
            part /boot --fstype="xfs" --ondisk=sda --size=512
            part pv.01 --fstype=lvmpv --ondisk=sda --size=1 --grow --maxsize=90000
            part swap --size=2048 --asprimary
            part /srv --onpart=sdb1 --noformat
            volgroup vg --pesize=4096 --reserved-percent=5 pv.01
            logvol / --vgname=vg --name=root --size=10240 --fstype=ext4
            logvol /var --vgname=vg --name=var --percent=20
            logvol none --vgname=vg --name=pool --thinpool --size=1000 --grow --chunksize=64 --metadatasize=8
            logvol /home --vgname=vg --name=home --thin --poolname=pool --size=4096
            %packages
            @core
            %end
            """;

    private static final String[] TOKENS = {" ", "\n", "--", "=", "\"", "'", "\\", "#", "%end", "%post", "--grow",
        "--size=", "pv.01", "pv.02", "vg", "--percent=", "0", "-1", "99999999999999999999", ",", "--thin",
        "--thinpool", "logvol ", "part ", "volgroup ", "raid ", "autopart", "%include", "\t", "\r", "\uFEFF", "ü"};

    @Test
    void mutatedKickstartsOnlyEverThrowPlanException() {
        Random random = new Random(20240614L);
        KickstartPlanReader reader = new KickstartPlanReader();
        int read = 0;
        int refused = 0;
        for (int i = 0; i < 100_000; i++) {
            StringBuilder s = new StringBuilder(SEED);
            int edits = 1 + random.nextInt(4);
            for (int e = 0; e < edits; e++) {
                int at = random.nextInt(s.length() + 1);
                switch (random.nextInt(5)) {
                    case 0 -> s.insert(at, TOKENS[random.nextInt(TOKENS.length)]);
                    case 1 -> {
                        if (at < s.length()) {
                            s.deleteCharAt(at);
                        }
                    }
                    case 2 -> {
                        if (at < s.length()) {
                            s.setCharAt(at, (char) (32 + random.nextInt(95)));
                        }
                    }
                    case 3 -> {
                        int end = Math.min(s.length(), at + random.nextInt(40));
                        s.delete(at, end);
                    }
                    default -> {
                        int end = Math.min(s.length(), at + random.nextInt(30));
                        s.insert(random.nextInt(s.length() + 1), s.substring(at, end));
                    }
                }
            }
            try {
                reader.read(s.toString(), "fuzz.ks");
                read++;
            } catch (PlanException e) {
                refused++;
                assertThat(e.getMessage()).startsWith("fuzz.ks:");
            } catch (RuntimeException e) {
                fail("input " + i + " threw " + e + " for:\n" + s, e);
            }
        }
        assertThat(read + refused).isEqualTo(100_000);
        assertThat(read).isPositive();
        assertThat(refused).isPositive();
    }
}
