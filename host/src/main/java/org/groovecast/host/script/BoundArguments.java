package org.groovecast.host.script;

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
import org.groovecast.api.RequestResolver;
import org.groovecast.api.ScriptException;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;
import org.groovecast.api.ValueType;

/** The arguments of one call, matched against the spec and converted, as operators read them. */
final class BoundArguments implements Arguments {
    private final String operator;
    private final Map<String, Object> values = new HashMap<>();
    private final Set<String> given = new HashSet<>();
    private final String id;
    private final RequestResolver requests;

    private BoundArguments(String operator, String id, RequestResolver requests) {
        this.operator = operator;
        this.id = id;
        this.requests = requests;
    }

    /** Matches and converts; throws a {@link ScriptException} listing what is wrong. */
    static BoundArguments bind(
            OperatorSpec spec, Source receiver, Object[] raw, RequestResolver requests) {
        List<RuntimeArg> args = Arrays.stream(raw).map(RuntimeArg::new).toList();
        CallMatcher.Match<RuntimeArg> m =
                CallMatcher.match(spec, receiver == null ? null : new RuntimeArg(receiver), args);
        if (!m.errors().isEmpty()) throw new ScriptException(String.join("; ", m.errors()));
        BoundArguments b =
                new BoundArguments(
                        spec.name(),
                        m.id() == null ? null : String.valueOf(m.id().value()),
                        requests);
        for (Param p : spec.positional()) b.put(p, m.assigned().get(p.name()));
        for (Param p : spec.named()) b.put(p, m.assigned().get(p.name()));
        return b;
    }

    private void put(Param p, Object matched) {
        if (matched == null) {
            values.put(p.name(), p.defaultValue());
            return;
        }
        given.add(p.name());
        if (matched instanceof List<?> list && p.type() == ValueType.SOURCES) {
            values.put(
                    p.name(), list.stream().map(a -> (Source) ((RuntimeArg) a).value()).toList());
        } else if (p.type() == ValueType.SOURCES) {
            values.put(
                    p.name(),
                    ((List<?>) ((RuntimeArg) matched).value())
                            .stream().map(x -> (Source) x).toList());
        } else {
            values.put(p.name(), Values.convert(p.type(), ((RuntimeArg) matched).value()));
        }
    }

    /** The {@code id:} the script gave, or null. */
    String id() {
        return id;
    }

    @Override
    public String operator() {
        return operator;
    }

    private Object require(String name) {
        if (!values.containsKey(name))
            throw new IllegalArgumentException(operator + "() declares no parameter " + name);
        return values.get(name);
    }

    @Override
    public Source source(String name) {
        return (Source) require(name);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<Source> sources(String name) {
        return (List<Source>) require(name);
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
    public RequestResolver requests() {
        if (requests == null) return Arguments.super.requests();
        return requests;
    }

    @Override
    public boolean given(String name) {
        require(name);
        return given.contains(name);
    }
}
