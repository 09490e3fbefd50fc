package org.groovecast.liquidsoap.engine;

import java.util.Set;
import org.groovecast.liquidsoap.eval.Env;
import org.groovecast.liquidsoap.eval.HasFields;

/**
 * {@code request.create(uri)}: a request as Liquidsoap scripts hand them around. The engine
 * resolves and plays requests from their URI, so this is the URI (what a {@code request.dynamic}
 * function answers, what a queue's {@code push} takes).
 */
record LiqRequest(String uri) implements HasFields {
    @Override
    public Object field(String name) {
        return name.equals("uri") ? uri : Env.MISSING;
    }

    @Override
    public Set<String> fieldNames() {
        return Set.of("uri");
    }

    @Override
    public String toString() {
        return "<request " + uri + ">";
    }
}
