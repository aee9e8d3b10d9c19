package dev.dmmodel.impl.explain;

import dev.dmmodel.impl.block.Limits;
import dev.dmmodel.impl.block.LimitsObserver;
import dev.dmmodel.limits.Derivation;
import dev.dmmodel.limits.LimitField;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What a limits computation showed its observer, kept for building derivations. */
final class Recorder implements LimitsObserver {
    record Stacked(int line, String device, long start, Limits after) {
    }

    record Change(Limits before, Limits after) {
    }

    record Note(long value, Derivation.Source source, String rule, String detail) {
    }

    Limits defaults;
    Limits personality;
    final List<Stacked> stacked = new ArrayList<>();
    final Map<Integer, Change> hints = new HashMap<>();
    final Map<Integer, String> hintTypes = new HashMap<>();
    final Map<Integer, Limits> combined = new HashMap<>();
    Change afterStacking;
    Change restricted;
    Change committed;
    Change readAhead;
    final Map<LimitField, List<Note>> notes = new EnumMap<>(LimitField.class);

    @Override
    public void defaults(Limits start) {
        defaults = start;
    }

    @Override
    public void personality(Limits after) {
        personality = after;
    }

    @Override
    public void stacked(int line, String device, long start, Limits after) {
        stacked.add(new Stacked(line, device, start, after));
    }

    @Override
    public void hinted(int line, String targetType, Limits before, Limits after) {
        hints.put(line, new Change(before, after));
        hintTypes.put(line, targetType);
    }

    @Override
    public void combined(int line, Limits after) {
        combined.put(line, after);
    }

    @Override
    public void afterStacking(Limits before, Limits after) {
        afterStacking = new Change(before, after);
    }

    @Override
    public void restricted(Limits before, Limits after) {
        restricted = new Change(before, after);
    }

    @Override
    public void committed(Limits before, Limits after) {
        committed = new Change(before, after);
    }

    @Override
    public void readAhead(Limits before, Limits after) {
        readAhead = new Change(before, after);
    }

    @Override
    public void note(LimitField field, long value, Derivation.Source source, String rule, String detail) {
        notes.computeIfAbsent(field, f -> new ArrayList<>()).add(new Note(value, source, rule, detail));
    }

    List<Note> notes(LimitField f) {
        return notes.getOrDefault(f, List.of());
    }

    List<Stacked> line(int line) {
        return stacked.stream().filter(s -> s.line() == line).toList();
    }

    static long value(LimitField f, Limits l) {
        return f.valueOf(l.toQueueLimits());
    }
}
