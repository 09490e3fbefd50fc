package org.groovecast.net.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control commands of a station, by name: what the telnet server and the HTTP control endpoint
 * run. A command is a function of the text after its name ({@code music.push x.mp3} runs {@code
 * music.push} with {@code x.mp3}); the engine registers its own ({@code list}, {@code
 * <id>.skip}...) and scripts add theirs with {@code server.register}.
 *
 * <p>Commands run on a virtual thread of the connection that asked (telnet, HTTP), never on an
 * event loop, so one may block (a script's command calling an HTTP API) holding up only that
 * connection; several may run at once, so they must be thread-safe. {@code server.execute} runs one
 * on the thread of the script's code that calls it.
 */
public final class Commands {
    private static final Logger log = LoggerFactory.getLogger(Commands.class);

    /** The answer to a name nobody registered; the connection stays open. */
    public static final String UNKNOWN = "ERROR: unknown command, type help";

    private static final String QUIT = "quit";

    /** One command's code. */
    @FunctionalInterface
    public interface Command {
        /**
         * Runs with the text after the command name (stripped, empty when none) and returns the
         * answer, lines separated by {@code \n}; null answers nothing. An {@link
         * IllegalArgumentException} means the argument was wrong; its message is shown.
         */
        String run(String argument);
    }

    /**
     * A command that failed and whose failure was logged already (a script's function, which the
     * host logs with its line): answered as failed, with this message, and not logged again.
     */
    public static final class Failed extends RuntimeException {
        public Failed(String message) {
            super(message, null, false, false);
        }
    }

    /** How a command went, which HTTP turns into a status and telnet into the answer alone. */
    public enum Status {
        OK,
        CLOSE,
        UNKNOWN,
        BAD_ARGUMENT,
        FAILED
    }

    /** A command's outcome: its status and the text to show (without the final {@code END}). */
    public record Answer(Status status, String text) {
        /**
         * The HTTP status that says how it went: 200, 400 for a bad argument, 404 unknown, 500
         * failed.
         */
        public int httpStatus() {
            return switch (status) {
                case OK, CLOSE -> 200;
                case BAD_ARGUMENT -> 400;
                case UNKNOWN -> 404;
                case FAILED -> 500;
            };
        }
    }

    private record Entry(String name, String usage, String doc, Command command) {}

    private final Map<String, Entry> entries = new ConcurrentSkipListMap<>();
    private final Set<String> failedOnce = ConcurrentHashMap.newKeySet();

    public Commands() {
        add("help", "[command]", "lists the commands, or describes one", this::help);
        add(QUIT, "", "closes the connection", argument -> "Bye!");
    }

    /**
     * Registers {@code name}; returns false, changing nothing, when the name is taken.
     *
     * @param usage what follows the name, for help: {@code <uri>}; empty for nothing
     * @throws IllegalArgumentException for an empty name or one with spaces
     */
    public boolean add(String name, String usage, String doc, Command command) {
        if (name.isEmpty() || name.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException(
                    "a command name must be one word, got \"" + name + "\"");
        }
        return entries.putIfAbsent(name, new Entry(name, usage, doc, command)) == null;
    }

    public boolean contains(String name) {
        return entries.containsKey(name);
    }

    /** The registered names, sorted. */
    public List<String> names() {
        return List.copyOf(entries.keySet());
    }

    /** Runs a command line: its first word is the command, the rest its argument. */
    public Answer run(String line) {
        String s = line.strip();
        int space = 0;
        while (space < s.length() && !Character.isWhitespace(s.charAt(space))) space++;
        return run(s.substring(0, space), s.substring(space));
    }

    /** Runs command {@code name} with {@code argument}. */
    public Answer run(String name, String argument) {
        Entry e = entries.get(name);
        if (e == null) return new Answer(Status.UNKNOWN, UNKNOWN);
        try {
            String out = e.command().run(argument.strip());
            return new Answer(name.equals(QUIT) ? Status.CLOSE : Status.OK, out == null ? "" : out);
        } catch (IllegalArgumentException x) {
            return new Answer(Status.BAD_ARGUMENT, "ERROR: " + x.getMessage());
        } catch (Failed x) {
            return new Answer(Status.FAILED, "ERROR: " + x.getMessage());
        } catch (Exception
                | AssertionError x) { // a script's command may throw checked exceptions, and assert
            if (failedOnce.add(name))
                log.warn("control: command {} failed (logged once): {}", name, x.toString());
            return new Answer(Status.FAILED, "ERROR: " + x);
        }
    }

    private String help(String argument) {
        if (!argument.isEmpty()) {
            Entry e = entries.get(argument);
            if (e == null)
                throw new IllegalArgumentException("no command " + argument + ", type help");
            return signature(e) + "\n" + e.doc();
        }
        List<Entry> all = new ArrayList<>(entries.values());
        int width = all.stream().mapToInt(e -> signature(e).length()).max().orElse(0);
        StringBuilder out = new StringBuilder("Commands (help <command> for one):");
        for (Entry e : all) {
            String sig = signature(e);
            out.append('\n').append(sig);
            if (!e.doc().isEmpty())
                out.append(" ".repeat(width - sig.length() + 2)).append(e.doc());
        }
        return out.toString();
    }

    private static String signature(Entry e) {
        return e.usage().isEmpty() ? e.name() : e.name() + " " + e.usage();
    }
}
