package org.groovecast.host;

import java.time.ZoneOffset;
import java.util.Set;
import java.util.function.Function;
import org.groovecast.api.ScriptException;
import org.groovecast.host.clock.StartTime;
import org.groovecast.host.clock.StationZone;
import org.groovecast.host.clock.Sync;
import org.groovecast.net.harbor.clients.TrustedProxies;

/**
 * What values a setting takes beyond its type, checked where the value is set: a script's
 * assignment, at its line ({@code settings.audio.channels = 0} is refused there, not by a stack
 * trace when the clocks start), or {@code --set}. {@code shown} is how the settings reference says
 * it ("1 to 8"), null where the setting's description says it already.
 */
record SettingCheck(String shown, Function<Object, String> problem) {
    static final SettingCheck ANY = new SettingCheck(null, v -> null);

    /** Numbers from {@code min} to {@code max}, both included. */
    static SettingCheck between(double min, double max) {
        return new SettingCheck(
                number(min) + " to " + number(max),
                v -> {
                    double d = ((Number) v).doubleValue();
                    return d >= min && d <= max
                            ? null
                            : "must be from " + number(min) + " to " + number(max);
                });
    }

    /** Numbers of {@code min} or more. */
    static SettingCheck atLeast(double min) {
        return new SettingCheck(
                number(min) + " or more",
                v ->
                        ((Number) v).doubleValue() >= min
                                ? null
                                : "must be " + number(min) + " or more");
    }

    /** Numbers above {@code min}. */
    static SettingCheck above(double min) {
        return new SettingCheck(
                "more than " + number(min),
                v -> ((Number) v).doubleValue() > min ? null : "must be more than " + number(min));
    }

    /** Even numbers from {@code min} to {@code max} (video sizes). */
    static SettingCheck even(int min, int max) {
        SettingCheck range = between(min, max);
        return new SettingCheck(
                "even, " + range.shown(),
                v -> {
                    String p = range.problem().apply(v);
                    if (p != null) return p + " and even";
                    return ((Number) v).intValue() % 2 == 0 ? null : "must be even";
                });
    }

    static final SettingCheck SYNC =
            new SettingCheck(
                    null,
                    v ->
                            parsed(() -> Sync.parse((String) v)) == null
                                    ? null
                                    : "must be 'auto' or 'none'");

    private static final Set<Object> CATCH_UP_VALUES = Set.of("catchup", "skip");

    static final SettingCheck CATCH_UP =
            new SettingCheck(
                    null, v -> CATCH_UP_VALUES.contains(v) ? null : "must be 'catchup' or 'skip'");

    static final SettingCheck ZONE =
            new SettingCheck(null, v -> parsed(() -> StationZone.parse((String) v)));

    /** A start time's form; the zone it is read in may be set after it, so any zone does here. */
    static final SettingCheck START_TIME =
            new SettingCheck(null, v -> parsed(() -> StartTime.parse((String) v, ZoneOffset.UTC)));

    /** Addresses and CIDR ranges ({@code settings.harbor.trustedProxies}). */
    static final SettingCheck PROXIES =
            new SettingCheck(
                    null,
                    v -> {
                        String p = parsed(() -> TrustedProxies.parse(v));
                        return p == null ? null : "settings.harbor.trustedProxies: " + p;
                    });

    /**
     * Throws a ScriptException naming the setting when {@code value} (converted to its type) is not
     * one it takes.
     */
    void check(String name, Object value) {
        String p = problem.apply(value);
        if (p == null) return;
        throw new ScriptException(
                p.startsWith("settings.")
                        ? p
                        : "settings."
                                + name
                                + " "
                                + p
                                + ", got "
                                + (value instanceof String t ? "'" + t + "'" : value));
    }

    /** The message of what {@code parse} throws, or null when it parses. */
    private static String parsed(Runnable parse) {
        try {
            parse.run();
            return null;
        } catch (IllegalArgumentException | ScriptException e) {
            return e.getMessage();
        }
    }

    private static String number(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
