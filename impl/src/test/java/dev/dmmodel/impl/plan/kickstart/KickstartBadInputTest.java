package dev.dmmodel.impl.plan.kickstart;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dmmodel.plan.PlanException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every form the kickstart reader refuses: one PlanException naming file, line, column, found and expected. */
class KickstartBadInputTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            part / --size=100 --bogus                         | x.ks:1:19: part option "--bogus": expected one of
            part / --size=abc                                 | x.ks:1:15: part --size "abc": expected a whole number
            part / --size=99999999999999999999                | x.ks:1:15: part --size "99999999999999999999": expected a whole number below 10^18
            part / --size                                     | x.ks:1:8: part --size without its value
            part / --grow=yes                                 | x.ks:1:8: part --grow takes no value
            part / --start=1 --size=10                        | x.ks:1:8: part --start is deprecated
            part /x /y                                        | x.ks:1:9: part: expected one mount point
            part                                              | x.ks:1:1: part: expected one mount point
            part raid.01 --size=10                            | x.ks:1:6: part raid.01: raid members are not modelled yet
            part home --size=10                               | x.ks:1:6: part mount point "home": expected /PATH
            part / --fstype=zfs                               | x.ks:1:17: part --fstype "zfs": expected ext4
            part / --encrypted                                | x.ks:1:8: part --encrypted is not modelled by the dry run: encryption (LUKS)
            part / --noformat                                 | x.ks:1:8: part --noformat must also use the --onpart option.
            part / --size=0                                   | x.ks:1:15: part --size "0": expected a size of 1 MiB or more
            part / --ondisk=sda,sdb                           | x.ks:1:17: part --ondisk "sda,sdb": expected one disk
            autopart --type=lvm                               | x.ks:1:1: autopart: blivet's automatic partitioning is not modelled
            raid / --level=1 --device=md0 raid.01 raid.02     | x.ks:1:1: raid: raid is not modelled yet
            btrfs / --data=1 btrfs.01                         | x.ks:1:1: btrfs: btrfs volumes are not modelled
            clearpart --all --none                            | x.ks:1:1: clearpart: --all, --linux and --none exclude each other
            clearpart --all --disklabel=sun                   | x.ks:1:29: clearpart --disklabel "sun": expected gpt or msdos
            clearpart --list=sda1                             | x.ks:1:11: clearpart --list is not modelled
            clearpart sda                                     | x.ks:1:11: clearpart argument "sda": expected only options
            clearpart --all --drives=sd@a                     | x.ks:1:26: clearpart --drives "sd@a": expected disk names
            ignoredisk                                        | x.ks:1:1: ignoredisk: expected exactly one of --drives=
            ignoredisk --drives=sda --only-use=sdb            | x.ks:1:1: ignoredisk: expected exactly one of
            zerombr now                                       | x.ks:1:9: zerombr takes no arguments: found "now"
            reqpart --bogus                                   | x.ks:1:9: reqpart option "--bogus": expected one of --add-boot
            volgroup                                          | x.ks:1:1: volgroup: expected a volume group name
            volgroup vg                                       | x.ks:1:10: Volume group "vg" defined without any physical volumes.
            volgroup vg pv.01                                 | x.ks:1:13: Tried to use undefined partition "pv.01" in Volume Group specification
            volgroup v$g pv.01                                | x.ks:1:10: volgroup name "v$g": expected letters
            logvol / --vgname=vg --name=root --size=10        | x.ks:1:19: No volume group exists with the name "vg".
            logvol / --name=root --size=10                    | x.ks:1:1: logvol: expected --vgname=VG and --name=NAME
            logvol / --vgname=vg --name=r --percent=101       | x.ks:1:41: Percentage must be between 0 and 100.
            logvol / --vgname=vg --name=r                     | x.ks:1:1: No size given for logical volume.
            logvol home --vgname=vg --name=r --size=1         | x.ks:1:8: The mount point "home" is not valid. It must start with a /.
            logvol / --vgname=vg --name=r --thin --size=1     | x.ks:1:31: --thin requires --poolname to specify pool name
            logvol / --vgname=vg --name=r --thin --thinpool   | x.ks:1:31: --thin and --thinpool cannot both be specified
            logvol / --vgname=vg --name=r --size=1 --chunksize=64 | x.ks:1:40: --chunksize and --metadatasize are for thin pools only
            logvol / --vgname=vg --name=r --size=1 --percent=5 | x.ks:1:40: --size and --percent cannot both be specified
            logvol / --vgname=vg --name=r --size=1 --cachesize=5 | x.ks:1:40: logvol --cachesize is not modelled by the dry run: LVM cache
            part / --label='unterminated                     | x.ks:1:16: unterminated single quote
            part / --label="unterminated                     | x.ks:1:16: unterminated double quote
            %include /tmp/part-include                        | x.ks:1:1: %include: the dry run cannot follow an included file
            %end                                              | x.ks:1:1: %end without a section
            %prepare                                          | x.ks:1:1: section "%prepare": expected one of
            %packages                                         | x.ks:1:1: section %packages does not end with %end
            """)
    void refused(String line, String message) {
        assertThatThrownBy(() -> new KickstartPlanReader().read(line + "\n", "x.ks"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith(message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            part pv.01 --size=1;part pv.01 --size=1                       | x.ks:2:6: PV partition "pv.01" is defined multiple times.
            part pv.01 --size=1;volgroup vg --pesize=3000 pv.01           | x.ks:2:22: Volume group given physical extent size of "3000 KiB"
            part pv.01 --size=1;volgroup vg pv.01;volgroup vg2 pv.01      | x.ks:3:14: physical volume "pv.01" is in a volume group already
            part pv.01 --size=1;volgroup vg pv.01;volgroup vg pv.01       | x.ks:3:13: physical volume "pv.01" is in a volume group already
            part / --size=1;part / --size=2                               | x.ks:2:1: mount point / is given twice
            part pv.01 --size=1;volgroup vg pv.01;logvol / --vgname=vg --name=a --percent=60;logvol /b --vgname=vg --name=b --percent=50 | x.ks:2:1: sum of percentages within a vg cannot exceed 100
            part pv.01 --size=1;volgroup vg pv.01;logvol / --vgname=vg --name=a --size=1;logvol /b --vgname=vg --name=a --size=1 | x.ks:4:30: Logical volume name "a" is already in use
            part pv.01 --size=1;volgroup vg pv.01;logvol / --vgname=vg --name=a --thin --poolname=p --size=1 | x.ks:3:49: No thin pool exists with the name "p".
            clearpart --all;clearpart --none                              | x.ks:2:1: clearpart given twice
            reqpart;reqpart                                               | x.ks:2:1: reqpart given twice (line 1)
            """)
    void refusedAcrossLines(String lines, String message) {
        assertThatThrownBy(() -> new KickstartPlanReader().read(lines.replace(';', '\n') + "\n", "x.ks"))
                .isInstanceOf(PlanException.class)
                .hasMessageStartingWith(message);
    }
}
