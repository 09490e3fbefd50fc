package org.groovecast.core;

import java.time.DayOfWeek;
import java.time.ZonedDateTime;
import java.util.EnumSet;
import java.util.Set;
import org.groovecast.api.Condition;
import org.groovecast.api.StreamContext;

/** {@code time.weekday(6, 7)}: holds on the given days, 1 for Monday to 7 for Sunday (ISO-8601). */
final class Weekday implements Condition {
    private final Set<DayOfWeek> days;

    Weekday(Set<DayOfWeek> days) {
        this.days = EnumSet.copyOf(days);
    }

    @Override
    public boolean holds(StreamContext context, ZonedDateTime since) {
        return days.contains(context.now().getDayOfWeek());
    }

    @Override
    public String toString() {
        return "time.weekday("
                + days.stream()
                        .map(d -> String.valueOf(d.getValue()))
                        .reduce((a, b) -> a + ", " + b)
                        .orElse("")
                + ")";
    }
}
