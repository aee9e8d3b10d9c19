package dev.dmmodel.impl.dm.table;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The order in which dm devices can be created ({@code dmsetup create} refuses a table naming a device that
 * does not exist yet): every device after the devices it uses. Kahn's algorithm; of the devices ready at once,
 * the first by a caller's tie-break (first line of a table text, lowest device number of a snapshot).
 */
public final class CreationOrder {

    private CreationOrder() {
    }

    /**
     * The devices of {@code uses} in creation order.
     *
     * @param uses for each device, the devices of the same map it uses
     * @param tieBreak which of the devices ready at once comes first
     * @return every device that can be created, in order; shorter than {@code uses} when some devices use each
     *     other in a cycle (the caller names them)
     */
    public static List<String> of(Map<String, Set<String>> uses, Comparator<String> tieBreak) {
        Map<String, Integer> waiting = new HashMap<>();
        Map<String, List<String>> users = new HashMap<>();
        for (Map.Entry<String, Set<String>> e : uses.entrySet()) {
            waiting.put(e.getKey(), e.getValue().size());
            for (String dep : e.getValue()) {
                users.computeIfAbsent(dep, k -> new ArrayList<>()).add(e.getKey());
            }
        }
        PriorityQueue<String> ready = new PriorityQueue<>(tieBreak);
        waiting.forEach((k, n) -> {
            if (n == 0) {
                ready.add(k);
            }
        });
        List<String> order = new ArrayList<>();
        while (!ready.isEmpty()) {
            String k = ready.poll();
            order.add(k);
            for (String user : users.getOrDefault(k, List.of())) {
                if (waiting.merge(user, -1, Integer::sum) == 0) {
                    ready.add(user);
                }
            }
        }
        return List.copyOf(order);
    }
}
