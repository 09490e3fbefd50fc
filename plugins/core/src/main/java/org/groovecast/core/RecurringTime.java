package org.groovecast.core;

import java.time.ZonedDateTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.groovecast.api.ScriptException;

/**
 * A time that comes back, as scripts write it: {@code '22h'}, {@code '22h30m'}, {@code '0m0s'},
 * {@code '30s'}. The largest unit written sets the period, as in Liquidsoap: hours make a time of
 * day, minutes (without hours) a time in every hour, seconds alone a time in every minute.
 */
final class RecurringTime {
    private static final Pattern FORMAT =
            Pattern.compile("(?:(\\d{1,2})h)?(?:(\\d{1,2})m)?(?:(\\d{1,2})s)?");
    private static final long SECOND = 1_000_000_000L;
    static final long MINUTE = 60 * SECOND;
    static final long HOUR = 60 * MINUTE;
    static final long DAY = 24 * HOUR;

    private final String text;
    private final long offset;
    private final long period;

    private RecurringTime(String text, long offset, long period) {
        this.text = text;
        this.offset = offset;
        this.period = period;
    }

    /** Reads {@code text}; {@code operator} names the caller in the error. */
    static RecurringTime parse(String operator, String text) {
        Matcher m = FORMAT.matcher(text.strip());
        if (text.isBlank() || !m.matches()) {
            throw new ScriptException(
                    operator
                            + "(): '"
                            + text
                            + "' is not a time such as '22h', '22h30m', '0m0s' or '30s'");
        }
        int h = field(m, 1, 24, operator, text);
        int min = field(m, 2, 60, operator, text);
        int s = field(m, 3, 60, operator, text);
        long period = m.group(1) != null ? DAY : m.group(2) != null ? HOUR : MINUTE;
        return new RecurringTime(
                text.strip(),
                Math.max(h, 0) * HOUR + Math.max(min, 0) * MINUTE + Math.max(s, 0) * SECOND,
                period);
    }

    private static int field(Matcher m, int group, int limit, String operator, String text) {
        if (m.group(group) == null) return -1;
        int v = Integer.parseInt(m.group(group));
        if (v >= limit) {
            throw new ScriptException(
                    operator
                            + "(): '"
                            + text
                            + "' is out of range (hours 0-23, minutes and seconds 0-59)");
        }
        return v;
    }

    /** Nanoseconds from the start of the period to this time. */
    long offset() {
        return offset;
    }

    /** The period: {@link #DAY}, {@link #HOUR} or {@link #MINUTE}. */
    long period() {
        return period;
    }

    /**
     * Nanoseconds from the start of the period containing {@code t} (in its local time) to {@code
     * t}.
     */
    long phase(ZonedDateTime t) {
        return t.toLocalTime().toNanoOfDay() % period;
    }

    @Override
    public String toString() {
        return text;
    }
}
