package dev.dmmodel.impl.mdadm;

import dev.dmmodel.device.MdArraySpec;
import dev.dmmodel.device.MdLevel;
import dev.dmmodel.device.MdMember;
import dev.dmmodel.device.MdadmCreateRequest;
import dev.dmmodel.layout.LayoutException;
import dev.dmmodel.units.Sectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code mdadm --create} (mdadm 4.2): the array an mdadm command line makes over devices of given sizes, as the
 * kernel then lists it ({@link MdArraySpec}).
 */
public final class MdadmCreate {

    /** {@code DEFAULT_CHUNK}: 512 KiB, in sectors. */
    public static final long DEFAULT_CHUNK_SECTORS = 1024;
    /** Metadata 1.1/1.2's data offset is rounded up to 1 MiB. */
    static final long ONE_MEG_SECTORS = 2048;
    private static final Pattern RAID10_LAYOUT = Pattern.compile("([nfo])([1-9]\\d?)");

    /** maps.c: r5layout and r6layout (the names and their md algorithm numbers). */
    static final Map<String, Integer> R5_LAYOUTS = Map.ofEntries(Map.entry("left-asymmetric", 0),
            Map.entry("la", 0), Map.entry("right-asymmetric", 1), Map.entry("ra", 1), Map.entry("left-symmetric", 2),
            Map.entry("ls", 2), Map.entry("right-symmetric", 3), Map.entry("rs", 3), Map.entry("parity-first", 4),
            Map.entry("parity-last", 5), Map.entry("ddf-zero-restart", 8), Map.entry("ddf-N-restart", 9),
            Map.entry("ddf-N-continue", 10), Map.entry("left-asymmetric-6", 16), Map.entry("right-asymmetric-6", 17),
            Map.entry("left-symmetric-6", 18), Map.entry("right-symmetric-6", 19), Map.entry("parity-first-6", 20));

    private MdadmCreate() {
    }

    /** The kernel name of {@code --create}'s device ({@link MdadmCreateRequest#kernelName()}). */
    public static String kernelName(MdadmCreateRequest request) {
        return request.kernelName().orElseThrow(() -> new LayoutException(request.name(), "name", request.name(),
                "mdadm: " + request.name() + " is not an md device name the model numbers (mdN, /dev/mdN, /dev/md/N;"
                        + " a named array /dev/md/NAME gets a kernel name mdadm chooses at run time: give it as mdN)"));
    }

    /**
     * The array mdadm creates.
     *
     * @param request the command line, devices by kernel name
     * @param size each member's size in sectors
     * @throws LayoutException with mdadm's message for a choice it refuses
     */
    // mdadm/Create.c: Create — chunk and layout defaults, the smallest member's free size rounded to the chunk
    public static MdArraySpec spec(MdadmCreateRequest request, ToLongFunction<String> size) {
        String name = kernelName(request);
        MdLevel level = request.level();
        List<String> devices = request.devices();
        int minDisks = switch (level) {
            case RAID0 -> 1;
            case RAID1, RAID4, RAID5, RAID10 -> 2;
            case RAID6 -> 4;
        };
        if (devices.size() < minDisks) {
            throw new LayoutException(name, "raid-devices", Integer.toString(devices.size()), "mdadm: at least "
                    + minDisks + " raid-devices needed for level " + level.number());
        }
        long chunk = 0;
        if (level.hasChunk()) {
            chunk = request.chunk().map(c -> c.count() / 512).orElse(DEFAULT_CHUNK_SECTORS);
            long bytes = request.chunk().map(c -> c.count()).orElse(DEFAULT_CHUNK_SECTORS * 512);
            if (bytes < 4096 || bytes % 4096 != 0) {
                throw new LayoutException(name, "chunk", Long.toString(bytes), "mdadm: invalid chunk/rounding value: "
                        + bytes / 1024 + "K (a multiple of 4K)");
            }
        } else if (request.chunk().isPresent()) {
            throw new LayoutException(name, "chunk", request.chunk().get().toString(), "mdadm: specifying chunk size "
                    + "is forbidden for this level");
        }
        List<String> present = devices.stream().filter(d -> !d.equals("missing")).toList();
        if (present.isEmpty()) {
            throw new LayoutException(name, "devices", "missing", "mdadm: no real devices given for " + name);
        }
        long first = size.applyAsLong(present.get(0));
        long chunkSectors = chunk;
        long dataOffset = request.dataOffset().map(o -> o.count() / 512).orElseGet(() ->
                dataOffset(request.metadata(), first, chunkSectors));
        long minFree = Long.MAX_VALUE;
        List<Long> free = new ArrayList<>();
        for (String d : present) {
            long f = freeSize(request.metadata(), size.applyAsLong(d), dataOffset);
            if (f <= 0) {
                throw new LayoutException(name, "devices", d, "mdadm: " + d + " is too small to be an md member ("
                        + size.applyAsLong(d) + " sectors, data offset " + dataOffset + ")");
            }
            free.add(f);
            minFree = Math.min(minFree, f);
        }
        // Create.c: size rounded down to the chunk; raid1 to 64 KiB, should it become raid5 one day
        long component = chunk > 0 ? minFree / chunk * chunk : minFree / 128 * 128;
        int layout = layout(name, level, request, free, chunk);
        List<MdMember> members = new ArrayList<>();
        int i = 0;
        for (int slot = 0; slot < devices.size(); slot++) {
            String d = devices.get(slot);
            if (d.equals("missing")) {
                continue;
            }
            long data = level == MdLevel.RAID0 ? free.get(i) : component;
            members.add(new MdMember(d, slot, Sectors.of(dataOffset), Sectors.of(data)));
            i++;
        }
        return new MdArraySpec(level, devices.size(), Sectors.of(chunk), layout, request.metadata(), members);
    }

    // super1.c: validate_geometry1 (1.1, 1.2: room for the superblock, the bitmap and reshape headroom, rounded up to
    // 1 MiB; 1.0: at the end, data from 0); super0.c: 0.90 at the end
    static long dataOffset(String metadata, long devSectors, long chunkSectors) {
        return switch (metadata) {
            case "1.2", "1.1", "1", "default" -> {
                long bm = chooseBmSpace(devSectors);
                long headroom = 128 * 1024 * 2;
                long chunkKib = chunkSectors / 2;
                while ((headroom << 10) > devSectors && (chunkKib == 0 || headroom / 2 >= chunkKib * 2 * 2)) {
                    headroom >>= 1;
                }
                long offset = 12 * 2 + bm + headroom;
                yield (offset + ONE_MEG_SECTORS - 1) / ONE_MEG_SECTORS * ONE_MEG_SECTORS;
            }
            case "1.0", "0.90", "0.9", "0" -> 0;
            default -> throw new LayoutException("mdadm", "metadata", metadata, "mdadm: unrecognised metadata "
                    + "identifier: " + metadata + " (1.2, 1.1, 1.0, 0.90)");
        };
    }

    // super1.c: choose_bm_space — 4 KiB, 64 KiB over 8 GiB, 128 KiB from 200 GiB
    static long chooseBmSpace(long devSectors) {
        if (devSectors < 64 * 2) {
            return 0;
        }
        if (devSectors - 64 * 2 >= 200L * 1024 * 1024 * 2) {
            return 128 * 2;
        }
        if (devSectors - 4 * 2 > 8L * 1024 * 1024 * 2) {
            return 64 * 2;
        }
        return 4 * 2;
    }

    // super1.c: validate_geometry1's freesize; super0.c: MD_NEW_SIZE_SECTORS (64 KiB reserved at the end)
    static long freeSize(String metadata, long devSectors, long dataOffset) {
        return switch (metadata) {
            case "1.0" -> (devSectors & ~7L) - (8 * 2 + 8 + chooseBmSpace(devSectors));
            case "0.90", "0.9", "0" -> (devSectors & ~127L) - 128;
            default -> devSectors - dataOffset;
        };
    }

    // Create.c / maps.c: the level's default layout or the one --layout names
    private static int layout(String name, MdLevel level, MdadmCreateRequest request, List<Long> free, long chunk) {
        String given = request.layout().map(l -> l.toLowerCase(Locale.ROOT)).orElse(null);
        switch (level) {
            case RAID0:
                if (given == null) {
                    // members whose chunk-rounded sizes differ make zones: mdadm 4.2 records the alternate layout
                    boolean equal = free.stream().map(f -> f / chunk).distinct().count() == 1;
                    return equal ? -1 : 2;
                }
                return switch (given) {
                    case "original", "1" -> 1;
                    case "alternate", "2" -> 2;
                    default -> throw bad(name, level, request.layout().get());
                };
            case RAID1:
                if (given != null) {
                    throw bad(name, level, request.layout().get());
                }
                return 0;
            case RAID10: {
                Matcher m = RAID10_LAYOUT.matcher(given == null ? "n2" : given);
                if (!m.matches()) {
                    throw bad(name, level, request.layout().get());
                }
                String format = switch (m.group(1)) {
                    case "n" -> "near";
                    case "f" -> "far";
                    default -> "offset";
                };
                return dev.dmmodel.impl.md.Raid10.layout(format, Integer.parseInt(m.group(2)));
            }
            case RAID4:
                if (given != null && !given.equals("parity-last") && !given.equals("parity-first")) {
                    throw bad(name, level, request.layout().get());
                }
                return given == null || given.equals("parity-last") ? 5 : 4;
            default: {
                Integer n = R5_LAYOUTS.get(given == null ? "left-symmetric" : given);
                if (n == null || (level == MdLevel.RAID5 && n > 5)) {
                    throw bad(name, level, request.layout().get());
                }
                return n;
            }
        }
    }

    private static LayoutException bad(String name, MdLevel level, String layout) {
        return new LayoutException(name, "layout", layout, "mdadm: layout " + layout + " not understood for "
                + level.sysfsName() + ".");
    }
}
