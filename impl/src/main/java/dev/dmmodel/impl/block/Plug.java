package dev.dmmodel.impl.block;

import java.util.ArrayList;
import java.util.List;

/** The submitting task's {@code struct blk_plug}: requests held back so later bios can merge into them. */
final class Plug {
    /** Requests, oldest first (the kernel's list is newest first). */
    final List<Request> requests = new ArrayList<>();
    boolean multipleQueues;
    /** {@code plug->cb_list}: callbacks drivers registered ({@code blk_check_plugged}), run when the plug flushes. */
    final java.util.LinkedHashMap<Object, Runnable> callbacks = new java.util.LinkedHashMap<>();
    int depth = 1;

    Request last() {
        return requests.isEmpty() ? null : requests.get(requests.size() - 1);
    }
}
