package org.groovecast.net.admission;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A deny list's User-Agent patterns, matched without regard to case. A pattern is a glob matched
 * against the whole agent ({@code *} any run of characters, {@code ?} one: {@code curl/*}, {@code
 * *bot*}), or a regular expression between slashes found anywhere in it ({@code /^Lavf\/5[0-7]/});
 * the empty pattern matches a client that sends no agent (or an empty one). Globs match in place
 * and allocate nothing; regular expressions reuse one matcher per thread.
 */
public final class AgentPatterns {
    public static final AgentPatterns NONE = of(List.of());

    /** The globs, lower-cased. */
    private final String[] globs;

    private final boolean matchesNone;

    /** The regular expressions as one alternation, or null. */
    private final Pattern regex;

    private final ThreadLocal<Matcher> matchers;

    private AgentPatterns(List<String> globs, boolean matchesNone, Pattern regex) {
        this.globs = globs.toArray(String[]::new);
        this.matchesNone = matchesNone;
        this.regex = regex;
        this.matchers = regex == null ? null : ThreadLocal.withInitial(() -> regex.matcher(""));
    }

    /**
     * The patterns of {@code entries}; throws {@link IllegalArgumentException} naming the first bad
     * one and what is wrong with it.
     */
    public static AgentPatterns of(Collection<String> entries) {
        List<String> globs = new ArrayList<>();
        List<String> regexes = new ArrayList<>();
        boolean none = false;
        for (String e : entries) {
            for (int i = 0; i < e.length(); i++) {
                char c = e.charAt(i);
                if (c < 0x20 || c == 0x7f)
                    throw new IllegalArgumentException(
                            "agent pattern '" + e + "' has a control character");
            }
            if (e.length() >= 2 && e.startsWith("/") && e.endsWith("/")) {
                String r = e.substring(1, e.length() - 1);
                try {
                    Pattern.compile(r);
                } catch (PatternSyntaxException x) {
                    throw new IllegalArgumentException(
                            "agent pattern '"
                                    + e
                                    + "' is no regular expression: "
                                    + x.getDescription()
                                    + " near index "
                                    + x.getIndex());
                }
                regexes.add("(?:" + r + ")");
            } else if (e.startsWith("/") && e.length() > 1) {
                throw new IllegalArgumentException(
                        "agent pattern '"
                                + e
                                + "' starts a regular expression it does not end with /");
            } else if (e.isEmpty()) {
                none = true;
            } else {
                globs.add(lowered(e));
            }
        }
        Pattern regex =
                regexes.isEmpty()
                        ? null
                        : Pattern.compile(
                                String.join("|", regexes),
                                Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
        return new AgentPatterns(globs, none, regex);
    }

    public boolean isEmpty() {
        return globs.length == 0 && !matchesNone && regex == null;
    }

    /** Whether {@code agent} (null when the client sent none) matches one of the patterns. */
    public boolean matches(String agent) {
        if (agent == null || agent.isEmpty()) return matchesNone;
        for (String g : globs) if (glob(g, agent)) return true;
        return regex != null && matchers.get().reset(agent).find();
    }

    /**
     * Whether {@code text} matches the lower-cased glob {@code g} as a whole: the usual single
     * backtrack to the last {@code *}, linear for patterns with one star and never worse than their
     * product.
     */
    static boolean glob(String g, String text) {
        int p = 0;
        int t = 0;
        int star = -1;
        int mark = 0;
        while (t < text.length()) {
            if (p < g.length()) {
                char pc = g.charAt(p);
                if (pc == '*') {
                    star = p++;
                    mark = t;
                    continue;
                }
                if (pc == '?' || pc == lower(text.charAt(t))) {
                    p++;
                    t++;
                    continue;
                }
            }
            if (star < 0) return false;
            p = star + 1;
            t = ++mark;
        }
        while (p < g.length() && g.charAt(p) == '*') p++;
        return p == g.length();
    }

    private static String lowered(String s) {
        char[] out = new char[s.length()];
        for (int i = 0; i < out.length; i++) out[i] = lower(s.charAt(i));
        return new String(out);
    }

    private static char lower(char c) {
        return c < 0x80 ? (c >= 'A' && c <= 'Z' ? (char) (c + 32) : c) : Character.toLowerCase(c);
    }
}
