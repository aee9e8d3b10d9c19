package dev.dmmodel.impl.plan.kickstart;

import dev.dmmodel.device.PartitionTableType;
import java.util.List;
import java.util.Optional;

/** The storage requests of a kickstart file, as anaconda's custom partitioning turns them into blivet devices. */
final class KsRequests {

    private KsRequests() {
    }

    /** What a {@code part} line makes. */
    enum Role {
        /** A filesystem at a mount point. */
        FILESYSTEM,
        /** {@code swap}. */
        SWAP,
        /** {@code pv.NN}: an LVM physical volume. */
        PV,
        /** {@code raid.NN}: an md member. */
        RAID,
        /** {@code biosboot}: the BIOS boot partition grub2 needs on GPT. */
        BIOSBOOT,
        /** {@code /boot/efi}: the EFI system partition. */
        EFI,
        /** {@code None}: a partition without mount point. */
        NONE
    }

    /** {@code ignoredisk}: {@code --only-use} (the disks used) or {@code --drives} (the disks ignored). */
    record IgnoreDisk(KsLine line, List<String> onlyUse, List<String> ignored) {
    }

    /** {@code clearpart}. */
    enum ClearMode { ALL, LINUX, NONE }

    /** {@code clearpart --all|--linux|--none [--drives=] [--list=] [--initlabel] [--disklabel=]}. */
    record ClearPart(KsLine line, ClearMode mode, List<String> drives, List<String> list, boolean initLabel,
                     Optional<PartitionTableType> label) {
    }

    /**
     * A {@code part} line (or one of {@code reqpart}'s platform partitions).
     *
     * @param mount the mount point or symbolic name as written ({@code /boot}, {@code pv.01}, {@code swap})
     * @param sizeMiB the requested size; blivet's default partition size (500 MiB) when not given
     * @param maxMiB {@code --maxsize}, 0 without
     * @param disks {@code --ondisk}, empty for any disk
     * @param onPart {@code --onpart}: an existing partition to use instead of a new one
     */
    record Part(KsLine line, Role role, String mount, String fstype, long sizeMiB, boolean grow, long maxMiB,
                List<String> disks, boolean primary, Optional<String> onPart, boolean format) {
        /** blivet/devices/partition.py: PartitionDevice._get_weight — what sorts boot partitions first. */
        int weight() {
            if (role == Role.FILESYSTEM && mount.equals("/boot")) {
                return 2000;
            }
            if (role == Role.EFI || role == Role.BIOSBOOT) {
                return 5000;
            }
            return 0;
        }
    }

    /** {@code volgroup NAME PV... [--pesize=KiB] [--reserved-space=MiB | --reserved-percent=N]}. */
    record VolGroup(KsLine line, String name, List<String> pvs, long peKiB, long reservedMiB, long reservedPercent) {
    }

    /** A {@code logvol} line. */
    record LogVol(KsLine line, String mount, String name, String vg, long sizeMiB, boolean grow, long maxMiB,
                  long percent, boolean thinPool, boolean thin, String pool, long chunkKiB, long metadataMiB,
                  String fstype) {
        boolean swap() {
            return mount.equals("swap");
        }
    }
}
