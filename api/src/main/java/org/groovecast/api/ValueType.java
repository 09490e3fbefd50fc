package org.groovecast.api;

/** The types an operator's parameters and result can have, as scripts see them. */
public enum ValueType {
    /** One source. */
    SOURCE("source"),
    /** One or more sources: given one by one as the last positional arguments, or as one list. */
    SOURCES("sources"),
    /** An output (an active source). */
    OUTPUT("output"),
    ENCODER("encoder"),
    CLOCK("clock"),
    NUMBER("number"),
    INTEGER("integer"),
    STRING("string"),
    BOOLEAN("boolean"),
    LIST("list"),
    MAP("map"),
    /** A {@link Condition} on the clock, such as {@code time.between('22h', '6h')}. */
    CONDITION("condition"),
    /** A closure from the script, called through {@link UserFunction}. */
    FUNCTION("function"),
    /** Returns nothing. */
    NONE("nothing"),
    ANY("value");

    private final String label;

    ValueType(String label) {
        this.label = label;
    }

    /** How messages name this type: {@code fallback() expects sources}. */
    public String label() {
        return label;
    }
}
