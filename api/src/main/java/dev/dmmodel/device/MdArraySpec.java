package dev.dmmodel.device;

import dev.dmmodel.units.Sectors;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * An md array's configuration, as {@code /sys/block/mdN/md/} shows it: level, member slots, chunk, layout,
 * metadata version and the members with their data offsets. What the array's size and limits are follows from
 * it by the personality's rules.
 *
 * @param level the personality
 * @param raidDisks {@code md/raid_disks}: member slots, filled or not
 * @param chunk {@code md/chunk_size} in sectors; zero for raid1
 * @param layout {@code md/layout}: raid4/5/6 the algorithm (2 = left-symmetric), raid10 near/far/offset copies
 *     ({@code 258} = near=2), raid0 its multi-zone layout (−1 if unset), raid1 0
 * @param metadataVersion {@code md/metadata_version}: {@code 1.2}, {@code 1.0}, {@code 0.90}, {@code external:...}
 * @param members the active members, by slot
 */
public record MdArraySpec(MdLevel level, int raidDisks, Sectors chunk, int layout, String metadataVersion,
                          List<MdMember> members) {

    /** Rejects nulls, members outside the slots or sharing one, and a chunk where the level has none. */
    public MdArraySpec {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(chunk, "chunk");
        Objects.requireNonNull(metadataVersion, "metadataVersion");
        members = List.copyOf(members);
        if (raidDisks < 1) {
            throw new IllegalArgumentException(level.sysfsName() + " array: raid_disks " + raidDisks
                    + " must be at least 1");
        }
        if (members.isEmpty()) {
            throw new IllegalArgumentException(level.sysfsName() + " array: no members");
        }
        Set<Integer> slots = new HashSet<>();
        Set<String> devices = new HashSet<>();
        for (MdMember m : members) {
            if (m.slot() >= raidDisks) {
                throw new IllegalArgumentException(level.sysfsName() + " array: member " + m.device() + " has slot "
                        + m.slot() + ", outside the " + raidDisks + " raid disks (0 to " + (raidDisks - 1) + ")");
            }
            if (!slots.add(m.slot())) {
                throw new IllegalArgumentException(level.sysfsName() + " array: slot " + m.slot()
                        + " is taken by two members (" + m.device() + " and another)");
            }
            if (!devices.add(m.device())) {
                throw new IllegalArgumentException(level.sysfsName() + " array: member " + m.device()
                        + " is listed twice");
            }
        }
        if (!level.hasChunk() && chunk.count() != 0) {
            throw new IllegalArgumentException(level.sysfsName() + " array: chunk " + chunk.count()
                    + " sectors given, but " + level.sysfsName() + " has no chunk (md/chunk_size 0)");
        }
        if (level.hasChunk() && chunk.count() == 0) {
            throw new IllegalArgumentException(level.sysfsName() + " array: chunk is 0; " + level.sysfsName()
                    + " needs a chunk size (md/chunk_size)");
        }
        members = members.stream().sorted(java.util.Comparator.comparingInt(MdMember::slot)).toList();
    }

    /** The member in {@code slot}, if the slot is filled. */
    public java.util.Optional<MdMember> member(int slot) {
        return members.stream().filter(m -> m.slot() == slot).findFirst();
    }

    /** Whether every slot has a member (the array is not degraded). */
    public boolean complete() {
        return members.size() == raidDisks;
    }
}
