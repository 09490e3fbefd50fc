package org.groovecast.testkit;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.Source;

/**
 * Builds an operator from its {@link OperatorSpec} the way a station script calls it, so that a
 * test goes through the declared parameters, their defaults and the factory's own checks: {@code
 * OperatorCall.source(new MyOperators(), "reverb", Map.of("room", 0.8), input)} is the script's
 * {@code reverb(input, room: 0.8)}.
 *
 * <p>Positional arguments fill the positional parameters in order; a {@code sources} parameter
 * takes the remaining ones (or one list of them), and a trailing function parameter the last
 * argument when it is a {@link org.groovecast.api.UserFunction} (a lambda). Named arguments go by
 * name; {@code id} sets the id of a source that declares no {@code id} parameter. Numbers are
 * converted as scripts convert them (an integer where a number is declared is fine). What a script
 * compiler would refuse (an unknown name, a missing argument, a wrong type) is an {@link
 * IllegalArgumentException} here; what the factory refuses stays its {@link
 * org.groovecast.api.ScriptException}.
 */
public final class OperatorCall {
    private OperatorCall() {}

    /** The operator named {@code name} among the providers' declarations. */
    public static OperatorSpec find(String name, OperatorProvider... providers) {
        for (OperatorProvider p : providers) {
            for (OperatorSpec spec : p.operators()) {
                if (spec.name().equals(name)) return spec;
            }
        }
        throw new IllegalArgumentException(
                "no operator "
                        + name
                        + " in "
                        + Arrays.stream(providers)
                                .map(p -> p.getClass().getSimpleName())
                                .collect(Collectors.joining(", ")));
    }

    /**
     * Calls {@code spec}'s factory with the arguments bound as a script's call binds them; returns
     * what it made.
     */
    public static Object call(OperatorSpec spec, Map<String, ?> named, Object... positional) {
        CallArguments args = CallArguments.bind(spec, named, positional);
        Object made = spec.factory().create(args);
        if (args.id() != null && made instanceof Source s) s.setId(args.id());
        return made;
    }

    /** Finds {@code name} in {@code provider}, calls it, and returns the source it made. */
    public static Source source(
            OperatorProvider provider, String name, Map<String, ?> named, Object... positional) {
        Object made = call(find(name, provider), named, positional);
        if (!(made instanceof Source s))
            throw new IllegalArgumentException(name + "() made " + made + ", not a source");
        return s;
    }
}
