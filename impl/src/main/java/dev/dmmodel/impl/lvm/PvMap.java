package dev.dmmodel.impl.lvm;

/**
 * A PV's free runs open to one allocation, largest first ({@code lib/metadata/pv_map.h: struct pv_map}): a
 * circular list with a sentinel, as LVM keeps it, for {@link ExtentAllocator}.
 */
final class PvMap {

    /** A free run of one PV ({@code struct pv_area}); a node of its PV's list. */
    static final class Area {
        final PvMap map;
        long start;
        long count;
        long unreserved;
        Area prev;
        Area next;

        Area(PvMap map, long start, long count) {
            this.map = map;
            this.start = start;
            this.count = count;
            this.unreserved = count;
        }
    }

    final String pv;
    final Area head;
    /** Free extents in the list ({@code pvm->pv->pe_count - pe_alloc_count} as the maps see it). */
    long free;

    PvMap(String pv) {
        this.pv = pv;
        this.head = new Area(this, 0, 0);
        head.prev = head;
        head.next = head;
    }

    boolean isEmpty() {
        return head.next == head;
    }

    // lib/metadata/pv_map.c: _insert_area (in front of the first run it is strictly larger than)
    void insert(Area a, boolean byUnreserved) {
        long key = byUnreserved ? a.unreserved : a.count;
        Area p = head.next;
        while (p != head && key <= p.count) {
            p = p.next;
        }
        a.prev = p.prev;
        a.next = p;
        p.prev.next = a;
        p.prev = a;
        free += a.count;
    }

    // lib/metadata/pv_map.c: _remove_area (the node keeps its own links, as dm_list_del does)
    void remove(Area a) {
        a.prev.next = a.next;
        a.next.prev = a.prev;
        free -= a.count;
    }

    // lib/metadata/pv_map.c: reinsert_changed_pv_area
    void reinsert(Area a) {
        remove(a);
        insert(a, true);
    }
}
