package dev.dmmodel.impl.md;

import dev.dmmodel.device.MdArraySpec;
import dev.dmmodel.device.MdLevel;
import dev.dmmodel.device.MdMember;
import dev.dmmodel.impl.block.Bio;
import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.block.Op;
import dev.dmmodel.limits.KernelProfile;

/**
 * md raid1 ({@code drivers/md/raid1.c}): a write is cloned whole to every member, a read goes whole to one
 * ({@code read_balance}); a bio crossing a barrier unit (64 MiB) is split there first.
 */
public final class Raid1 implements MdPersonality {

    /** The one instance. */
    public static final Raid1 INSTANCE = new Raid1();

    /** {@code BARRIER_UNIT_SECTOR_SIZE}: 64 MiB, the unit of raid1's and raid10's resync barrier. */
    static final long BARRIER_UNIT_SECTORS = 1L << 17;

    private Raid1() {
    }

    @Override
    public MdLevel level() {
        return MdLevel.RAID1;
    }

    // drivers/md/raid1.c: raid1_run — a degraded mirror runs as long as one member is there
    @Override
    public void check(String array, MdArraySpec spec) {
    }

    // drivers/md/raid1.c: raid1_size — the smallest member's data
    @Override
    public long size(MdArraySpec spec) {
        return spec.members().stream().mapToLong(m -> m.dataSize().count()).min().orElse(0);
    }

    // drivers/md/raid1.c: raid1_set_limits — no write-zeroes; everything else stacked from the members
    @Override
    public void setLimits(Limits lim, MdArraySpec spec, KernelProfile p) {
        lim.maxWriteZeroesSectors = 0;
    }

    @Override
    public Conf run(MdArray array) {
        return new R1Conf(array);
    }

    /** {@code struct r1conf} with each mirror's head position. */
    private static final class R1Conf implements Conf {
        private final MdArray md;
        private final long[] headPosition;
        private final long[] nextSeqSect;

        R1Conf(MdArray md) {
            this.md = md;
            this.headPosition = new long[md.spec().raidDisks()];
            this.nextSeqSect = new long[md.spec().raidDisks()];
        }

        // drivers/md/raid1.c: raid1_make_request — align_to_barrier_unit_end, then the read or write request
        @Override
        public void makeRequest(Bio bio) {
            long unitEnd = (bio.sector / BARRIER_UNIT_SECTORS + 1) * BARRIER_UNIT_SECTORS;
            if (bio.sector + bio.sectors > unitEnd) {
                Bio front = md.splitFront(bio, unitEnd - bio.sector, md.explaining()
                        ? "raid1 barrier unit of " + BARRIER_UNIT_SECTORS + " sectors ends at " + unitEnd : "");
                md.block().submitBioNoacct(bio);
                bio = front;
            }
            if (bio.op == Op.READ) {
                int slot = readBalance(bio.sector);
                headPosition[slot] = bio.sector + bio.sectors;
                nextSeqSect[slot] = bio.sector + bio.sectors;
                md.remapClone(bio, slot, bio.sector, bio.sector);
                return;
            }
            // drivers/md/raid1.c: raid1_write_request — one clone per mirror, in slot order
            for (MdMember m : md.spec().members()) {
                headPosition[m.slot()] = bio.sector + bio.sectors;
                md.remapClone(bio, m.slot(), bio.sector, bio.sector);
            }
        }

        /**
         * {@code read_balance} with every mirror idle, as a single submitter sees it: the mirror a sequential read
         * continues on or whose head is at the sector, otherwise the first mirror with the fewest reads in flight —
         * the lowest slot, since the model's reads complete before the next is chosen. The kernel's choice among
         * busy mirrors depends on timing; this one is deterministic.
         */
        // drivers/md/raid1.c: read_balance / choose_best_rdev
        private int readBalance(long sector) {
            for (MdMember m : md.spec().members()) {
                if (nextSeqSect[m.slot()] == sector || headPosition[m.slot()] == sector) {
                    return m.slot();
                }
            }
            return md.spec().members().get(0).slot();
        }
    }
}
