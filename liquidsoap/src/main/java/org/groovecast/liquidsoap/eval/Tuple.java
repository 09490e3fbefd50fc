package org.groovecast.liquidsoap.eval;

import java.util.Arrays;

/** A tuple value, {@code (1, "a")}; the empty one is unit, {@code ()}. */
public final class Tuple {
    public static final Tuple UNIT = new Tuple(new Object[0]);

    private final Object[] items;

    private Tuple(Object[] items) {
        this.items = items;
    }

    public static Tuple of(Object... items) {
        return items.length == 0 ? UNIT : new Tuple(items.clone());
    }

    public int size() {
        return items.length;
    }

    public Object get(int i) {
        return items[i];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Tuple t && Arrays.equals(items, t.items);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(items);
    }

    @Override
    public String toString() {
        return Show.value(this);
    }
}
