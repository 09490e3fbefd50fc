package org.groovecast.api;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A copy-on-write callback list: registration is rare and may come from any thread, dispatch
 * happens every frame on the clock's thread and must neither lock nor allocate.
 */
public final class CallbackList<T> {
    private static final Object[] NONE = new Object[0];
    private volatile Object[] items = NONE;

    public synchronized void add(T item) {
        Object[] old = items;
        Object[] grown = Arrays.copyOf(old, old.length + 1);
        grown[old.length] = item;
        items = grown;
    }

    public synchronized boolean remove(T item) {
        Object[] old = items;
        for (int i = 0; i < old.length; i++) {
            if (old[i] == item) {
                Object[] shrunk = new Object[old.length - 1];
                System.arraycopy(old, 0, shrunk, 0, i);
                System.arraycopy(old, i + 1, shrunk, i, old.length - i - 1);
                items = shrunk;
                return true;
            }
        }
        return false;
    }

    public int size() {
        return items.length;
    }

    public boolean isEmpty() {
        return items.length == 0;
    }

    /** The current items; callers iterate and must not modify. */
    public Object[] snapshot() {
        return items;
    }

    @SuppressWarnings("unchecked")
    public void forEach(Consumer<? super T> action) {
        for (Object o : items) action.accept((T) o);
    }
}
