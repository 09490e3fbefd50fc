package org.groovecast.bench;

import java.util.List;
import java.util.Map;
import org.groovecast.api.Arguments;
import org.groovecast.api.Encoder;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.Param;
import org.groovecast.api.RequestResolver;
import org.groovecast.api.Source;
import org.groovecast.api.UserFunction;

/**
 * An operator's arguments as a benchmark gives them: the values in {@code given} (a source, a
 * uri...), every other parameter its declared default.
 */
final class DefaultArguments implements Arguments {
    private final OperatorSpec spec;
    private final Map<String, Object> given;
    private final RequestResolver requests;

    DefaultArguments(OperatorSpec spec, Map<String, Object> given, RequestResolver requests) {
        this.spec = spec;
        this.given = given;
        this.requests = requests;
    }

    DefaultArguments(OperatorSpec spec, Map<String, Object> given) {
        this(spec, given, null);
    }

    private Object raw(String name) {
        if (given.containsKey(name)) return given.get(name);
        for (Param p : spec.named()) if (p.name().equals(name)) return p.defaultValue();
        for (Param p : spec.positional()) if (p.name().equals(name)) return p.defaultValue();
        throw new IllegalArgumentException(spec.name() + "() has no parameter " + name);
    }

    @Override
    public RequestResolver requests() {
        return requests != null ? requests : Arguments.super.requests();
    }

    @Override
    public String operator() {
        return spec.name();
    }

    @Override
    public Source source(String name) {
        return (Source) raw(name);
    }

    @Override
    public List<Source> sources(String name) {
        return given.values().stream()
                .filter(Source.class::isInstance)
                .map(Source.class::cast)
                .toList();
    }

    @Override
    public double number(String name) {
        return ((Number) raw(name)).doubleValue();
    }

    @Override
    public int integer(String name) {
        return ((Number) raw(name)).intValue();
    }

    @Override
    public String string(String name) {
        return (String) raw(name);
    }

    @Override
    public boolean bool(String name) {
        return (Boolean) raw(name);
    }

    @Override
    public List<?> list(String name) {
        return (List<?>) raw(name);
    }

    @Override
    public Map<?, ?> map(String name) {
        return (Map<?, ?>) raw(name);
    }

    @Override
    public UserFunction function(String name) {
        return (UserFunction) raw(name);
    }

    @Override
    public Encoder encoder(String name) {
        return (Encoder) raw(name);
    }

    @Override
    public Object value(String name) {
        return raw(name);
    }

    @Override
    public boolean given(String name) {
        return given.containsKey(name);
    }
}
