package org.groovecast.liquidsoap.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.syntax.Span;

/**
 * A Liquidsoap error: its kind ({@code not_found}, {@code failure}, or one a script registered with
 * {@code error.register}), its message, and where it was raised (empty for a kind not raised yet).
 * A script reads them as {@code err.kind}, {@code err.message}.
 */
public record ErrorValue(String kind, String message, List<Span> positions) {
    public static ErrorValue kind(String kind) {
        return new ErrorValue(kind, "", List.of());
    }

    /**
     * Where it was raised, as Liquidsoap's {@code err.trace} gives it: records {@code {filename,
     * lstart, lstop, cstart, cstop}} with {@code to_string(?prefix="at ")}.
     */
    public List<Object> trace() {
        List<Object> out = new ArrayList<>();
        for (Span s : positions) {
            String file = s.file().substring(s.file().lastIndexOf('/') + 1);
            String place =
                    s.line() == s.endLine()
                            ? "line "
                                    + s.line()
                                    + ", char "
                                    + s.column()
                                    + (s.endColumn() == s.column() + 1 ? "" : "-" + s.endColumn())
                            : "line "
                                    + s.line()
                                    + " char "
                                    + s.column()
                                    + " - line "
                                    + s.endLine()
                                    + " char "
                                    + s.endColumn();
            Map<String, Object> f = new LinkedHashMap<>();
            f.put("filename", s.file());
            f.put("lstart", (long) s.line());
            f.put("lstop", (long) s.endLine());
            f.put("cstart", (long) s.column());
            f.put("cstop", (long) s.endColumn());
            f.put(
                    "to_string",
                    Builtin.of(
                            "pos.to_string",
                            List.of(new Parameter("prefix", true, "at ")),
                            a -> a.string(0) + (file.isEmpty() ? "" : file + ", ") + place));
            out.add(Rec.record(f));
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public String toString() {
        return "error(kind=" + Show.quote(kind) + ", message=" + Show.quote(message) + ")";
    }
}
