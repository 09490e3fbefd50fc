package org.groovecast.host;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.groovecast.api.ScriptException;
import org.groovecast.api.SettingSpec;
import org.groovecast.api.SettingsProvider;
import org.groovecast.api.ValueType;
import org.groovecast.host.sched.BlockingPool;

/**
 * The engine's settings, read and written by scripts as {@code settings.frame.duration = 0.02} and
 * on the command line as {@code --set frame.duration=0.02}. Every key is declared with a type and a
 * default, so a misspelt key is a script error, not a silent no-op. The engine declares its own
 * here; plugins declare theirs ({@link SettingsProvider}) and {@link #declare(SettingSpec, String)}
 * adds them, after the engine's, as their plugins load.
 */
public final class Settings {
    /**
     * One declared setting. {@code doc} is its row in docs/reference/settings.md (Markdown),
     * generated from here by {@link SettingsReference}; {@code shownDefault} is the default as the
     * docs state it where it depends on the machine ({@code cores}), else null.
     */
    public record Key(
            String name,
            ValueType type,
            Object defaultValue,
            String shownDefault,
            String doc,
            SettingCheck check) {
        /** The reference row's meaning: the description, and the values it takes. */
        public String shownDoc() {
            return check.shown() == null ? doc : doc + " (" + check.shown() + ")";
        }
    }

    /**
     * Filled once by the engine's declarations below, then replaced whole by each plugin
     * declaration.
     */
    private static volatile Map<String, Key> KEYS = new LinkedHashMap<>();

    /** Which plugin declared each plugin setting; guarded by the class. */
    private static final Map<String, String> OWNERS = new LinkedHashMap<>();

    private static void declare(String name, ValueType type, Object def, String doc) {
        declare(name, type, def, null, doc, SettingCheck.ANY);
    }

    private static void declare(
            String name, ValueType type, Object def, String doc, SettingCheck check) {
        declare(name, type, def, null, doc, check);
    }

    private static void declare(
            String name,
            ValueType type,
            Object def,
            String shownDefault,
            String doc,
            SettingCheck check) {
        KEYS.put(name, new Key(name, type, def, shownDefault, doc, check));
    }

    /**
     * Adds a setting plugin {@code owner} declares. The settings are the process's, as its plugins
     * are: a plugin loaded again (a reload's new plugin set) declares its settings again, replacing
     * them.
     *
     * @throws IllegalStateException when the engine or another plugin declares that name
     */
    public static synchronized void declare(SettingSpec spec, String owner) {
        String name = spec.name();
        String had = OWNERS.get(name);
        if (had == null && KEYS.containsKey(name)) {
            throw new IllegalStateException(
                    "plugin " + owner + " declares settings." + name + ", an engine setting");
        }
        if (had != null && !had.equals(owner)) {
            throw new IllegalStateException(
                    "plugin "
                            + owner
                            + " declares settings."
                            + name
                            + ", which plugin "
                            + had
                            + " declares");
        }
        Map<String, Key> keys = new LinkedHashMap<>(KEYS);
        keys.put(
                name,
                new Key(
                        name,
                        spec.type(),
                        spec.defaultValue(),
                        null,
                        spec.doc(),
                        SettingCheck.ANY));
        OWNERS.put(name, owner);
        KEYS = keys;
    }

    static {
        int cores = Runtime.getRuntime().availableProcessors();
        declare(
                "frame.duration",
                ValueType.NUMBER,
                0.02,
                "seconds per frame",
                SettingCheck.between(0.001, 1));
        declare(
                "audio.samplerate",
                ValueType.INTEGER,
                44_100,
                "samples per second of the stream",
                SettingCheck.between(8000, 192_000));
        declare(
                "audio.channels",
                ValueType.INTEGER,
                2,
                "audio channels of the stream",
                SettingCheck.between(1, 8));
        declare(
                "clock.task",
                ValueType.BOOLEAN,
                true,
                "clocks are scheduler tasks; false gives each clock a thread (for comparison)");
        declare(
                "clock.sync",
                ValueType.STRING,
                "auto",
                "`auto` (real time) or `none` (as fast as possible) for every clock",
                SettingCheck.SYNC);
        declare(
                "clock.maxLatency",
                ValueType.NUMBER,
                60.0,
                "seconds behind after which a clock drops its backlog",
                SettingCheck.above(0));
        declare(
                "clock.catchUp",
                ValueType.STRING,
                "catchup",
                "what a clock behind real time does: `catchup` (Liquidsoap's way) produces frames back to "
                        + "back until it is on time again, dropping the backlog only past `clock.maxLatency`; "
                        + "`skip` drops the lost time once it is `clock.skipLag` behind (counted in "
                        + "`groovecast_clock_skipped_seconds_total`): no burst of catch-up work, so a station "
                        + "whose start or a spike made it late is on time again at once, but its listeners' "
                        + "buffers are that much shorter",
                SettingCheck.CATCH_UP);
        declare(
                "clock.skipLag",
                ValueType.NUMBER,
                0.5,
                "seconds behind from which a clock with `clock.catchUp = 'skip'` drops the lost time",
                SettingCheck.above(0));
        declare(
                "clock.joining",
                ValueType.INTEGER,
                4 * cores,
                "4 x cores",
                "clocks joining real time at once when a station starts: the others wait until one of "
                        + "them has produced its first frames and a frame on time (or has run for half a "
                        + "second) and the clocks already running keep up (none five frames behind or "
                        + "skipping; half a second at most), so that a station of many clocks does not "
                        + "start them all at once and fall behind",
                SettingCheck.between(1, 4096));
        declare(
                "clock.warnLag",
                ValueType.NUMBER,
                0.5,
                "seconds behind real time from which a clock warns",
                SettingCheck.atLeast(0));
        declare(
                "clock.startTime",
                ValueType.STRING,
                "",
                "ISO-8601 date-time (`2025-01-06T05:59:55`, in `time.zone`; with an offset or zone, "
                        + "`2025-01-06T04:59:55Z`, the instant it names, seen in `time.zone`) at which every clock's time "
                        + "starts, then advancing with stream time; empty for the wall clock. For tests, offline renders, "
                        + "rehearsing a schedule",
                SettingCheck.START_TIME);
        declare(
                "time.zone",
                ValueType.STRING,
                "",
                "the station's time zone (`Europe/Paris`, `UTC`, `+02:00`; empty for the system's): the time "
                        + "conditions (`time.between`, `time.at`, `time.weekday`), `output.file`'s strftime paths and a "
                        + "local `clock.startTime` read the time in it, as AzuraCast sets a station's `TZ`. An unknown "
                        + "zone is a script error",
                SettingCheck.ZONE);
        declare(
                "clock.reportEvery",
                ValueType.NUMBER,
                60.0,
                "seconds between clock health lines (duty cycle, lag); 0 for none",
                SettingCheck.atLeast(0));
        declare(
                "scheduler.threads",
                ValueType.INTEGER,
                cores,
                "cores",
                "threads running clocks and other non-blocking tasks",
                SettingCheck.between(1, 1024));
        declare(
                "scheduler.blockingTasks",
                ValueType.INTEGER,
                BlockingPool.defaultCap(),
                "max(cores, 4)",
                "blocking tasks (probing, decoding, requests) running at once",
                SettingCheck.between(1, 4096));
        declare(
                "scheduler.timerSlack",
                ValueType.NUMBER,
                0.001,
                "seconds a timer may fire early so that close deadlines share one wake-up",
                SettingCheck.between(0, 0.1));
        declare(
                "scheduler.stallLimit",
                ValueType.NUMBER,
                10.0,
                "seconds the scheduler may start no task before `/healthz` answers 503: a station's status "
                        + "sampler runs there every second, so a longer silence means every worker is stuck in a "
                        + "task that does not return (a script callback that loops), which only a restart cures",
                SettingCheck.between(2, 3600));
        declare(
                "video.frame.width",
                ValueType.INTEGER,
                1280,
                "width of video pictures",
                SettingCheck.even(2, 7680));
        declare(
                "video.frame.height",
                ValueType.INTEGER,
                720,
                "height of video pictures",
                SettingCheck.even(2, 4320));
        declare(
                "video.frame.rate",
                ValueType.INTEGER,
                25,
                "video pictures per second of encoders",
                SettingCheck.between(1, 240));
        declare(
                "harbor.bind",
                ValueType.STRING,
                "0.0.0.0",
                "address the harbor ports listen on (`'127.0.0.1'` for a station behind a reverse proxy), as "
                        + "the script leaves it or `--set` gives it; a reload applies a changed address to the ports it "
                        + "opens, the ports kept listening stay where they are");
        declare(
                "harbor.maxBody",
                ValueType.INTEGER,
                1_048_576,
                "largest request body, bytes",
                SettingCheck.atLeast(0));
        declare(
                "harbor.eventLoops",
                ValueType.INTEGER,
                cores,
                "cores",
                "Vert.x event loops",
                SettingCheck.between(1, 1024));
        declare(
                "harbor.headTimeout",
                ValueType.NUMBER,
                10.0,
                "seconds a client has to send a whole request head, from the connection or the head's first "
                        + "byte (408 past it)",
                SettingCheck.above(0));
        declare(
                "harbor.idleTimeout",
                ValueType.NUMBER,
                30.0,
                "seconds a keep-alive connection may wait for its next request, or a request body for its next "
                        + "byte",
                SettingCheck.above(0));
        declare(
                "harbor.maxConnections",
                ValueType.INTEGER,
                4096,
                "connections one harbor port holds at once, listeners and DJs included (503 past it)",
                SettingCheck.atLeast(1));
        declare(
                "harbor.maxConnectionsPerAddress",
                ValueType.INTEGER,
                256,
                "connections one client address may hold on a harbor port, loopback included (503 past it)",
                SettingCheck.atLeast(1));
        declare(
                "harbor.followSymlinks",
                ValueType.BOOLEAN,
                false,
                "`harbor.http.static` serves symbolic links that lead out of its directory");
        declare(
                "harbor.maxAuthFailures",
                ValueType.INTEGER,
                10,
                "wrong credentials from one address within `harbor.authFailureWindow` before it gets 429",
                SettingCheck.atLeast(1));
        declare(
                "harbor.authFailureWindow",
                ValueType.NUMBER,
                60.0,
                "seconds over which failed logins count; an address past the limit is refused for the rest of it",
                SettingCheck.above(0));
        declare(
                "harbor.handlerTimeout",
                ValueType.NUMBER,
                30.0,
                "seconds a `harbor.http.register` handler, or a control command over `server.http` or "
                        + "`server.harbor`, may take before its request gets 503",
                SettingCheck.above(0));
        declare(
                "harbor.trustedProxies",
                ValueType.LIST,
                List.of(),
                "(none)",
                "reverse proxies or CDNs in front of the harbor, by address or CIDR range "
                        + "(`['127.0.0.1', '10.0.0.0/8', '2001:db8::/32']`; on the command line "
                        + "`--set harbor.trustedProxies=10.0.0.0/8,::1`): from these peers only, "
                        + "`X-Forwarded-For` (its right-most address that is no trusted proxy) or else "
                        + "`Forwarded` (`for=`) names the client, and that address replaces the peer's in "
                        + "logs, listener sessions, connection caps and failed-login limits; from anyone else "
                        + "both headers are ignored",
                SettingCheck.PROXIES);
        declare(
                "harbor.adminPassword",
                ValueType.STRING,
                "",
                "password of Icecast's admin views on every harbor port (`/admin/stats`, "
                        + "`/admin/listclients`, `/admin/killclient`, `/admin/moveclients`), user `admin` "
                        + "over HTTP Basic, compared in constant time, a wrong one counted as a failed login; "
                        + "empty: they answer 401 to everyone");
        declare(
                "harbor.accessLog",
                ValueType.STRING,
                "",
                "file of the listeners' access log, one line per finished listener session (a mount's "
                        + "listener, an HLS client) in Icecast's combined format with the seconds connected "
                        + "last, rolled daily to `<file>.<date>.gz` and kept 30 days; empty: none");
        declare(
                "harbor.accessLog.hashAddresses",
                ValueType.BOOLEAN,
                true,
                "the access log names each address by a keyed hash, its key drawn anew each run (the "
                        + "same listener the same token within a run, no address kept); false writes "
                        + "addresses as they are");
        declare(
                "random.seed",
                ValueType.INTEGER,
                0,
                "where the random choices start (`random`'s picks, `playlist`'s `randomize` and `random` "
                        + "modes): the same seed, the same choices in the same order, to repeat a run or a test; each "
                        + "clock and each source draws its own sequence from it, and each reload moves it along (a "
                        + "reloaded station does not replay the first choices of the one it replaced; the run as a whole "
                        + "still repeats). 0 for a new start each run");
        declare(
                "request.timeout",
                ValueType.NUMBER,
                30.0,
                "seconds a request's resolution may take (protocols, downloads, a `request.dynamic` function); "
                        + "past it the request is abandoned and skipped",
                SettingCheck.above(0));
        declare(
                "request.maxDownload",
                ValueType.INTEGER,
                268_435_456,
                "largest file an `http://` or `https://` request downloads, bytes; a larger one is skipped",
                SettingCheck.atLeast(0));
    }

    private final Map<String, Object> values = new ConcurrentHashMap<>();

    public static Collection<Key> keys() {
        return KEYS.values();
    }

    public static Optional<Key> key(String name) {
        return Optional.ofNullable(KEYS.get(name));
    }

    /** Whether {@code prefix} starts at least one key: {@code frame} for {@code frame.duration}. */
    public static boolean isPrefix(String prefix) {
        String p = prefix + ".";
        return KEYS.keySet().stream().anyMatch(k -> k.startsWith(p));
    }

    public static List<String> names() {
        return List.copyOf(KEYS.keySet());
    }

    public Object get(String name) {
        Key k = KEYS.get(name);
        if (k == null) throw new ScriptException("unknown setting settings." + name);
        return values.getOrDefault(name, k.defaultValue());
    }

    public double number(String name) {
        return ((Number) get(name)).doubleValue();
    }

    public int integer(String name) {
        return ((Number) get(name)).intValue();
    }

    public boolean bool(String name) {
        return (Boolean) get(name);
    }

    public String string(String name) {
        return get(name).toString();
    }

    /** Sets a value, checking its type; strings are parsed, as given by {@code --set}. */
    public void set(String name, Object value) {
        Key k = KEYS.get(name);
        if (k == null)
            throw new ScriptException("unknown setting settings." + name + suggest(name));
        Object v = convert(k, value);
        k.check().check(name, v);
        values.put(name, v);
    }

    private static Object convert(Key k, Object v) {
        String what = "settings." + k.name() + " expects a " + k.type().label() + ", got " + v;
        try {
            return switch (k.type()) {
                case NUMBER ->
                        v instanceof Number n ? n.doubleValue() : Double.parseDouble(v.toString());
                case INTEGER -> {
                    if (v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) {
                        if (n.doubleValue() < Integer.MIN_VALUE
                                || n.doubleValue() > Integer.MAX_VALUE)
                            throw new ScriptException(
                                    "settings."
                                            + k.name()
                                            + " expects an integer that fits in 32 bits, got "
                                            + v);
                        yield n.intValue();
                    }
                    if (v instanceof CharSequence s) yield Integer.parseInt(s.toString().strip());
                    throw new ScriptException(what);
                }
                case BOOLEAN -> {
                    if (v instanceof Boolean b) yield b;
                    String s = v.toString();
                    if (s.equals("true") || s.equals("false")) yield Boolean.parseBoolean(s);
                    throw new ScriptException(what);
                }
                case STRING -> {
                    if (v instanceof CharSequence s) yield s.toString();
                    throw new ScriptException(what);
                }
                default -> v;
            };
        } catch (NumberFormatException e) {
            throw new ScriptException(what);
        }
    }

    private static String suggest(String name) {
        String leaf = name.substring(name.lastIndexOf('.') + 1).toLowerCase();
        return KEYS.keySet().stream()
                .filter(
                        k ->
                                k.toLowerCase().endsWith(leaf)
                                        || leaf.length() > 3
                                                && k.toLowerCase().contains(leaf.substring(0, 4)))
                .findFirst()
                .map(k -> "; did you mean settings." + k + "?")
                .orElse("");
    }
}
