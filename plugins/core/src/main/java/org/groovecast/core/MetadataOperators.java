package org.groovecast.core;

import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.FUNCTION;
import static org.groovecast.api.ValueType.SOURCE;

import java.util.List;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.pf4j.Extension;

/** Operators on track metadata. */
@Extension
public final class MetadataOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("metadata.map")
                        .doc(
                                "Rewrites each metadata: metadata.map(s) { m -> [title: m.title.toUpperCase()] }.")
                        .named(
                                "update",
                                BOOLEAN,
                                true,
                                "merge the result into the metadata instead of replacing it")
                        .named("strip", BOOLEAN, false, "remove entries whose value is empty")
                        .positional("source", SOURCE, "the source")
                        .positional("mapper", FUNCTION, "metadata -> map of changes")
                        .calls("the metadata")
                        .create(
                                a ->
                                        new MetadataMap(
                                                a.source("source"),
                                                a.function("mapper"),
                                                a.bool("update"),
                                                a.bool("strip"))));
    }
}
