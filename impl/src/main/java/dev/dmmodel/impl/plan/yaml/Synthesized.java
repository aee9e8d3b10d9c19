package dev.dmmodel.impl.plan.yaml;

import dev.dmmodel.impl.plan.Origin;
import dev.dmmodel.impl.plan.PlanOp;
import dev.dmmodel.impl.plan.PlanOpFailure;
import dev.dmmodel.impl.plan.PlanState;
import dev.dmmodel.impl.plan.shell.ShellCommand;
import dev.dmmodel.impl.plan.shell.ShellPlanReader;
import dev.dmmodel.impl.plan.shell.Word;
import dev.dmmodel.plan.PlanException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The shell commands a YAML entry's tool runs (curtin's {@code vgcreate}, Ansible's {@code lvcreate}), read by
 * {@link ShellPlanReader#command} with the entry's origin: the words the tool builds are the words the shell
 * reader checks and runs.
 */
public final class Synthesized {

    private Synthesized() {
    }

    /** The command of these words, every word placed at the entry's line and column. */
    public static ShellCommand command(Origin at, List<String> words) {
        List<Word> placed = new ArrayList<>();
        for (String w : words) {
            placed.add(new Word(w, at.line(), at.column()));
        }
        return new ShellCommand(at, placed, Optional.empty(), 0);
    }

    /**
     * Reads the command (as the plan is read).
     *
     * @throws PlanException if the shell reader refuses the words: the entry's values made them
     */
    public static PlanOp read(Origin at, List<String> words) {
        return ShellPlanReader.command(command(at, words));
    }

    /**
     * Reads and runs the command on the host (for words that depend on it: the devices an earlier entry made):
     * its results, each after the command line.
     *
     * @throws PlanOpFailure with the reader's message if the words do not read (they were checked at reading with
     *     the plan's own names; the host's can differ)
     */
    public static List<String> run(Origin at, List<String> words, PlanState state) {
        PlanOp op;
        try {
            op = read(at, words);
        } catch (PlanException e) {
            throw new PlanOpFailure(e.problem());
        }
        return prefixed(words, op.apply(state));
    }

    /** Results after the command line that decided them: {@code vgcreate vg0 /dev/sda2: VG vg0: ...}. */
    public static List<String> prefixed(List<String> words, List<String> results) {
        String line = String.join(" ", words);
        if (results.isEmpty()) {
            return List.of(line);
        }
        List<String> out = new ArrayList<>();
        for (String r : results) {
            out.add(line + ": " + r);
        }
        return out;
    }
}
