package org.groovecast.liquidsoap.eval;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.groovecast.liquidsoap.syntax.Span;
import org.groovecast.liquidsoap.syntax.TimeSpec;

/**
 * A time predicate, {@code 8h-12h}, {@code 12h}, {@code 00m}, {@code 6w-7w}: holds when the local
 * time, counted in seconds from the start of the week (Sunday 0h) modulo {@code period}, is in
 * {@code [from, to)} (wrapping past the period's end when {@code from > to}). The period is the
 * unit above the largest one written (a day for {@code 8h}, an hour for {@code 00m}, a week with a
 * weekday); a single time lasts its smallest unit ({@code 12h} is 12h00 to 12h59).
 */
public record TimePredicate(int from, int to, int period) {
    private static final int[] UNITS = {7 * 24 * 3600, 24 * 3600, 3600, 60, 1};

    public boolean holds(ZonedDateTime now) {
        int weekDay = now.getDayOfWeek().getValue() % 7; // Sunday 0
        int t = now.getSecond() + now.getMinute() * 60 + now.getHour() * 3600 + weekDay * 86400;
        t %= period;
        return from <= to ? from <= t && t < to : !(to <= t && t < from);
    }

    /** {@code 12h}: from its start for the length of its smallest unit. */
    public static TimePredicate during(Span at, TimeSpec time) {
        Integer[] parts = parts(time);
        int start = date(at, parts);
        return new TimePredicate(start, start + duration(parts), precision(parts));
    }

    /** {@code 8h-12h}: both ends must be written to the same largest unit. */
    public static TimePredicate between(Span at, TimeSpec from, TimeSpec to) {
        Integer[] a = parts(from);
        Integer[] b = parts(to);
        if (precision(a) != precision(b)) {
            throw Errors.at(at, "invalid", "invalid time interval: precisions differ");
        }
        return new TimePredicate(date(at, a), date(at, b), precision(a));
    }

    private static Integer[] parts(TimeSpec t) {
        return new Integer[] {t.weeks(), t.hours(), t.minutes(), t.seconds()};
    }

    private static int firstWritten(Integer[] parts) {
        int i = 0;
        while (i < parts.length && parts[i] == null) i++;
        return i;
    }

    /** The period: the unit above the largest part written. */
    private static int precision(Integer[] parts) {
        return UNITS[firstWritten(parts)];
    }

    /** The smallest part written's unit. */
    private static int duration(Integer[] parts) {
        int last = parts.length - 1;
        while (last >= 0 && parts[last] == null) last--;
        return UNITS[last + 1];
    }

    /** Seconds from the start of the week (or of the period), the parts not written being 0. */
    private static int date(Span at, Integer[] parts) {
        int first = firstWritten(parts);
        if (first == parts.length) throw Errors.at(at, "invalid", "invalid time");
        List<Integer> written = new ArrayList<>(Arrays.asList(parts).subList(first, parts.length));
        int n = written.size();
        int total = 0;
        for (int i = 0; i < n; i++) {
            Integer v = written.get(i);
            int value = v == null ? 0 : v;
            if (n == 4 && i == 0) value %= 7;
            total += UNITS[UNITS.length - n + i] * value;
        }
        return total;
    }
}
