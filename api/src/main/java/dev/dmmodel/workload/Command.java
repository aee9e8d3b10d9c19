package dev.dmmodel.workload;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One line of a workload script, as users paste them from a shell: {@code dd}, writes to sysfs and
 * procfs, {@code sync}, {@code blockdev --setbsz}, {@code mkfs.xfs}, {@code mount}/{@code umount},
 * {@code dmsetup message|suspend|resume}, {@code blkdiscard}, {@code sleep}, and LVM's thin {@code lvcreate -V -T},
 * {@code lvcreate -s} and {@code lvremove}, and {@code mdadm --create}. Parse with
 * {@link Script#parse(String)} or {@link Command#parse(String)}.
 */
public sealed interface Command {

    /** The line as written (trimmed). */
    String line();

    /**
     * Parses one command line.
     *
     * @throws WorkloadParseException with the reason the shell tool itself would give
     */
    static Command parse(String line) {
        Objects.requireNonNull(line, "line");
        return dev.dmmodel.spi.ModelProviders.get().parseCommand(line);
    }

    /** {@code dd} flags ({@code iflag=}/{@code oflag=}). */
    enum DdFlag {
        /** O_DIRECT. */
        DIRECT,
        /** O_SYNC. */
        SYNC,
        /** O_DSYNC. */
        DSYNC,
        /** skip= counts bytes. */
        SKIP_BYTES,
        /** seek= counts bytes. */
        SEEK_BYTES,
        /** count= counts bytes. */
        COUNT_BYTES,
        /** Accumulate full input blocks. */
        FULLBLOCK,
        /** Append mode. */
        APPEND,
        /** Non-blocking I/O. */
        NONBLOCK,
        /** Do not update access times. */
        NOATIME,
        /** Discard the cache (posix_fadvise). */
        NOCACHE,
        /** Do not follow symlinks. */
        NOFOLLOW,
        /** Fail unless a directory. */
        DIRECTORY,
        /** Do not assign a controlling terminal. */
        NOCTTY
    }

    /** {@code dd conv=} symbols. */
    enum DdConv {
        /** fsync() the output before finishing. */
        FSYNC,
        /** fdatasync() the output before finishing. */
        FDATASYNC,
        /** Do not truncate the output. */
        NOTRUNC,
        /** Continue after read errors. */
        NOERROR,
        /** Pad every input block to ibs with NULs. */
        SYNC,
        /** Seek over NUL output blocks. */
        SPARSE,
        /** Fail if the output exists. */
        EXCL,
        /** Do not create the output. */
        NOCREAT,
        /** Swap byte pairs. */
        SWAB,
        /** Convert case. */
        LCASE,
        /** Convert case. */
        UCASE,
        /** Records conversions. */
        BLOCK,
        /** Records conversions. */
        UNBLOCK,
        /** Character set conversions. */
        ASCII,
        /** Character set conversions. */
        EBCDIC,
        /** Character set conversions. */
        IBM
    }

    /**
     * {@code dd}: copies {@code count} input blocks (or bytes with {@code count_bytes}) from {@code input}
     * to {@code output}. Offsets and sizes are resolved to bytes as GNU dd resolves them.
     *
     * @param line the line
     * @param input {@code if=} (default: standard input, {@code "-"})
     * @param output {@code of=} (default: standard output, {@code "-"})
     * @param inputBlockSize {@code ibs} (or {@code bs}), bytes; default 512
     * @param outputBlockSize {@code obs} (or {@code bs}), bytes; default 512
     * @param blockSizeGiven whether {@code bs=} was given (then every read is written as one write)
     * @param count bytes to copy, or empty for "until the end of the input"
     * @param skipBytes bytes skipped at the start of the input
     * @param seekBytes bytes skipped at the start of the output
     * @param inputFlags {@code iflag=}
     * @param outputFlags {@code oflag=}
     * @param conversions {@code conv=}
     */
    record Dd(String line, String input, String output, long inputBlockSize, long outputBlockSize,
              boolean blockSizeGiven, OptionalLong count, long skipBytes, long seekBytes, Set<DdFlag> inputFlags,
              Set<DdFlag> outputFlags, Set<DdConv> conversions) implements Command {
        /** Rejects nulls and impossible values. */
        public Dd {
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(output, "output");
            Objects.requireNonNull(count, "count");
            inputFlags = Set.copyOf(inputFlags);
            outputFlags = Set.copyOf(outputFlags);
            conversions = Set.copyOf(conversions);
            if (inputBlockSize <= 0 || outputBlockSize <= 0 || skipBytes < 0 || seekBytes < 0) {
                throw new IllegalArgumentException("dd: block sizes must be positive and offsets not negative: " + line);
            }
        }
    }

    /**
     * {@code echo VALUE > PATH} for a sysfs or procfs file ({@code /sys/block/DEV/queue/max_sectors_kb},
     * {@code read_ahead_kb}, ...).
     *
     * @param line the line
     * @param path the file
     * @param value what is written (without the newline)
     */
    record SysfsWrite(String line, String path, String value) implements Command {
        /** Rejects nulls. */
        public SysfsWrite {
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(value, "value");
        }
    }

    /**
     * {@code echo N > /proc/sys/vm/drop_caches}.
     *
     * @param line the line
     * @param mode 1 (page cache), 2 (slab) or 3 (both)
     */
    record DropCaches(String line, int mode) implements Command {
        /** Rejects nulls. */
        public DropCaches {
            Objects.requireNonNull(line, "line");
        }
    }

    /**
     * {@code sync}.
     *
     * @param line the line
     */
    record Sync(String line) implements Command {
        /** Rejects nulls. */
        public Sync {
            Objects.requireNonNull(line, "line");
        }
    }

    /**
     * {@code blockdev --setbsz SIZE DEV}: the device's soft block size.
     *
     * @param line the line
     * @param blockSize bytes
     * @param device the device
     */
    record SetBlockSize(String line, long blockSize, String device) implements Command {
        /** Rejects nulls. */
        public SetBlockSize {
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(device, "device");
        }
    }

    /**
     * {@code mkfs.xfs [-f] [-K] [-s size=N] DEV}: writes a filesystem (its I/O is not modelled); the
     * sector size matters when it is mounted.
     *
     * @param line the line
     * @param fsType {@code xfs}, {@code ext4} ...
     * @param sectorSize the filesystem's sector size in bytes (XFS {@code -s size=}; default 512 or the
     *     device's logical block size, decided when mounted), 0 if not given
     * @param device the device
     */
    record Mkfs(String line, String fsType, long sectorSize, String device) implements Command {
        /** Rejects nulls. */
        public Mkfs {
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(fsType, "fsType");
            Objects.requireNonNull(device, "device");
        }
    }

    /**
     * {@code mount [-t TYPE] DEV DIR}.
     *
     * @param line the line
     * @param fsType the type, empty if not given
     * @param device the device
     * @param mountPoint the directory
     */
    record Mount(String line, String fsType, String device, String mountPoint) implements Command {
        /** Rejects nulls. */
        public Mount {
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(fsType, "fsType");
            Objects.requireNonNull(device, "device");
            Objects.requireNonNull(mountPoint, "mountPoint");
        }
    }

    /**
     * {@code umount DEV|DIR}.
     *
     * @param line the line
     * @param target the device or mount point
     */
    record Umount(String line, String target) implements Command {
        /** Rejects nulls. */
        public Umount {
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(target, "target");
        }
    }

    /**
     * {@code dmsetup message DEV SECTOR "MESSAGE"} (thin pools: {@code create_thin N},
     * {@code create_snap N ORIGIN}, {@code delete N}, {@code set_transaction_id A B}).
     *
     * @param line the line
     * @param device the dm device
     * @param sector the sector argument (0 for pools)
     * @param message the message words
     */
    record DmsetupMessage(String line, String device, long sector, List<String> message) implements Command {
        /** Rejects nulls. */
        public DmsetupMessage {
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(device, "device");
            message = List.copyOf(message);
        }
    }

    /**
     * {@code dmsetup suspend DEV} or {@code dmsetup resume DEV}.
     *
     * @param line the line
     * @param device the dm device
     * @param suspend true for suspend, false for resume
     */
    record DmsetupSuspendResume(String line, String device, boolean suspend) implements Command {
        /** Rejects nulls. */
        public DmsetupSuspendResume {
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(device, "device");
        }
    }

    /**
     * {@code blkdiscard [-o OFFSET] [-l LENGTH] DEV}.
     *
     * @param line the line
     * @param offset bytes
     * @param length bytes, or empty for "to the end of the device"
     * @param device the device
     */
    record Blkdiscard(String line, long offset, OptionalLong length, String device) implements Command {
        /** Rejects nulls. */
        public Blkdiscard {
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(length, "length");
            Objects.requireNonNull(device, "device");
        }
    }

    /**
     * {@code lvcreate -s [-n NAME] VG/LV}: a thin snapshot of a thin LV.
     *
     * @param line the line
     * @param origin {@code vg/lv} of the origin
     * @param name the snapshot's name, empty for LVM's automatic {@code lvolN}
     */
    record LvcreateSnapshot(String line, String origin, String name) implements Command {
        /** Rejects nulls. */
        public LvcreateSnapshot {
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(origin, "origin");
            Objects.requireNonNull(name, "name");
        }
    }

    /**
     * {@code lvcreate -s -L SIZE [-c CHUNK] [-n NAME] VG/LV}: a classic (copy-on-write) snapshot of a linear or
     * striped LV, activated as LVM activates it (the origin reloaded as {@code snapshot-origin}).
     *
     * @param line the line
     * @param origin {@code vg/lv} of the origin
     * @param request the snapshot: the origin's LV name, the snapshot's name (empty for {@code lvolN}), the COW size
     *     and chunk size
     */
    record LvcreateCowSnapshot(String line, String origin, dev.dmmodel.lvm.CowSnapshotRequest request)
            implements Command {
        /** Rejects nulls. */
        public LvcreateCowSnapshot {
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(origin, "origin");
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * {@code mdadm --create DEVICE --level=L --raid-devices=N [--chunk=C] [--layout=P] [--metadata=V] [--assume-clean]
     * MEMBERS...}: an md array started on the running host (mdadm's defaults for what the line leaves out; the model
     * takes the array as in sync).
     *
     * @param line the line
     * @param request what the line asks for
     */
    record MdadmCreate(String line, dev.dmmodel.device.MdadmCreateRequest request) implements Command {
        /** Rejects nulls. */
        public MdadmCreate {
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * {@code sleep NUMBER[smhd]...}: modelled time passes (GNU sleep adds its operands). Nothing in the model
     * runs on a timer yet, so the engine only advances its clock.
     *
     * @param line the line
     * @param duration how long, to the nanosecond (GNU sleep rounds up to its clock's resolution)
     */
    record Sleep(String line, java.time.Duration duration) implements Command {
        /** Rejects nulls and negative durations. */
        public Sleep {
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(duration, "duration");
            if (duration.isNegative()) {
                throw new IllegalArgumentException("sleep duration (" + duration + ") must not be negative");
            }
        }
    }

    /**
     * {@code lvcreate -V SIZE -T VG/POOL [-n NAME]} (or {@code --thinpool POOL VG}): a thin volume in an
     * existing thin pool, activated as LVM activates it.
     *
     * @param line the line
     * @param volumeGroup the VG
     * @param pool the thin pool LV
     * @param name the new LV's name, empty for LVM's automatic {@code lvolN}
     * @param virtualSize {@code -V}, exact bytes as LVM reads the size (a bare number is MiB)
     */
    record LvcreateThin(String line, String volumeGroup, String pool, String name,
                        dev.dmmodel.units.Bytes virtualSize) implements Command {
        /** Rejects nulls. */
        public LvcreateThin {
            Objects.requireNonNull(line, "line");
            Objects.requireNonNull(volumeGroup, "volumeGroup");
            Objects.requireNonNull(pool, "pool");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(virtualSize, "virtualSize");
        }
    }

    /**
     * {@code lvremove [-y|-f] VG/LV...}: removes logical volumes (deactivating them first).
     *
     * @param line the line
     * @param logicalVolumes the LVs as {@code vg/lv}, in the order given
     * @param assumeYes {@code -y} or {@code -f}: no question is asked before an active LV is removed
     */
    record Lvremove(String line, List<String> logicalVolumes, boolean assumeYes) implements Command {
        /** Rejects nulls; copies the list. */
        public Lvremove {
            Objects.requireNonNull(line, "line");
            logicalVolumes = List.copyOf(logicalVolumes);
        }
    }
}
