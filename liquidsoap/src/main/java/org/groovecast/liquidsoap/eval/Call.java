package org.groovecast.liquidsoap.eval;

import java.util.ArrayList;
import java.util.List;
import org.groovecast.liquidsoap.syntax.Span;

/**
 * The arguments of one application, in the order written: each with its label ({@code ""} for a
 * positional one). {@code at} is where the call is written (null for a call the engine makes).
 */
public record Call(List<String> labels, List<Object> values, Span at) {
    public static Call of(Span at, Object... positional) {
        List<String> labels = new ArrayList<>(positional.length);
        List<Object> values = new ArrayList<>(positional.length);
        for (Object v : positional) {
            labels.add("");
            values.add(v);
        }
        return new Call(labels, values, at);
    }

    public int size() {
        return labels.size();
    }

    /** A builder for calls with labels. */
    public static Builder at(Span at) {
        return new Builder(at);
    }

    public static final class Builder {
        private final Span at;
        private final List<String> labels = new ArrayList<>();
        private final List<Object> values = new ArrayList<>();

        private Builder(Span at) {
            this.at = at;
        }

        public Builder arg(Object value) {
            labels.add("");
            values.add(value);
            return this;
        }

        public Builder arg(String label, Object value) {
            labels.add(label);
            values.add(value);
            return this;
        }

        public Call build() {
            return new Call(labels, values, at);
        }
    }
}
