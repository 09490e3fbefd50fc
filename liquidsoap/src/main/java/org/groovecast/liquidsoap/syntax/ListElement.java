package org.groovecast.liquidsoap.syntax;

/** An element of a list literal: a value, or {@code ...l} for all of another list's. */
public sealed interface ListElement extends Node permits ListElement.Item, ListElement.Spread {

    record Item(Expr value) implements ListElement {
        @Override
        public Span span() {
            return value.span();
        }
    }

    record Spread(Span span, Expr value) implements ListElement {}
}
