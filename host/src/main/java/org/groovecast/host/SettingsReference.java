package org.groovecast.host;

import java.math.BigDecimal;

/**
 * The settings table of docs/reference/settings.md, made from {@link Settings}' declarations so the
 * reference cannot drift from the keys a script may set; {@code SettingsReferenceTest} fails while
 * the page's copy differs and prints the current one.
 */
public final class SettingsReference {
    /** Where the table starts and ends in the page (comments, hidden on the rendered page). */
    public static final String BEGIN =
            "<!-- settings: generated from Settings by SettingsReference, checked by SettingsReferenceTest -->";

    public static final String END = "<!-- end of settings -->";

    private SettingsReference() {}

    /** The Markdown table, a row per key in declaration order. */
    public static String table() {
        StringBuilder out = new StringBuilder("| setting | default | meaning |\n|---|---|---|\n");
        for (Settings.Key k : Settings.keys()) {
            out.append("| `")
                    .append(k.name())
                    .append("` | ")
                    .append(shownDefault(k))
                    .append(" | ")
                    .append(k.shownDoc())
                    .append(" |\n");
        }
        return out.toString();
    }

    static String shownDefault(Settings.Key k) {
        if (k.shownDefault() != null) return k.shownDefault();
        Object d = k.defaultValue();
        if (d instanceof String s) return s.isEmpty() ? "(empty)" : "`" + s + "`";
        // 60.0 reads as 60 and 0.001 as 0.001, as a script would write them.
        if (d instanceof Double n)
            return BigDecimal.valueOf(n).stripTrailingZeros().toPlainString();
        return String.valueOf(d);
    }
}
