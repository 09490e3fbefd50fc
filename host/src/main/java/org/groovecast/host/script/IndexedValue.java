package org.groovecast.host.script;

/**
 * A value of unknown type being indexed ({@code m.items[0]}, {@code parts[-1]}, {@code xs[1..2]}):
 * Groovy's static compiler compiles an index only on a type with a {@code getAt} method, so {@link
 * OperatorChecker} wraps such a value in this one, whose {@code getAt} and {@code putAt} are
 * resolved at run time as dynamic Groovy would. Compiled scripts call it, so it is public.
 */
public final class IndexedValue {
    private final Object value;

    private IndexedValue(Object value) {
        this.value = value;
    }

    /** {@code x[i]}. */
    public static IndexedValue of(Object value) {
        return new IndexedValue(value);
    }

    /** {@code x?[i]}: no value to index for a null {@code x}, so that the index is null. */
    public static IndexedValue ofNullable(Object value) {
        return value == null ? null : new IndexedValue(value);
    }

    public Object getAt(Object index) {
        return DynamicCall.invoke(value, "getAt", index);
    }

    public void putAt(Object index, Object element) {
        DynamicCall.invoke(value, "putAt", new Object[] {index, element});
    }
}
