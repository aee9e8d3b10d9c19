package dev.dmmodel.testkit.property.engine;

import dev.dmmodel.device.BlockDevice;
import dev.dmmodel.device.Disk;
import dev.dmmodel.device.DmDevice;
import dev.dmmodel.device.Partition;
import dev.dmmodel.dm.DmTarget;
import dev.dmmodel.dm.LinearTarget;
import dev.dmmodel.dm.StripedTarget;
import dev.dmmodel.layout.Layout;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a sector range of a device lies on the whole disks, computed from the layout's definitions alone
 * (independently of the engine): a partition adds its start ({@code blk_partition_remap}); {@code linear}
 * maps sector for sector from its offset ({@code linear_map_sector}), and so does {@code crypt}
 * ({@code crypt_map_sector}); {@code striped} maps chunk
 * {@code c} to stripe {@code c mod n}, row {@code c / n} ({@code stripe_map_sector}).
 */
final class ReferenceMapper {
    private ReferenceMapper() {
    }

    /**
     * A range of a whole disk.
     *
     * @param disk kernel name
     * @param start first sector
     * @param length sectors
     */
    record Piece(String disk, long start, long length) {
        long end() {
            return start + length;
        }
    }

    /** The disk ranges of {@code [start, start + length)} of a device, in the order of the device's sectors. */
    static List<Piece> map(Layout layout, String device, long start, long length) {
        List<Piece> out = new ArrayList<>();
        map(layout, device, start, length, out);
        return out;
    }

    private static void map(Layout layout, String device, long start, long length, List<Piece> out) {
        BlockDevice d = layout.device(device);
        if (start < 0 || start + length > d.size().count()) {
            throw new AssertionError("reference mapper: " + start + "+" + length + " lies outside " + device
                    + " (size " + d.size().count() + ")");
        }
        if (d instanceof Disk) {
            out.add(new Piece(d.name(), start, length));
        } else if (d instanceof Partition p) {
            map(layout, p.disk(), p.start().count() + start, length, out);
        } else if (d instanceof DmDevice dm) {
            long s = start;
            long end = start + length;
            for (DmTarget t : dm.table().targets()) {
                long tStart = t.start().count();
                long tEnd = t.end().count();
                if (s >= end) {
                    break;
                }
                if (s >= tEnd) {
                    continue;
                }
                long n = Math.min(end, tEnd) - s;
                mapTarget(layout, t, s - tStart, n, out);
                s += n;
            }
        } else {
            throw new AssertionError("reference mapper: unknown device type " + d);
        }
    }

    private static void mapTarget(Layout layout, DmTarget t, long offset, long n, List<Piece> out) {
        if (t instanceof LinearTarget lt) {
            map(layout, lt.device(), lt.offset().count() + offset, n, out);
        } else if (t instanceof dev.dmmodel.dm.CryptTarget ct) {
            // crypt_map_sector: cc->start + (sector - ti->begin), sector for sector (the data is encrypted in place)
            map(layout, ct.device(), ct.offset().count() + offset, n, out);
        } else if (t instanceof StripedTarget st) {
            long chunk = st.chunkSectors();
            int stripes = st.stripes().size();
            long off = offset;
            long left = n;
            while (left > 0) {
                long chunkNo = off / chunk;
                long inChunk = off % chunk;
                long m = Math.min(left, chunk - inChunk);
                StripedTarget.Stripe s = st.stripes().get((int) (chunkNo % stripes));
                map(layout, s.device(), s.offset().count() + chunkNo / stripes * chunk + inChunk, m, out);
                off += m;
                left -= m;
            }
        } else {
            throw new AssertionError("reference mapper: target type " + t.type() + " is not mapped by this test");
        }
    }
}
