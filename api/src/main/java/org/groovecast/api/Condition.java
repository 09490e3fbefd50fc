package org.groovecast.api;

import java.time.ZonedDateTime;

/**
 * A yes-or-no question that an operator asks on its clock, such as "is it night?" ({@code
 * time.between('22h', '6h')}); {@code switchOn} takes conditions as predicates. Scripts combine
 * them with {@code &}, {@code |} and {@code ~} (Groovy's operator methods {@link #and}, {@link #or}
 * and {@link #bitwiseNegate}).
 *
 * <p>A condition is evaluated on the clock's thread, against {@link StreamContext#now()}, and must
 * not block. It keeps no state of its own: what it needs to know about earlier evaluations comes in
 * as {@code since}, so one condition may serve several operators.
 */
@FunctionalInterface
public interface Condition {
    /**
     * Whether the condition holds for the frame being produced.
     *
     * @param context the evaluating operator's context; {@code context.now()} is the time at the
     *     start of the frame
     * @param since where the evaluating operator's memory starts: the end of the frame of its last
     *     choice (or the start of its first evaluation). Conditions on instants ({@code time.at})
     *     hold when an instant fell between {@code since} and the end of the current frame, so one
     *     that was crossed while nobody asked is still seen at the next choice.
     */
    boolean holds(StreamContext context, ZonedDateTime since);

    /** Both hold: {@code a & b} in scripts. */
    default Condition and(Condition other) {
        return (context, since) -> holds(context, since) && other.holds(context, since);
    }

    /** Either holds: {@code a | b} in scripts. */
    default Condition or(Condition other) {
        return (context, since) -> holds(context, since) || other.holds(context, since);
    }

    /** The opposite: {@code ~a} in scripts. */
    default Condition bitwiseNegate() {
        return (context, since) -> !holds(context, since);
    }

    /**
     * Refuses Groovy truth: {@code !a} or {@code if (a)} would read any object as true and silently
     * build a switch that never changes; a condition only has a value on a clock.
     */
    default boolean asBoolean() {
        throw new ScriptException(
                "a condition holds or not only while a clock runs: combine conditions with &, | "
                        + "and ~ (not with !, && or ||), and give them to switchOn()");
    }
}
