package dev.dmmodel.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Host snapshots ({@code docs/snapshot-format.md}) of large LVM hosts, written by a program instead of collected:
 * {@code disks} SCSI disks, each a whole-disk PV, in a few volume groups, carrying {@code lvs} LVs of which about
 * half are linear LVs and half thin LVs in thin pools. The same shape always gives the same files, byte for byte.
 *
 * <p>What is written mirrors the recorded case {@code impl/src/test/resources/snapshots/thin-lvm-zy-direct1M-6.12}
 * (Linux 6.12, LVM 2.03.16): every disk has that case's {@code sdb} queue files; every VG has 4 MiB extents and PVs
 * at {@code pe_start} 2048; every pool has 1 MiB chunks (so that the dm devices' recorded queue files, copied
 * from the case's devices of the same role, are the kernel's answer there), a {@code _tmeta}, a {@code _tdata},
 * the {@code -tpool} layer and the read-only {@code vg-pool} linear over it, as LVM 2.03 activates a pool that
 * has thin volumes; the VG's {@code lvol0_pmspare} is inactive. A linear LV whose extents run past the end of a PV
 * continues on the next one (a second segment, a second table line). Device numbers are the kernel's: disk
 * {@code i} is {@code sd_format_disk_name(i)} at {@code sd_major((i & 0xf0) >> 4)} with minor
 * {@code ((i & 0xf) << 4) | (i & 0xfff00)}, dm devices {@code dm-N} at {@code 253:N} in activation order.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.dmmodel.benchmarks.LargeHosts /tmp/host-10k 10000
 * </pre>
 */
public final class LargeHosts {

    /** The kernel the snapshots claim to come from: the recorded case's. */
    public static final String KERNEL_RELEASE = "6.12.117+deb12-amd64";
    /** Each disk's size: 1 TiB in 512-byte sectors. */
    public static final long DISK_SECTORS = 1L << 31;
    /** The VGs' extent size in sectors (4 MiB). */
    public static final long EXTENT_SECTORS = 8192;
    /** Where the extents start on every PV, in sectors (1 MiB). */
    public static final long PE_START = 2048;
    /** The thin pools' chunk size in sectors (1 MiB). */
    public static final long POOL_CHUNK = 2048;
    /** Thin LVs per pool, at most. */
    public static final int THIN_PER_POOL = 100;

    private static final int DM_MAJOR = 253;
    private static final String ID_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    private static final long BASE_TIME = 1795988967L; // the recorded case's creation_time

    /**
     * The size of a generated host.
     *
     * @param disks whole disks, one PV each
     * @param lvs linear and thin LVs together (pools and their hidden LVs not counted)
     * @param vgs volume groups; the disks and LVs are shared out evenly
     * @param dmQueueFiles whether dm devices get their {@code queue/} files, as a collected snapshot has them
     */
    public record Shape(int disks, int lvs, int vgs, boolean dmQueueFiles) {
        /** Checks the numbers. */
        public Shape {
            if (vgs < 1 || disks < vgs || lvs < 0) {
                throw new IllegalArgumentException("need 1 <= vgs <= disks and lvs >= 0: " + disks + " disks, " + lvs
                        + " LVs, " + vgs + " VGs");
            }
        }

        /** The benchmark's shape: {@code lvs / 10} disks, {@code disks / 10} VGs (from 2 to 10), dm queue files. */
        public static Shape ofLvs(int lvs) {
            int disks = Math.max(2, lvs / 10);
            return new Shape(disks, lvs, Math.min(10, Math.max(2, disks / 10)), true);
        }
    }

    /**
     * What a generated host holds.
     *
     * @param disks whole disks (all PVs)
     * @param volumeGroups VG names, in order
     * @param linearLvs linear LVs, as {@code vg/lv}
     * @param thinLvs thin LVs, as {@code vg/lv}
     * @param pools thin pools as {@code vg/pool}, each with its thin LVs
     * @param dmDevices dm devices (LVs, pools and their layers)
     * @param files files written
     */
    public record Host(List<String> disks, List<String> volumeGroups, List<String> linearLvs, List<String> thinLvs,
                       Map<String, List<String>> pools, int dmDevices, int files) {
    }

    private LargeHosts() {
    }

    /**
     * Writes {@code java LargeHosts [--no-dm-queue] DIR LVS [DISKS [VGS]]}: a snapshot in DIR (which must not exist
     * yet); {@code --no-dm-queue} leaves out the dm devices' {@code queue/} files (four fifths of the files).
     */
    public static void main(String[] argv) throws IOException {
        List<String> args = new ArrayList<>(List.of(argv));
        boolean dmQueue = !args.remove("--no-dm-queue");
        if (args.size() < 2) {
            System.err.println("usage: LargeHosts [--no-dm-queue] DIR LVS [DISKS [VGS]]");
            System.exit(2);
        }
        Path dir = Path.of(args.get(0));
        int lvs = Integer.parseInt(args.get(1));
        Shape shape = Shape.ofLvs(lvs);
        int disks = args.size() > 2 ? Integer.parseInt(args.get(2)) : shape.disks();
        int vgs = args.size() > 3 ? Integer.parseInt(args.get(3))
                : args.size() > 2 ? Math.min(10, Math.max(1, disks / 10)) : shape.vgs();
        shape = new Shape(disks, lvs, vgs, dmQueue);
        long t0 = System.nanoTime();
        Host h = write(dir, shape);
        System.out.printf("%s: %d disks, %d VGs, %d linear LVs, %d thin LVs in %d pools, %d dm devices, %d files"
                        + " (%.1f s)%n", dir, h.disks().size(), h.volumeGroups().size(), h.linearLvs().size(),
                h.thinLvs().size(), h.pools().size(), h.dmDevices(), h.files(), (System.nanoTime() - t0) / 1e9);
    }

    /** Deletes a directory tree written by {@link #write} (or anything else). */
    public static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes the snapshot of a host of that shape into {@code dir} (created; it must not exist or be empty).
     *
     * @return what the host holds
     */
    public static Host write(Path dir, Shape shape) throws IOException {
        return new Writer(dir, shape).write();
    }

    /** {@code sd_format_disk_name} (drivers/scsi/sd.c): sda..sdz, sdaa..sdzz, sdaaa... */
    static String sdName(int index) {
        StringBuilder b = new StringBuilder();
        int i = index;
        do {
            b.append((char) ('a' + i % 26));
            i = i / 26 - 1;
        } while (i >= 0);
        return "sd" + b.reverse();
    }

    /** {@code sd_major} and the minor of disk {@code index} (drivers/scsi/sd.c: sd_probe). */
    static String sdDev(int index) {
        int majorIdx = (index & 0xf0) >> 4;
        int major = majorIdx == 0 ? 8 : majorIdx <= 7 ? 64 + majorIdx : 128 + majorIdx - 8;
        int minor = ((index & 0xf) << 4) | (index & 0xfff00);
        return major + ":" + minor;
    }

    // ------------------------------------------------------------------------------------------------ queue files

    // thin-lvm-zy-direct1M-6.12/block/sdb/queue: a SCSI disk (scsi_debug-like, 512-byte sectors, 168 segments)
    private static final Map<String, String> DISK_QUEUE = queue(
            "add_random=1", "atomic_write_boundary_bytes=0", "atomic_write_max_bytes=0",
            "atomic_write_unit_max_bytes=0", "atomic_write_unit_min_bytes=0", "chunk_sectors=0", "dax=0",
            "discard_granularity=512", "discard_max_bytes=2147450880", "discard_max_hw_bytes=2147450880",
            "discard_zeroes_data=0", "dma_alignment=511", "fua=0", "hw_sector_size=512", "io_poll=0",
            "io_poll_delay=-1", "io_timeout=30000", "iostats=1", "logical_block_size=512", "max_discard_segments=1",
            "max_hw_sectors_kb=32767", "max_integrity_segments=0", "max_sectors_kb=1280", "max_segment_size=65536",
            "max_segments=168", "minimum_io_size=512", "nomerges=0", "nr_requests=64", "nr_zones=0",
            "optimal_io_size=0", "physical_block_size=512", "read_ahead_kb=128", "rotational=1", "rq_affinity=1",
            "scheduler=none [mq-deadline]", "stable_writes=0", "virt_boundary_mask=0", "wbt_lat_usec=75000",
            "write_cache=write back", "write_same_max_bytes=0", "write_zeroes_max_bytes=0", "zone_append_max_bytes=0",
            "zone_write_granularity=0", "zoned=none");
    // its dm-0 and dm-1 (_tmeta, _tdata): a linear device on such disks
    private static final Map<String, String> LINEAR_QUEUE = dmQueue();
    // its dm-2 and dm-3 (-tpool, and the pool's read-only linear over it): 1 MiB chunks
    private static final Map<String, String> POOL_QUEUE = dmQueue("minimum_io_size=1048576",
            "optimal_io_size=1048576", "read_ahead_kb=2048");
    // its dm-4 (a thin volume): discards in chunks, FUA passed on
    private static final Map<String, String> THIN_QUEUE = dmQueue("minimum_io_size=1048576",
            "optimal_io_size=1048576", "read_ahead_kb=2048", "discard_granularity=1048576",
            "discard_max_bytes=1073741824", "discard_max_hw_bytes=1073741824", "fua=1");

    private static Map<String, String> queue(String... entries) {
        Map<String, String> m = new TreeMap<>();
        for (String e : entries) {
            int eq = e.indexOf('=');
            m.put(e.substring(0, eq), e.substring(eq + 1));
        }
        return m;
    }

    /** A dm device's queue files on those disks (no scheduler, no request queue files), with changes. */
    private static Map<String, String> dmQueue(String... changes) {
        Map<String, String> m = new TreeMap<>(DISK_QUEUE);
        for (String k : List.of("io_timeout", "nr_requests", "rq_affinity", "scheduler", "wbt_lat_usec")) {
            m.remove(k);
        }
        m.put("add_random", "0");
        m.putAll(queue(changes));
        return m;
    }

    // ------------------------------------------------------------------------------------------------ the writer

    /** One stretch of extents on one PV. */
    private record Area(int pv, long pe, long count) {
    }

    /** A linear LV (or hidden linear sub-LV): its areas in order. */
    private record LinearLv(String name, List<Area> areas, boolean visible, long time) {
        long extents() {
            return areas.stream().mapToLong(Area::count).sum();
        }
    }

    private record ThinLv(String name, String pool, long extents, int deviceId, long time) {
    }

    private record Pool(String name, long dataExtents, int thins, long time) {
    }

    private static final class Writer {
        private final Path dir;
        private final Shape shape;
        private final SplittableRandom random = new SplittableRandom(20261129L);
        private final StringBuilder table = new StringBuilder();
        private final StringBuilder status = new StringBuilder();
        private final Map<String, String> tableByName = new TreeMap<>();
        private final Map<String, String> statusByName = new TreeMap<>();
        private final List<String> disks = new ArrayList<>();
        private final Map<String, String> devOf = new java.util.HashMap<>();
        private final List<String> vgNames = new ArrayList<>();
        private final List<String> linearNames = new ArrayList<>();
        private final List<String> thinNames = new ArrayList<>();
        private final Map<String, List<String>> poolNames = new LinkedHashMap<>();
        private int nextMinor;
        private int files;

        Writer(Path dir, Shape shape) {
            this.dir = dir;
            this.shape = shape;
        }

        Host write() throws IOException {
            Files.createDirectories(dir.resolve("block"));
            Files.createDirectories(dir.resolve("lvm"));
            file(dir.resolve("kernel-release"), KERNEL_RELEASE + "\n");
            file(dir.resolve("README.txt"), "A generated host (dev.dmmodel.benchmarks.LargeHosts): " + shape.disks()
                    + " SCSI disks, each a PV, in " + shape.vgs() + " volume groups with " + shape.lvs()
                    + " LVs, about half of them thin.\nIts files mirror the recorded case thin-lvm-zy-direct1M-6.12.\n");
            for (int i = 0; i < shape.disks(); i++) {
                String name = sdName(i);
                disks.add(name);
                devOf.put(name, sdDev(i));
                Path d = dir.resolve("block").resolve(name);
                file(d.resolve("dev"), sdDev(i) + "\n");
                file(d.resolve("size"), DISK_SECTORS + "\n");
                file(d.resolve("alignment_offset"), "0\n");
                file(d.resolve("ro"), "0\n");
                queueFiles(d, DISK_QUEUE);
            }
            int diskAt = 0;
            int lvAt = 0;
            for (int v = 0; v < shape.vgs(); v++) {
                int pvs = share(shape.disks(), shape.vgs(), v);
                int lvs = share(shape.lvs(), shape.vgs(), v);
                volumeGroup(String.format("vg%02d", v), disks.subList(diskAt, diskAt + pvs), lvs, lvAt);
                diskAt += pvs;
                lvAt += lvs;
            }
            tableByName.values().forEach(table::append);
            statusByName.values().forEach(status::append);
            file(dir.resolve("dmsetup-table.txt"), tableByName.isEmpty() ? "No devices found\n" : table.toString());
            file(dir.resolve("dmsetup-status.txt"), statusByName.isEmpty() ? "No devices found\n"
                    : status.toString());
            return new Host(List.copyOf(disks), List.copyOf(vgNames), List.copyOf(linearNames),
                    List.copyOf(thinNames), Map.copyOf(poolNames), nextMinor, files);
        }

        /** Part {@code i} of {@code total} shared out in {@code parts}, the first ones one larger. */
        private static int share(int total, int parts, int i) {
            return total / parts + (i < total % parts ? 1 : 0);
        }

        private void volumeGroup(String vg, List<String> pvDisks, int lvs, int lvBase) throws IOException {
            vgNames.add(vg);
            String vgId = lvmId();
            long peCount = (DISK_SECTORS - PE_START) / EXTENT_SECTORS;
            int thin = lvs / 2;
            int linear = lvs - thin;
            int pools = (thin + THIN_PER_POOL - 1) / THIN_PER_POOL;
            Allocator alloc = new Allocator(pvDisks.size(), peCount);
            long time = BASE_TIME + lvBase;

            // as lvcreate --type thin-pool then lvcreate -V: the spare, each pool's data and metadata, then LVs
            long metaExtents = 32; // 128 MiB
            LinearLv spare = new LinearLv("lvol0_pmspare", alloc.take(metaExtents), false, time);
            List<Pool> poolList = new ArrayList<>();
            List<LinearLv> hidden = new ArrayList<>();
            List<ThinLv> thins = new ArrayList<>();
            for (int p = 0; p < pools; p++) {
                String pool = String.format("pool%02d", p);
                int n = share(thin, pools, p);
                long data = 25600L * (1 + random.nextInt(4)); // 100..400 GiB
                hidden.add(new LinearLv(pool + "_tdata", alloc.take(data), false, time));
                hidden.add(new LinearLv(pool + "_tmeta", alloc.take(metaExtents), false, time));
                poolList.add(new Pool(pool, data, n, time));
                List<String> members = new ArrayList<>();
                for (int t = 0; t < n; t++) {
                    String name = String.format("thin%05d", lvBase + thins.size());
                    thins.add(new ThinLv(name, pool, 256L * (1 + random.nextInt(64)), t + 1, ++time));
                    members.add(vg + "/" + name);
                }
                poolNames.put(vg + "/" + pool, List.copyOf(members));
            }
            List<LinearLv> linears = new ArrayList<>();
            for (int l = 0; l < linear; l++) {
                String name = String.format("lv%05d", lvBase + l);
                linears.add(new LinearLv(name, alloc.take(256L * (1 + random.nextInt(16))), true, ++time));
            }

            // activation (vgchange -ay): each pool's layers, then its thin volumes; then the linear LVs
            Map<String, String> lvIds = new LinkedHashMap<>();
            for (Pool p : poolList) {
                String meta = linearDevice(vg, vgId, lvIds, p.name() + "_tmeta", hiddenLv(hidden, p.name() + "_tmeta"),
                        pvDisks, LINEAR_QUEUE);
                String data = linearDevice(vg, vgId, lvIds, p.name() + "_tdata", hiddenLv(hidden, p.name() + "_tdata"),
                        pvDisks, LINEAR_QUEUE);
                long sectors = p.dataExtents() * EXTENT_SECTORS;
                String poolId = id(lvIds, p.name());
                String tpool = dmDevice(vg + "-" + p.name() + "-tpool", "LVM-" + plain(vgId) + plain(poolId) + "-tpool",
                        sectors, false, POOL_QUEUE,
                        List.of("0 " + sectors + " thin-pool " + meta + " " + data + " " + POOL_CHUNK + " 0 0 "),
                        List.of("0 " + sectors + " thin-pool " + p.thins() + " 112/1024 0/" + (sectors / POOL_CHUNK)
                                + " - rw discard_passdown queue_if_no_space - 256 "));
                dmDevice(vg + "-" + p.name(), "LVM-" + plain(vgId) + plain(poolId) + "-pool", sectors, true,
                        POOL_QUEUE, List.of("0 " + sectors + " linear " + tpool + " 0"),
                        List.of("0 " + sectors + " linear "));
                for (ThinLv t : thins) {
                    if (t.pool().equals(p.name())) {
                        long s = t.extents() * EXTENT_SECTORS;
                        dmDevice(vg + "-" + t.name(), "LVM-" + plain(vgId) + plain(id(lvIds, t.name())), s, false,
                                THIN_QUEUE, List.of("0 " + s + " thin " + tpool + " " + t.deviceId()),
                                List.of("0 " + s + " thin 0 -"));
                        thinNames.add(vg + "/" + t.name());
                    }
                }
            }
            for (LinearLv l : linears) {
                linearDevice(vg, vgId, lvIds, l.name(), l, pvDisks, LINEAR_QUEUE);
                linearNames.add(vg + "/" + l.name());
            }
            id(lvIds, spare.name());
            file(dir.resolve("lvm").resolve(vg + ".vg"),
                    metadata(vg, vgId, pvDisks, peCount, poolList, thins, linears, spare, hidden, lvIds));
        }

        private static LinearLv hiddenLv(List<LinearLv> hidden, String name) {
            return hidden.stream().filter(l -> l.name().equals(name)).findFirst().orElseThrow();
        }

        /** A linear LV's dm device: one line per area; returns its major:minor. */
        private String linearDevice(String vg, String vgId, Map<String, String> lvIds, String lv, LinearLv l,
                                    List<String> pvDisks, Map<String, String> queue) throws IOException {
            List<String> lines = new ArrayList<>();
            List<String> statusLines = new ArrayList<>();
            long start = 0;
            for (Area a : l.areas()) {
                long len = a.count() * EXTENT_SECTORS;
                lines.add(start + " " + len + " linear " + devOf.get(pvDisks.get(a.pv())) + " "
                        + (PE_START + a.pe() * EXTENT_SECTORS));
                statusLines.add(start + " " + len + " linear ");
                start += len;
            }
            return dmDevice(vg + "-" + lv, "LVM-" + plain(vgId) + plain(id(lvIds, lv)), start, false, queue, lines,
                    statusLines);
        }

        /** block/dm-N/ and the device's table and status lines; returns its major:minor. */
        private String dmDevice(String dmName, String uuid, long sectors, boolean readOnly, Map<String, String> queue,
                                List<String> lines, List<String> statusLines) throws IOException {
            int minor = nextMinor++;
            Path d = dir.resolve("block").resolve("dm-" + minor);
            String dev = DM_MAJOR + ":" + minor;
            file(d.resolve("dev"), dev + "\n");
            file(d.resolve("size"), sectors + "\n");
            file(d.resolve("alignment_offset"), "0\n");
            file(d.resolve("ro"), (readOnly ? "1" : "0") + "\n");
            file(d.resolve("dm").resolve("name"), dmName + "\n");
            file(d.resolve("dm").resolve("uuid"), uuid + "\n");
            if (shape.dmQueueFiles()) {
                queueFiles(d, queue);
            }
            StringBuilder t = new StringBuilder();
            lines.forEach(l -> t.append(dmName).append(": ").append(l).append('\n'));
            tableByName.put(dmName, t.toString());
            StringBuilder s = new StringBuilder();
            statusLines.forEach(l -> s.append(dmName).append(": ").append(l).append('\n'));
            statusByName.put(dmName, s.toString());
            return dev;
        }

        private void queueFiles(Path d, Map<String, String> queue) throws IOException {
            Path q = d.resolve("queue");
            Files.createDirectories(q);
            for (Map.Entry<String, String> e : queue.entrySet()) {
                file(q.resolve(e.getKey()), e.getValue() + "\n");
            }
        }

        private void file(Path f, String text) throws IOException {
            Files.createDirectories(f.getParent());
            Files.write(f, text.getBytes(StandardCharsets.UTF_8));
            files++;
        }

        private String id(Map<String, String> ids, String lv) {
            return ids.computeIfAbsent(lv, k -> lvmId());
        }

        /** An LVM id: 32 characters as 6-4-4-4-4-4-6. */
        private String lvmId() {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < 32; i++) {
                if (i == 6 || i == 10 || i == 14 || i == 18 || i == 22 || i == 26) {
                    b.append('-');
                }
                b.append(ID_CHARS.charAt(random.nextInt(ID_CHARS.length())));
            }
            return b.toString();
        }

        private static String plain(String id) {
            return id.replace("-", "");
        }

        // vgcfgbackup's text, as lib/format_text/export.c writes it (tabs, the comments LVM adds)
        private String metadata(String vg, String vgId, List<String> pvDisks, long peCount, List<Pool> pools,
                                List<ThinLv> thins, List<LinearLv> linears, LinearLv spare, List<LinearLv> hidden,
                                Map<String, String> lvIds) {
            StringBuilder b = new StringBuilder();
            b.append("# Generated by LVM2 version 2.03.16(2) (2022-05-18): Sun Nov 29 21:49:33 2026\n\n")
                    .append("contents = \"Text Format Volume Group\"\nversion = 1\n\n")
                    .append("description = \"vgcfgbackup -f lvm/").append(vg).append(".vg ").append(vg).append("\"\n\n")
                    .append("creation_host = \"largehost\"\t# Linux largehost ").append(KERNEL_RELEASE)
                    .append(" #1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1~deb12u1 (2026-11-14) x86_64\n")
                    .append("creation_time = ").append(BASE_TIME + 100000).append("\t# Sun Nov 29 21:49:33 2026\n\n");
            b.append(vg).append(" {\n")
                    .append("\tid = \"").append(vgId).append("\"\n")
                    .append("\tseqno = ").append(1 + pools.size() * 2L + thins.size() + linears.size()).append('\n')
                    .append("\tformat = \"lvm2\"\t\t\t# informational\n")
                    .append("\tstatus = [\"RESIZEABLE\", \"READ\", \"WRITE\"]\n")
                    .append("\tflags = []\n")
                    .append("\textent_size = ").append(EXTENT_SECTORS).append("\t\t# 4 Megabytes\n")
                    .append("\tmax_lv = 0\n\tmax_pv = 0\n\tmetadata_copies = 0\n\n")
                    .append("\tphysical_volumes {\n");
            for (int i = 0; i < pvDisks.size(); i++) {
                b.append("\n\t\tpv").append(i).append(" {\n")
                        .append("\t\t\tid = \"").append(lvmId()).append("\"\n")
                        .append("\t\t\tdevice = \"/dev/").append(pvDisks.get(i)).append("\"\t# Hint only\n\n")
                        .append("\t\t\tstatus = [\"ALLOCATABLE\"]\n")
                        .append("\t\t\tflags = []\n")
                        .append("\t\t\tdev_size = ").append(DISK_SECTORS).append("\t# 1 Terabytes\n")
                        .append("\t\t\tpe_start = ").append(PE_START).append('\n')
                        .append("\t\t\tpe_count = ").append(peCount).append("\t# ").append(peCount * 4)
                        .append(" Megabytes\n")
                        .append("\t\t}\n");
            }
            b.append("\t}\n\n\tlogical_volumes {\n");
            for (Pool p : pools) {
                lvHeader(b, lvIds.get(p.name()), p.name(), true, p.time(), 1);
                segmentHeader(b, 1, 0, p.dataExtents(), "thin-pool");
                b.append("\t\t\t\tmetadata = \"").append(p.name()).append("_tmeta\"\n")
                        .append("\t\t\t\tpool = \"").append(p.name()).append("_tdata\"\n")
                        .append("\t\t\t\ttransaction_id = ").append(p.thins()).append('\n')
                        .append("\t\t\t\tchunk_size = ").append(POOL_CHUNK).append("\t# 1024 Kilobytes\n")
                        .append("\t\t\t\tdiscards = \"passdown\"\n")
                        .append("\t\t\t\tzero_new_blocks = 1\n")
                        .append("\t\t\t}\n\t\t}\n");
                for (ThinLv t : thins) {
                    if (t.pool().equals(p.name())) {
                        lvHeader(b, lvIds.get(t.name()), t.name(), true, t.time(), 1);
                        segmentHeader(b, 1, 0, t.extents(), "thin");
                        b.append("\t\t\t\tthin_pool = \"").append(p.name()).append("\"\n")
                                .append("\t\t\t\ttransaction_id = ").append(t.deviceId() - 1).append('\n')
                                .append("\t\t\t\tdevice_id = ").append(t.deviceId()).append('\n')
                                .append("\t\t\t}\n\t\t}\n");
                    }
                }
            }
            for (LinearLv l : linears) {
                linearLv(b, lvIds.get(l.name()), l);
            }
            if (!pools.isEmpty()) {
                linearLv(b, lvIds.get(spare.name()), spare);
                for (LinearLv h : hidden) {
                    linearLv(b, lvIds.get(h.name()), h);
                }
            }
            b.append("\t}\n\n}\n");
            return b.toString();
        }

        private static void lvHeader(StringBuilder b, String id, String name, boolean visible, long time,
                                     int segments) {
            b.append("\n\t\t").append(name).append(" {\n")
                    .append("\t\t\tid = \"").append(id).append("\"\n")
                    .append("\t\t\tstatus = [\"READ\", \"WRITE\"").append(visible ? ", \"VISIBLE\"" : "").append("]\n")
                    .append("\t\t\tflags = []\n")
                    .append("\t\t\tcreation_time = ").append(time).append('\n')
                    .append("\t\t\tcreation_host = \"largehost\"\n")
                    .append("\t\t\tsegment_count = ").append(segments).append('\n');
        }

        private static void segmentHeader(StringBuilder b, int n, long startExtent, long extents, String type) {
            b.append("\n\t\t\tsegment").append(n).append(" {\n")
                    .append("\t\t\t\tstart_extent = ").append(startExtent).append('\n')
                    .append("\t\t\t\textent_count = ").append(extents).append("\t# ").append(extents * 4)
                    .append(" Megabytes\n\n")
                    .append("\t\t\t\ttype = \"").append(type).append("\"\n");
        }

        private static void linearLv(StringBuilder b, String id, LinearLv l) {
            lvHeader(b, id, l.name(), l.visible(), l.time(), l.areas().size());
            long start = 0;
            int n = 1;
            for (Area a : l.areas()) {
                segmentHeader(b, n++, start, a.count(), "striped");
                b.append("\t\t\t\tstripe_count = 1\t# linear\n\n")
                        .append("\t\t\t\tstripes = [\n")
                        .append("\t\t\t\t\t\"pv").append(a.pv()).append("\", ").append(a.pe()).append('\n')
                        .append("\t\t\t\t]\n")
                        .append("\t\t\t}\n");
                start += a.count();
            }
            b.append("\t\t}\n");
        }
    }

    /** Hands out extents PV after PV, as the normal allocation policy does on a VG filled in order. */
    private static final class Allocator {
        private final int pvs;
        private final long peCount;
        private int pv;
        private long pe;

        Allocator(int pvs, long peCount) {
            this.pvs = pvs;
            this.peCount = peCount;
        }

        List<Area> take(long extents) {
            List<Area> out = new ArrayList<>();
            long left = extents;
            while (left > 0) {
                if (pe == peCount) {
                    pv++;
                    pe = 0;
                    if (pv == pvs) {
                        throw new IllegalStateException("the volume group is full: " + pvs + " PVs of " + peCount
                                + " extents");
                    }
                }
                long n = Math.min(left, peCount - pe);
                out.add(new Area(pv, pe, n));
                pe += n;
                left -= n;
            }
            return out;
        }
    }
}
