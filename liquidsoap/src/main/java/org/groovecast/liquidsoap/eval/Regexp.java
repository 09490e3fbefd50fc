package org.groovecast.liquidsoap.eval;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A regular expression, {@code r/a+b/gi} or {@code regexp("a+b", flags=["g"])}, with Liquidsoap's
 * methods: {@code test(s)}, {@code split(s)}, {@code exec(s)} (the groups found, as (index, text),
 * with {@code .groups} the named ones), {@code replace(f, s)} (each match by what f answers; every
 * match with the {@code g} flag, else the first).
 */
public final class Regexp implements HasFields {
    private final String source;
    private final String flags;
    private final Pattern pattern;

    public Regexp(String source, String flags) {
        this.source = source;
        this.flags = flags;
        int f = 0;
        if (flags.contains("i")) f |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
        if (flags.contains("m")) f |= Pattern.MULTILINE;
        if (flags.contains("s")) f |= Pattern.DOTALL;
        try {
            this.pattern = Pattern.compile(source, f);
        } catch (PatternSyntaxException e) {
            throw Errors.of(
                    "string", "invalid regular expression " + source + ": " + e.getDescription());
        }
    }

    public Pattern pattern() {
        return pattern;
    }

    public boolean global() {
        return flags.contains("g");
    }

    public boolean test(String s) {
        return pattern.matcher(s).find();
    }

    public String replace(Fn f, String s) {
        Matcher m = pattern.matcher(s);
        StringBuilder out = new StringBuilder();
        int last = 0;
        while (m.find()) {
            out.append(s, last, m.start());
            out.append(Show.text(f.call(m.group())));
            last = m.end();
            if (!global()) break;
        }
        return out.append(s, last, s.length()).toString();
    }

    public List<Object> split(String s) {
        List<Object> out = new ArrayList<>();
        if (source.isEmpty()) {
            for (int i = 0; i < s.length(); i++) out.add(String.valueOf(s.charAt(i)));
            return out;
        }
        if (s.isEmpty()) return new ArrayList<>(List.of(""));
        for (String part : pattern.split(s)) out.add(part);
        if (!out.isEmpty() && "".equals(out.getFirst())) out.removeFirst();
        return out;
    }

    public Object exec(String s) {
        Matcher m = pattern.matcher(s);
        List<Object> matches = new ArrayList<>();
        Map<String, Object> fields = new LinkedHashMap<>();
        List<Object> groups = new ArrayList<>();
        if (m.find()) {
            for (int i = m.groupCount(); i >= 0; i--) {
                String g = m.group(i);
                if (g != null) matches.add(Tuple.of((long) i, g));
            }
            for (String name : m.namedGroups().keySet()) {
                String g = m.group(name);
                if (g != null) groups.add(Tuple.of(name, g));
            }
        }
        fields.put("groups", groups);
        return Rec.with(matches, fields);
    }

    @Override
    public Object field(String name) {
        return switch (name) {
            case "test" ->
                    Builtin.of(
                            "regexp.test", List.of(Parameter.positional()), a -> test(a.string(0)));
            case "split" ->
                    Builtin.of(
                            "regexp.split",
                            List.of(Parameter.positional()),
                            a -> split(a.string(0)));
            case "exec" ->
                    Builtin.of(
                            "regexp.exec", List.of(Parameter.positional()), a -> exec(a.string(0)));
            case "replace" ->
                    Builtin.of(
                            "regexp.replace",
                            List.of(Parameter.positional(), Parameter.positional()),
                            a -> replace(a.fn(0), a.string(1)));
            default -> Env.MISSING;
        };
    }

    @Override
    public Set<String> fieldNames() {
        return Set.of("test", "split", "exec", "replace");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Regexp r && r.source.equals(source) && r.flags.equals(flags);
    }

    @Override
    public int hashCode() {
        return source.hashCode();
    }

    @Override
    public String toString() {
        return "r/" + source.replace("/", "\\/") + "/" + flags;
    }
}
