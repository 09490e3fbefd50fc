package org.groovecast.liquidsoap.prelude;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Rec;

/**
 * A crontab entry as {@code cron.parse} reads it: five fields, minute, hour, day of the month,
 * month and day of the week, each {@code *}, a number, a list {@code 1,3,5}, a range {@code 1-5} or
 * a step {@code *}{@code /15} (the values the step divides, as Liquidsoap counts: {@code *}{@code
 * /2} months are the even ones); three-letter month and day names; {@code @yearly}
 * ({@code @annually}), {@code @monthly}, {@code @weekly}, {@code @daily}, {@code @hourly}. A time
 * matches when every field does, in the station's time zone.
 */
final class CronEntry {
    private static final String[] DAYS = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};
    private static final String[] MONTHS = {
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"
    };

    /** One field: what it matches and how it prints. */
    private record Field(String text, java.util.function.IntPredicate matches) {}

    private final Field minute;
    private final Field hour;
    private final Field monthDay;
    private final Field month;
    private final Field weekDay;

    private CronEntry(String[] f) {
        minute = field(f[0], 0, 59, null, "Minute");
        hour = field(f[1], 0, 23, null, "Hour");
        monthDay = field(f[2], 1, 31, null, "Month day");
        month = field(f[3], 1, 12, MONTHS, "Month");
        weekDay = field(f[4], 0, 7, DAYS, "Week day");
    }

    /** {@code cron.parse(entry)}. */
    static void register(Library lib, Platform platform) {
        lib.function(
                "cron.parse",
                "(string) -> {week_day : string, month : string, month_day : string, hour : string, "
                        + "minute : string, test : (?time : float?) -> bool}",
                "A crontab entry: its fields, and test(time=t), whether a time (now by default) matches.",
                a ->
                        parse(a.string(0))
                                .value(
                                        () -> platform.now().getZone(),
                                        () -> platform.now().toInstant()));
    }

    static CronEntry parse(String entry) {
        String e = entry.strip().toLowerCase(Locale.ROOT);
        String expanded =
                switch (e) {
                    case "@yearly", "@annually" -> "0 0 1 1 *";
                    case "@monthly" -> "0 0 1 * *";
                    case "@weekly" -> "0 0 * * 0";
                    case "@daily" -> "0 0 * * *";
                    case "@hourly" -> "0 * * * *";
                    default -> e;
                };
        String[] fields = expanded.split(" +");
        if (fields.length != 5) throw invalid("a cron entry has five fields: " + entry);
        return new CronEntry(fields);
    }

    boolean matches(ZonedDateTime t) {
        return minute.matches.test(t.getMinute())
                && hour.matches.test(t.getHour())
                && monthDay.matches.test(t.getDayOfMonth())
                && month.matches.test(t.getMonthValue())
                && weekDay.matches.test(t.getDayOfWeek().getValue() % 7);
    }

    /**
     * The record {@code cron.parse} answers: the fields as text and {@code test(?time)}, whether
     * the time (Unix seconds; now when null) matches, in the zone {@code zone} gives.
     */
    Object value(Supplier<ZoneId> zone, Supplier<Instant> now) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("week_day", weekDay.text);
        f.put("month", month.text);
        f.put("month_day", monthDay.text);
        f.put("hour", hour.text);
        f.put("minute", minute.text);
        f.put(
                "test",
                Builtin.of(
                        "cron.test",
                        List.of(new Parameter("time", true, null)),
                        a -> {
                            Instant at =
                                    a.isNull(0)
                                            ? now.get()
                                            : Instant.ofEpochMilli(Math.round(a.number(0) * 1000));
                            return matches(at.atZone(zone.get()));
                        }));
        return Rec.record(f);
    }

    private static LiqError invalid(String message) {
        return Errors.invalid(message);
    }

    private static Field field(String text, int min, int max, String[] names, String what) {
        if (text.equals("*")) return new Field("*", v -> true);
        if (text.startsWith("*/")) {
            int step = value(text.substring(2), min, max, names, what);
            if (step <= 0) throw invalid(what + " step should be positive");
            return new Field("*/" + step, v -> v % step == 0);
        }
        int dash = text.indexOf('-');
        if (dash > 0) {
            int from = value(text.substring(0, dash), min, max, names, what);
            int to = value(text.substring(dash + 1), min, max, names, what);
            return new Field(from + "-" + to, v -> from <= v && v <= to);
        }
        List<Integer> values = new ArrayList<>();
        for (String part : text.split(",", -1)) values.add(value(part, min, max, names, what));
        StringBuilder printed = new StringBuilder();
        for (int v : values) printed.append(printed.isEmpty() ? "" : ",").append(v);
        return new Field(printed.toString(), values::contains);
    }

    private static int value(String s, int min, int max, String[] names, String what) {
        if (names != null) {
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(s)) return names == DAYS ? i : i + 1;
            }
        }
        int v;
        try {
            v = Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw invalid("Invalid CRON entry: " + s);
        }
        if (v < min || v > max)
            throw invalid(what + " should be in the " + min + "-" + max + " range!");
        // Sunday is 0 and 7.
        return names == DAYS ? v % 7 : v;
    }
}
