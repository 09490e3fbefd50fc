package org.groovecast.host.script;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.groovecast.api.Bounds;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.Param;
import org.groovecast.api.ValueType;

/**
 * Matches the arguments of a call against an {@link OperatorSpec}: a leading map is the named
 * arguments, a trailing closure fills a trailing function parameter, a {@code sources} parameter
 * takes the remaining sources (or one list of them). Problems come back as messages that read like
 * {@code fallback() expects sources, got String "music"}.
 */
final class CallMatcher {
    /** The outcome: argument per parameter name, the {@code id:} if any, and the problems found. */
    record Match<A extends Arg>(Map<String, Object> assigned, A id, List<String> errors) {}

    private CallMatcher() {}

    /**
     * @param receiver the source a method-style call was made on ({@code s.tracks(...)}), or null
     * @return parameter name to {@code A}, or to {@code List<A>} for a {@code sources} parameter
     */
    static <A extends Arg> Match<A> match(OperatorSpec spec, A receiver, List<A> args) {
        String op = spec.name() + "()";
        List<String> errors = new ArrayList<>();
        Map<String, Object> assigned = new LinkedHashMap<>();
        List<A> pos = new ArrayList<>();
        if (receiver != null) pos.add(receiver);
        int start = 0;
        A id = null;
        if (!args.isEmpty() && isNamedArguments(spec, args.getFirst())) {
            start = 1;
            for (Map.Entry<String, ? extends Arg> e : args.getFirst().entries().entrySet()) {
                String key = e.getKey();
                @SuppressWarnings("unchecked")
                A value = (A) e.getValue();
                if (key.equals("id") && spec.namedParam("id").isEmpty()) {
                    id = value;
                    if (Boolean.FALSE.equals(value.fits(ValueType.STRING))) {
                        errors.add(op + " expects a string for id:, got " + value.describe());
                    }
                    continue;
                }
                Param p = spec.namedParam(key).orElse(null);
                if (p == null) {
                    errors.add(op + " has no parameter " + key + ":" + namedList(spec));
                    continue;
                }
                check(spec, p, value, errors);
                assigned.put(key, value);
            }
        }
        for (int i = start; i < args.size(); i++) pos.add(args.get(i));

        List<Param> params = new ArrayList<>(spec.positional());
        if (!params.isEmpty()
                && params.getLast().type() == ValueType.FUNCTION
                && !pos.isEmpty()
                && pos.getLast().isFunction()) {
            Param f = params.removeLast();
            A closure = pos.removeLast();
            check(spec, f, closure, errors);
            assigned.put(f.name(), closure);
        }
        int next = 0;
        for (Param p : params) {
            if (p.type() == ValueType.SOURCES) {
                List<A> sources = sourcesFrom(pos.subList(next, pos.size()));
                next = pos.size();
                if (sources == null) {
                    assigned.put(p.name(), pos.subList(pos.size() - 1, pos.size()).getFirst());
                    continue; // a list whose elements only run time knows
                }
                for (A s : sources) {
                    if (Boolean.FALSE.equals(s.fits(ValueType.SOURCE))) {
                        errors.add(op + " expects sources, got " + s.describe());
                    }
                }
                if (sources.isEmpty() && p.required())
                    errors.add(op + " needs at least one source");
                assigned.put(p.name(), sources);
            } else if (next < pos.size()) {
                A a = pos.get(next++);
                check(spec, p, a, errors);
                assigned.put(p.name(), a);
            } else if (p.required()) {
                errors.add(
                        op
                                + " is missing its "
                                + p.name()
                                + " argument ("
                                + article(p.type())
                                + ")");
            }
        }
        if (next < pos.size()) {
            int max = spec.positional().size();
            errors.add(
                    op
                            + " takes "
                            + (max == 0 ? "no" : "at most " + max)
                            + " positional argument"
                            + (max == 1 ? "" : "s")
                            + ", got "
                            + pos.size()
                            + " ("
                            + pos.get(next).describe()
                            + " is one too many)");
        }
        for (Param p : spec.named()) {
            if (p.required() && !assigned.containsKey(p.name())) {
                errors.add(op + " needs " + p.name() + ": (" + article(p.type()) + ")");
            }
        }
        return new Match<>(assigned, id, errors);
    }

    /**
     * A leading map is named arguments unless the first positional parameter takes a map and the
     * map has a key that is no option ({@code log.info(title: t)} logs the map): the compiler gives
     * a map value at the call site ({@code f([a: 1])}, {@code f(m)}) no entries, or named arguments
     * of its own before it (see {@link NamedArgumentSyntax}), so this reads Groovy's named
     * arguments and calls made at run time.
     */
    private static boolean isNamedArguments(OperatorSpec spec, Arg first) {
        if (first.entries() == null) return false;
        if (spec.positional().isEmpty()) return true;
        ValueType t = spec.positional().getFirst().type();
        if (t != ValueType.MAP && t != ValueType.ANY) return true;
        boolean makesSource =
                spec.returns() == ValueType.SOURCE || spec.returns() == ValueType.OUTPUT;
        return first.entries().keySet().stream()
                .allMatch(k -> k.equals("id") && makesSource || spec.namedParam(k).isPresent());
    }

    /** The sources given one by one or as one list; {@code null} for a list of unknown content. */
    @SuppressWarnings("unchecked")
    private static <A extends Arg> List<A> sourcesFrom(List<A> rest) {
        if (rest.size() == 1 && !Boolean.TRUE.equals(rest.getFirst().fits(ValueType.SOURCE))) {
            A only = rest.getFirst();
            if (only.elements() != null) return new ArrayList<>((List<A>) only.elements());
            if (Boolean.TRUE.equals(only.fits(ValueType.LIST))) return null;
        }
        return new ArrayList<>(rest);
    }

    /** A 32-bit integer's values: an integer parameter takes no other. */
    private static final Bounds INT = new Bounds(Integer.MIN_VALUE, Integer.MAX_VALUE);

    private static void check(OperatorSpec spec, Param p, Arg a, List<String> errors) {
        String op = spec.name() + "()";
        if (Boolean.FALSE.equals(a.fits(p.type()))) {
            String where = p.type() == ValueType.SOURCES ? "" : " for " + p.name();
            errors.add(op + " expects " + article(p.type()) + where + ", got " + a.describe());
            return;
        }
        Double n = a.number();
        if (n != null && (p.type() == ValueType.NUMBER || p.type() == ValueType.INTEGER)) {
            Bounds b = spec.range(p.name()).orElse(p.type() == ValueType.INTEGER ? INT : null);
            if (b != null && !b.contains(n)) {
                errors.add(
                        op
                                + " takes "
                                + p.name()
                                + " "
                                + b
                                + (b == INT ? " (a 32-bit integer)" : "")
                                + ", got "
                                + a.describe());
            }
        }
        Function<Object, String> problem = spec.check(p.name()).orElse(null);
        Object known = problem == null ? null : a.known();
        if (known != null) {
            String wrong = problem.apply(known);
            if (wrong != null) errors.add(op + " " + p.name() + ": " + wrong);
        }
        if (p.type() == ValueType.FUNCTION) {
            int[] takes = a.takes();
            List<String> passed = spec.calls(p.name()).orElse(null);
            if (takes != null && passed != null) {
                int count = passed.size();
                if (count < takes[0] || count > takes[1]) {
                    errors.add(op + ": " + FunctionArity.mismatch(p.name(), passed, takes));
                }
            }
        }
    }

    static String article(ValueType t) {
        String l = t.label();
        return switch (t) {
            case SOURCES -> l;
            case ENCODER, INTEGER, OUTPUT -> "an " + l;
            default -> "a " + l;
        };
    }

    private static String namedList(OperatorSpec spec) {
        if (spec.named().isEmpty()) return " (it takes no named arguments)";
        return " (it takes "
                + spec.named().stream().map(p -> p.name() + ":").collect(Collectors.joining(", "))
                + ")";
    }
}
