package org.groovecast.liquidsoap.prelude;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Evaluator;
import org.groovecast.liquidsoap.eval.Hooks;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Values;
import org.groovecast.liquidsoap.parser.Scripts;
import org.groovecast.liquidsoap.syntax.Expr;
import org.groovecast.liquidsoap.syntax.SyntaxError;

/**
 * {@code time()}, {@code time.up}, {@code time.local}, {@code time.string} and {@code
 * time.predicate}.
 */
final class TimeFunctions {
    private TimeFunctions() {}

    static void register(Library lib, Platform platform) {
        // time.zone.set changes the zone this script's time functions use, not the process's.
        java.util.concurrent.atomic.AtomicReference<ZoneId> zone =
                new java.util.concurrent.atomic.AtomicReference<>(ZoneId.systemDefault());
        lib.function(
                "time.zone.set",
                "(string) -> unit",
                "Sets the time zone the script's time functions use (Europe/Paris, UTC...).",
                a -> {
                    try {
                        zone.set(ZoneId.of(a.string(0)));
                    } catch (java.time.DateTimeException e) {
                        throw org.groovecast.liquidsoap.eval.Errors.invalid(
                                "unknown time zone " + a.string(0));
                    }
                    return org.groovecast.liquidsoap.eval.Tuple.UNIT;
                });
        lib.function(
                "time",
                "() -> float",
                "Seconds since 1970-01-01 00:00 UTC.",
                a -> System.currentTimeMillis() / 1000.0);
        lib.function(
                "time.up",
                "() -> float",
                "Seconds since the script started.",
                a -> platform.uptime());
        lib.function(
                "time.local",
                "(?float?) -> {sec : int, min : int, hour : int, day : int, month : int, year : int, week_day : int, year_day : int, dst : bool}",
                "A time's parts in the local time zone (now by default).",
                a -> parts(at(a.get(0), zone.get(), platform)));
        lib.function(
                "time.utc",
                "(?float?) -> {sec : int, min : int, hour : int, day : int, month : int, year : int, week_day : int, year_day : int, dst : bool}",
                "A time's parts in UTC (now by default).",
                a -> parts(at(a.get(0), ZoneOffset.UTC, platform)));
        lib.function(
                "time.make",
                "({sec : int, min : int, hour : int, day : int, month : int, year : int}) -> float",
                "The Unix time of local time parts.",
                a -> {
                    Object r = a.get(0);
                    ZonedDateTime t =
                            ZonedDateTime.of(
                                    (int) field(r, "year"),
                                    (int) field(r, "month"),
                                    (int) field(r, "day"),
                                    (int) field(r, "hour"),
                                    (int) field(r, "min"),
                                    (int) field(r, "sec"),
                                    0,
                                    zone.get());
                    return t.toEpochSecond() * 1.0;
                });
        lib.function(
                "time.string",
                "(?time : float?, ?string?) -> string",
                "The time (now by default) written as a strftime pattern says: %Y-%m-%d %H:%M:%S...",
                a ->
                        Strftime.format(
                                a.isNull(1) ? "%A, %d %B %Y %H:%M:%S" : a.string(1),
                                at(a.get(0), zone.get(), platform)));
        lib.function(
                "time.zone",
                "() -> string",
                "The time zone's name.",
                a -> zone.get().getDisplayName(TextStyle.SHORT, Locale.ROOT));
        lib.function(
                "time.predicate",
                "(string) -> () -> bool",
                "A time predicate written as text, 8h-12h.",
                a -> predicate(a.string(0), platform));
    }

    private static long field(Object record, String name) {
        Object v = Values.fields(record).get(name);
        if (Values.base(v) instanceof Long l) return l;
        throw Errors.invalid("time.make: missing " + name);
    }

    private static ZonedDateTime at(Object seconds, ZoneId zone, Platform platform) {
        if (Values.base(seconds) instanceof Number n) {
            return Instant.ofEpochMilli((long) (n.doubleValue() * 1000)).atZone(zone);
        }
        return platform.now().withZoneSameInstant(zone);
    }

    private static Object parts(ZonedDateTime t) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("sec", (long) t.getSecond());
        f.put("min", (long) t.getMinute());
        f.put("hour", (long) t.getHour());
        f.put("day", (long) t.getDayOfMonth());
        f.put("month", (long) t.getMonthValue());
        f.put("year", (long) t.getYear());
        f.put("week_day", (long) (t.getDayOfWeek().getValue() % 7));
        f.put("year_day", (long) t.getDayOfYear());
        f.put("dst", t.getZone().getRules().isDaylightSavings(t.toInstant()));
        return Rec.record(f);
    }

    private static Object predicate(String text, Platform platform) {
        Expr body;
        try {
            var program =
                    Scripts.parse("time.predicate", text, java.nio.file.Path.of("."), List.of())
                            .program();
            if (program.items().size() != 1
                    || !(program.items().getFirst() instanceof Expr e)
                    || !(e instanceof Expr.TimeLit || e instanceof Expr.IntervalLit)) {
                throw Errors.of("string", "Failed to parse " + text + " as time predicate");
            }
            body = e;
        } catch (SyntaxError e) {
            throw Errors.of("string", "Failed to parse " + text + " as time predicate");
        }
        Evaluator ev =
                new Evaluator(
                        new Hooks() {
                            @Override
                            public ZonedDateTime now() {
                                return platform.now();
                            }
                        });
        Expr predicate = body;
        return Builtin.of(
                "time.predicate",
                List.of(),
                x -> ev.eval(predicate, org.groovecast.liquidsoap.eval.Env.of(Map.of())));
    }
}
