package org.groovecast.core;

import java.time.ZonedDateTime;
import org.groovecast.api.Condition;
import org.groovecast.api.ScriptException;
import org.groovecast.api.StreamContext;

/**
 * {@code time.between('22h', '6h')}: holds from the first time (included) to the second (excluded),
 * wrapping past the end of the period (midnight for times of day); equal times make it always true.
 */
final class TimeBetween implements Condition {
    private final RecurringTime from;
    private final RecurringTime to;

    TimeBetween(RecurringTime from, RecurringTime to) {
        if (from.period() != to.period()) {
            throw new ScriptException(
                    "time.between(): '"
                            + from
                            + "' and '"
                            + to
                            + "' must both start with hours, "
                            + "both with minutes or both with seconds, so that they repeat alike");
        }
        this.from = from;
        this.to = to;
    }

    @Override
    public boolean holds(StreamContext context, ZonedDateTime since) {
        long p = from.phase(context.now());
        long f = from.offset();
        long t = to.offset();
        return f < t ? p >= f && p < t : p >= f || p < t;
    }

    @Override
    public String toString() {
        return "time.between('" + from + "', '" + to + "')";
    }
}
