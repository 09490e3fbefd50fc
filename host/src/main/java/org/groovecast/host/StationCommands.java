package org.groovecast.host;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.groovecast.api.ApiVersion;
import org.groovecast.api.Queued;
import org.groovecast.api.Registration;
import org.groovecast.api.Source;
import org.groovecast.net.control.Commands;
import org.groovecast.net.harbor.LiveInput;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's control commands: {@code list}, {@code uptime} and {@code version} for the station,
 * and for every source of its graph {@code <id>.skip}, {@code <id>.metadata} and {@code
 * <id>.remaining}, plus {@code <id>.push}, {@code <id>.queue}, {@code <id>.remove}, {@code
 * <id>.flush} and {@code <id>.flush_and_skip} for queues (any source that is {@link Queued},
 * whatever plugin made it), and {@code <id>.stop} and {@code <id>.status} for live inputs.
 */
final class StationCommands {
    private static final Logger log = LoggerFactory.getLogger(StationCommands.class);

    private StationCommands() {}

    /**
     * The station's own commands; registered before the script runs, so that a script cannot take
     * their names.
     */
    static void station(Commands commands, Station station) {
        commands.add(
                "list",
                "",
                "the sources: id and kind",
                argument ->
                        station.graph().sources().stream()
                                .map(s -> s.id() + " : " + s.kind())
                                .collect(Collectors.joining("\n")));
        commands.add(
                "uptime",
                "",
                "time since the station was loaded",
                argument -> uptime(station.uptime()));
        commands.add("version", "", "the engine's version", argument -> version());
        commands.add(
                "reload",
                "",
                "reloads the station's script (listeners stay connected)",
                argument -> {
                    java.util.function.BooleanSupplier reload = station.reloadHook();
                    if (reload == null)
                        throw new IllegalStateException(
                                "this station cannot be reloaded (not run by groovecast run)");
                    // On a thread of its own, not the command's: a reload compiles a script, stops
                    // the old
                    // station and closes this very telnet server, which must answer first. Its
                    // outcome goes to the log.
                    Thread.ofVirtual().name("reload").start(reload::getAsBoolean);
                    return "Reloading; the log says what was kept, started and stopped";
                });
    }

    /**
     * The commands of every source the script built; a name the script registered itself stays the
     * script's, and of two sources with one id the first one gets the commands.
     */
    static void sources(Commands commands, Station station) {
        Set<String> seen = new HashSet<>();
        for (Source s : station.graph().sources()) {
            String id = s.id();
            if (!seen.add(id)) {
                log.warn(
                        "{}: two sources have the id {}; control commands {}.* reach the first",
                        station.fileName(),
                        id,
                        id);
                continue;
            }
            add(commands, id + ".skip", "", "ends the current track of " + id, argument -> skip(s));
            add(
                    commands,
                    id + ".metadata",
                    "",
                    "the last metadata of " + id,
                    argument ->
                            s.lastMetadata().entrySet().stream()
                                    .map(e -> e.getKey() + "=" + e.getValue())
                                    .collect(Collectors.joining("\n")));
            add(
                    commands,
                    id + ".remaining",
                    "",
                    "seconds left in the current track of " + id + " (-1: unknown)",
                    argument -> remaining(s, station));
            if (overridesReadings(s)) {
                add(
                        commands,
                        id + ".readings",
                        "",
                        "the live figures of " + id + " (a meter's levels, a gain)",
                        argument ->
                                s.readings().entrySet().stream()
                                        .map(e -> e.getKey() + "=" + e.getValue())
                                        .collect(Collectors.joining("\n")));
            }
            if (s instanceof Queued q) queueCommands(commands, id, q);
            if (s instanceof LiveInput live) liveInput(commands, id, live);
        }
    }

    /**
     * A live DJ's input, as Liquidsoap's: {@code <id>.stop} kicks the source client, {@code
     * <id>.status} says who streams.
     */
    private static void liveInput(Commands commands, String id, LiveInput live) {
        add(
                commands,
                id + ".stop",
                "",
                "disconnects the source client streaming to " + id,
                argument -> {
                    if (live.connectedClient() == null) return "No source client connected";
                    live.stop();
                    return "Done";
                });
        add(
                commands,
                id + ".status",
                "",
                "whether a source client streams to " + id + ", and from where",
                argument -> live.status());
    }

    /**
     * A queue's commands. {@code push} answers the new request's id, as Liquidsoap 2's {@code
     * request.queue} does, and {@code remove} {@code OK} as its {@code request.equeue}; {@code
     * flush} and {@code flush_and_skip} answer {@code Done} as {@code skip} does (Liquidsoap:
     * {@code Done.}). {@code queue} gives one line per request, its id and its uri (Liquidsoap
     * lists the ids alone, on one line), so an empty queue still answers an empty first line.
     */
    private static void queueCommands(Commands commands, String id, Queued q) {
        add(
                commands,
                id + ".push",
                "<uri>",
                "adds a request at the end of queue " + id + "; answers its id",
                argument -> {
                    if (argument.isEmpty())
                        throw new IllegalArgumentException(id + ".push expects a uri");
                    return String.valueOf(q.push(argument));
                });
        add(
                commands,
                id + ".queue",
                "",
                "the requests waiting in queue " + id + ", one per line: id uri",
                argument ->
                        q.queue().stream()
                                .map(e -> e.rid() + " " + e.uri())
                                .collect(Collectors.joining("\n")));
        add(
                commands,
                id + ".remove",
                "<rid>",
                "takes request <rid> out of queue " + id + " before it plays",
                argument -> {
                    int rid;
                    try {
                        rid = Integer.parseInt(argument);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException(
                                id + ".remove expects a request id, got \"" + argument + "\"");
                    }
                    if (!q.remove(rid))
                        throw new IllegalArgumentException("No such request in my queue: " + rid);
                    return "OK";
                });
        add(
                commands,
                id + ".flush",
                "",
                "empties queue " + id + " (the track playing goes on)",
                argument -> {
                    q.flush();
                    return "Done";
                });
        add(
                commands,
                id + ".flush_and_skip",
                "",
                "empties queue " + id + " and ends the track playing",
                argument -> {
                    q.flushAndSkip();
                    return "Done";
                });
    }

    private static void add(
            Commands commands, String name, String usage, String doc, Commands.Command command) {
        if (!commands.add(name, usage, doc, command)) {
            log.debug("control: the script registered {} itself; keeping its own", name);
        }
    }

    /**
     * Ends the track on the source's clock, at the start of its next tick: a source is only ever
     * touched by its clock (ending a track closes its decoder, which the clock may be reading).
     */
    private static String skip(Source s) {
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Registration> self = new AtomicReference<>();
        Registration r =
                s.onFrame(
                        true,
                        () -> {
                            if (done.compareAndSet(false, true)) s.abortTrack();
                            Registration mine = self.get();
                            if (mine != null) mine.release();
                        });
        self.set(r);
        if (done.get()) r.release(); // it ran before it knew its registration
        return "Done";
    }

    /**
     * Read off the clock: a figure that may be one frame old, never a torn state (plain numbers).
     */
    /** Whether the source's class publishes readings (they may be empty until the station runs). */
    private static boolean overridesReadings(Source s) {
        try {
            return s.getClass().getMethod("readings").getDeclaringClass() != Source.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static String remaining(Source s, Station station) {
        long samples = s.remaining();
        if (samples < 0) return "-1";
        int rate =
                s.context() != null
                        ? s.context().format().sampleRate()
                        : station.settings().integer("audio.samplerate");
        return String.format(Locale.ROOT, "%.2f", samples / (double) rate);
    }

    private static String uptime(double seconds) {
        long s = (long) seconds;
        return String.format(
                Locale.ROOT,
                "%dd %02dh %02dm %02ds",
                s / 86_400,
                s / 3600 % 24,
                s / 60 % 60,
                s % 60);
    }

    /**
     * The engine's name and version: {@code Groovecast 0.1.0}, or {@code Groovecast development
     * build} outside a jar.
     */
    static String engine() {
        String v = Station.class.getPackage().getImplementationVersion();
        return "Groovecast " + (v != null ? v : "development build");
    }

    private static String version() {
        return engine() + " (plugin API " + ApiVersion.CURRENT + ")";
    }
}
