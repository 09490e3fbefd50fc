package org.groovecast.core;

import static org.groovecast.api.ValueType.ANY;
import static org.groovecast.api.ValueType.CONDITION;
import static org.groovecast.api.ValueType.INTEGER;
import static org.groovecast.api.ValueType.STRING;

import java.time.DayOfWeek;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.groovecast.api.Arguments;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.pf4j.Extension;

/** Conditions on the station's time, for switchOn: time.between, time.at, time.weekday. */
@Extension
public final class TimeOperators implements OperatorProvider {
    /** time.weekday takes up to seven days as arguments; the spec has no variadic integers. */
    private static final int DAYS = 7;

    @Override
    public List<OperatorSpec> operators() {
        OperatorSpec.Builder weekday =
                OperatorSpec.named("time.weekday")
                        .doc(
                                "Holds on the given days, 1 (Monday) to 7 (Sunday): time.weekday(6, 7), time.weekday(1..5).")
                        .positional("day", ANY, "a day 1-7, or a list or range of days");
        for (int i = 2; i <= DAYS; i++) weekday.positional("day" + i, INTEGER, null, "another day");
        return List.of(
                OperatorSpec.named("time.between")
                        .doc(
                                "Holds from one time to another, wrapping past midnight: time.between('22h', '6h').")
                        .positional(
                                "from",
                                STRING,
                                "start, included: '22h', '22h30m', '0m' (every hour), '30s' (every minute)")
                        .positional("to", STRING, "end, excluded, with the same largest unit")
                        .returns(CONDITION)
                        .create(
                                a ->
                                        new TimeBetween(
                                                RecurringTime.parse(
                                                        "time.between", a.string("from")),
                                                RecurringTime.parse(
                                                        "time.between", a.string("to")))),
                OperatorSpec.named("time.at")
                        .doc(
                                "Holds from the frame in which the time falls until the switch asking next chooses: "
                                        + "time.at('0m0s') at the top of every hour.")
                        .positional(
                                "time",
                                STRING,
                                "'0m0s' (every hour), '12h' (every day), '30s' (every minute)")
                        .returns(CONDITION)
                        .create(a -> new TimeAt(RecurringTime.parse("time.at", a.string("time")))),
                weekday.returns(CONDITION).create(TimeOperators::weekday));
    }

    private static Weekday weekday(Arguments a) {
        List<Object> given = new ArrayList<>();
        if (a.value("day") instanceof List<?> list) {
            given.addAll(list);
        } else {
            given.add(a.value("day"));
        }
        for (int i = 2; i <= DAYS; i++) {
            if (a.given("day" + i)) given.add(a.value("day" + i));
        }
        Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        for (Object d : given) {
            if (!(d instanceof Number n)
                    || n.doubleValue() != Math.rint(n.doubleValue())
                    || n.intValue() < 1
                    || n.intValue() > 7) {
                throw new ScriptException(
                        "time.weekday(): days are 1 (Monday) to 7 (Sunday), got " + d);
            }
            days.add(DayOfWeek.of(n.intValue()));
        }
        if (days.isEmpty())
            throw new ScriptException(
                    "time.weekday(): give at least one day, 1 (Monday) to 7 (Sunday)");
        return new Weekday(days);
    }
}
