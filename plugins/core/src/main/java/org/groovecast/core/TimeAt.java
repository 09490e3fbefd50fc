package org.groovecast.core;

import java.time.Duration;
import java.time.ZonedDateTime;
import org.groovecast.api.Condition;
import org.groovecast.api.StreamContext;

/**
 * {@code time.at('0m0s')}: an instant that comes back every day, hour or minute. It holds from the
 * frame in which the instant falls until the evaluating switch next makes a choice, whichever
 * source it picks: a track-sensitive switch plays its source at the first track boundary after the
 * instant, and a switch asked at every frame (polled by a fallback or {@code add}, or not
 * track-sensitive) sees it in that very frame. Time has frame resolution.
 */
final class TimeAt implements Condition {
    private final RecurringTime at;

    TimeAt(RecurringTime at) {
        this.at = at;
    }

    @Override
    public boolean holds(StreamContext context, ZonedDateTime since) {
        ZonedDateTime from = since == null ? context.now() : since;
        long span = Duration.between(from, FrameTime.end(context)).toNanos();
        if (span <= 0)
            return false; // asked again in the frame of the choice it caused: already seen
        long untilNext = Math.floorMod(at.offset() - at.phase(from), at.period());
        return untilNext < span;
    }

    @Override
    public String toString() {
        return "time.at('" + at + "')";
    }
}
