package org.groovecast.host.request;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.groovecast.api.Metadata;
import org.groovecast.api.Registration;
import org.groovecast.api.UserFunction;

/**
 * A station's file metadata resolvers ({@code decoder.metadata.add}): script functions asked, as a
 * file is about to play, for metadata to add to its track, in the order added, each seeing what the
 * ones before it gave. A function that fails (the host's functions log it) or answers something
 * other than a map adds nothing.
 */
final class MetadataResolvers {
    private record Resolver(String name, UserFunction function) {}

    private final List<Resolver> resolvers = new CopyOnWriteArrayList<>();

    /** Adds {@code function}, {@code { file, metadata -> [key: value] }}, under {@code name}. */
    Registration add(String name, UserFunction function) {
        Resolver r = new Resolver(name, function);
        resolvers.add(r);
        return () -> resolvers.remove(r);
    }

    /** What the resolvers add to {@code metadata} for {@code file}; blocking. */
    Metadata apply(String file, Metadata metadata) {
        if (resolvers.isEmpty()) return Metadata.EMPTY;
        Map<String, String> added = new LinkedHashMap<>();
        Metadata seen = metadata;
        for (Resolver r : resolvers) {
            if (r.function().callOr(null, file, seen) instanceof Map<?, ?> m && !m.isEmpty()) {
                m.forEach((k, v) -> added.put(String.valueOf(k), String.valueOf(v)));
                seen = metadata.with(added);
            }
        }
        return Metadata.of(added);
    }
}
