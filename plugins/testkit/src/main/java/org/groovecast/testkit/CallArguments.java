package org.groovecast.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.groovecast.api.Arguments;
import org.groovecast.api.Encoder;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.Param;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.groovecast.api.ValueType;

/**
 * The arguments of one {@link OperatorCall}, matched against the spec and converted as the host's
 * binding does.
 *
 * <p>A second implementation of the host's {@code BoundArguments}, on purpose: the kit depends on
 * the api only, so that a plugin's tests do not pull in the engine, and the typed accessors of
 * {@link Arguments} cannot become shared defaults without an incompatible api change (japicmp
 * refuses abstract methods turned default, as a class implementing two such interfaces would no
 * longer compile).
 */
final class CallArguments implements Arguments {
    private final OperatorSpec spec;
    private final Map<String, Object> values = new HashMap<>();
    private final Set<String> given = new HashSet<>();
    private String id;

    private CallArguments(OperatorSpec spec) {
        this.spec = spec;
    }

    static CallArguments bind(OperatorSpec spec, Map<String, ?> named, Object[] positional) {
        CallArguments a = new CallArguments(spec);
        String op = spec.name() + "()";
        for (Map.Entry<String, ?> e : named.entrySet()) {
            String key = e.getKey();
            if (key.equals("id") && spec.namedParam("id").isEmpty()) {
                a.id = String.valueOf(e.getValue());
                continue;
            }
            Param p =
                    spec.namedParam(key)
                            .orElseThrow(
                                    () ->
                                            new IllegalArgumentException(
                                                    op + " has no parameter " + key + ":"));
            a.put(p, e.getValue());
        }
        List<Object> pos = new ArrayList<>(Arrays.asList(positional));
        List<Param> params = new ArrayList<>(spec.positional());
        if (!params.isEmpty()
                && params.getLast().type() == ValueType.FUNCTION
                && !pos.isEmpty()
                && pos.getLast() instanceof UserFunction) {
            a.put(params.removeLast(), pos.removeLast());
        }
        int next = 0;
        for (Param p : params) {
            if (p.type() == ValueType.SOURCES) {
                List<Object> rest = new ArrayList<>(pos.subList(next, pos.size()));
                next = pos.size();
                if (rest.size() == 1 && rest.getFirst() instanceof List<?> list)
                    rest = new ArrayList<>(list);
                if (rest.isEmpty()) {
                    if (p.required())
                        throw new IllegalArgumentException(op + " needs at least one source");
                    continue;
                }
                a.put(p, rest);
            } else if (next < pos.size()) {
                a.put(p, pos.get(next++));
            } else if (p.required()) {
                throw new IllegalArgumentException(
                        op
                                + " is missing its "
                                + p.name()
                                + " argument ("
                                + p.type().label()
                                + ")");
            }
        }
        if (next < pos.size()) {
            throw new IllegalArgumentException(
                    op
                            + " takes at most "
                            + spec.positional().size()
                            + " positional arguments, got "
                            + pos.size());
        }
        for (Param p : spec.positional()) a.values.putIfAbsent(p.name(), p.defaultValue());
        for (Param p : spec.named()) {
            if (p.required() && !a.given.contains(p.name())) {
                throw new IllegalArgumentException(
                        op + " needs " + p.name() + ": (" + p.type().label() + ")");
            }
            a.values.putIfAbsent(p.name(), p.defaultValue());
        }
        return a;
    }

    private void put(Param p, Object v) {
        values.put(p.name(), convert(p, v));
        given.add(p.name());
    }

    private Object convert(Param p, Object v) {
        if (v == null) return null;
        Object converted =
                switch (p.type()) {
                    case NUMBER -> v instanceof Number n ? n.doubleValue() : null;
                    case INTEGER ->
                            v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())
                                    ? n.intValue()
                                    : null;
                    case STRING -> v instanceof CharSequence s ? s.toString() : null;
                    case BOOLEAN -> v instanceof Boolean ? v : null;
                    case SOURCE, OUTPUT -> v instanceof Source ? v : null;
                    case SOURCES -> sources(v);
                    case FUNCTION -> v instanceof UserFunction ? v : null;
                    case ENCODER -> v instanceof Encoder ? v : null;
                    case LIST ->
                            v instanceof Object[] array
                                    ? List.of(array)
                                    : v instanceof List<?> ? v : null;
                    case MAP -> v instanceof Map<?, ?> ? v : null;
                    default -> v;
                };
        if (converted == null) {
            throw new IllegalArgumentException(
                    spec.name()
                            + "() expects "
                            + p.type().label()
                            + " for "
                            + p.name()
                            + ", got "
                            + v.getClass().getSimpleName()
                            + " "
                            + v);
        }
        return converted;
    }

    private static List<Source> sources(Object v) {
        List<Source> out = new ArrayList<>();
        for (Object x : (List<?>) v) {
            if (!(x instanceof Source s)) return null;
            out.add(s);
        }
        return List.copyOf(out);
    }

    /** The {@code id:} given, or null. */
    String id() {
        return id;
    }

    private Object require(String name) {
        if (!values.containsKey(name))
            throw new IllegalArgumentException(spec.name() + "() declares no parameter " + name);
        return values.get(name);
    }

    @Override
    public String operator() {
        return spec.name();
    }

    @Override
    public Source source(String name) {
        return (Source) require(name);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<Source> sources(String name) {
        Object v = require(name);
        return v == null ? List.of() : (List<Source>) v;
    }

    @Override
    public double number(String name) {
        return ((Number) require(name)).doubleValue();
    }

    @Override
    public int integer(String name) {
        return ((Number) require(name)).intValue();
    }

    @Override
    public String string(String name) {
        Object v = require(name);
        return v == null ? null : v.toString();
    }

    @Override
    public boolean bool(String name) {
        return Boolean.TRUE.equals(require(name));
    }

    @Override
    public List<?> list(String name) {
        return (List<?>) require(name);
    }

    @Override
    public Map<?, ?> map(String name) {
        return (Map<?, ?>) require(name);
    }

    @Override
    public UserFunction function(String name) {
        return (UserFunction) require(name);
    }

    @Override
    public Encoder encoder(String name) {
        return (Encoder) require(name);
    }

    @Override
    public Object value(String name) {
        return require(name);
    }

    @Override
    public boolean given(String name) {
        require(name);
        return given.contains(name);
    }
}
