package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.groovecast.liquidsoap.eval.Liq;
import org.junit.jupiter.api.Test;

/** cron.parse, cron.add and cron.remove. */
class CronEntryTest {
    /** Whether {@code entry} matches the time, in UTC: {@code test(time=...)} of cron.parse. */
    private static String at(String entry, String time) {
        return Liq.value(
                "time.zone.set(\"UTC\")\n"
                        + "t = time.make({year="
                        + time.substring(0, 4)
                        + ", month="
                        + Integer.parseInt(time.substring(5, 7))
                        + ", day="
                        + Integer.parseInt(time.substring(8, 10))
                        + ", hour="
                        + Integer.parseInt(time.substring(11, 13))
                        + ", min="
                        + Integer.parseInt(time.substring(14, 16))
                        + ", sec=0, dst=null})\n"
                        + "cron.parse(\""
                        + entry
                        + "\").test(time=t)");
    }

    @Test
    void fieldsMatchAsCrontabSays() {
        // 2024-06-15 was a Saturday.
        assertEquals("true", at("* * * * *", "2024-06-15 12:30"));
        assertEquals("true", at("30 12 15 6 sat", "2024-06-15 12:30"));
        assertEquals("false", at("30 12 15 6 fri", "2024-06-15 12:30"));
        assertEquals("true", at("*/15 * * * *", "2024-06-15 12:45"));
        assertEquals("false", at("*/15 * * * *", "2024-06-15 12:40"));
        assertEquals("true", at("0 9-17 * * *", "2024-06-15 17:00"));
        assertEquals("false", at("0 9-17 * * *", "2024-06-15 18:00"));
        assertEquals("true", at("0 6,18 * jun,dec *", "2024-06-15 18:00"));
        assertEquals("true", at("0 0 * * 7", "2024-06-16 00:00"));
        assertEquals("true", at("@daily", "2024-06-15 00:00"));
        assertEquals("false", at("@hourly", "2024-06-15 12:01"));
        assertEquals("true", at("@yearly", "2024-01-01 00:00"));
    }

    @Test
    void theEntryReadsBackAndMistakesAreRefused() {
        assertEquals(
                "(\"*/15\", \"9-17\", \"1,15\", \"6\", \"1\")",
                Liq.value(
                        "c = cron.parse(\"*/15 9-17 1,15 jun mon\")\n"
                                + "(c.minute, c.hour, c.month_day, c.month, c.week_day)"));
        assertTrue(
                Liq.error("cron.parse(\"61 * * * *\")")
                        .contains("Minute should be in the 0-59 range"));
        assertTrue(Liq.error("cron.parse(\"* * *\")").contains("five fields"));
        assertTrue(Liq.error("cron.parse(\"x * * * *\")").contains("Invalid CRON entry"));
    }

    @Test
    void entriesAreAddedAndRemovedByTheirId() {
        assertEquals(
                "(\"nightly\", 1, 0)",
                Liq.value(
                        "e = cron.add(id=\"nightly\", \"0 3 * * *\", fun () -> ())\n"
                                + "n = list.length(cron.tab())\n"
                                + "cron.remove(e.id)\n"
                                + "(e.id, n, list.length(cron.tab()))"));
        assertTrue(
                Liq.error(
                                "cron.add(id=\"x\", \"* * * * *\", fun () -> ())\ncron.add(id=\"x\", \"* * * * *\", fun () -> ())")
                        .contains("Cron tab entry with ID x already exists"));
        Registered.withTypes("cron.parse", "cron.add", "cron.remove", "cron.tab");
    }
}
