package org.groovecast.api;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Collects the callbacks that a piece of user code registers on given sources, so that an operator
 * calling that code again and again (a switch's selection, a transition) can take back exactly what
 * each call registered. Without this every call leaves callbacks behind and the station slowly
 * burns CPU on dead closures.
 *
 * <p>The collector travels in a {@link ScopedValue}, so registrations made however deep inside the
 * user code, on the calling thread, are seen; nested scopes each collect what concerns them.
 */
public final class CallbackScope {
    private static final ScopedValue<CallbackScope> CURRENT = ScopedValue.newInstance();

    private final Set<Source> watched;
    private final CallbackScope outer;
    private final List<Registration> collected = new ArrayList<>();

    private CallbackScope(Set<Source> watched, CallbackScope outer) {
        this.watched = watched;
        this.outer = outer;
    }

    /** The value of a collecting call, and one release for everything that call registered. */
    public record Collected<T>(T value, Registration registration) implements Registration {
        @Override
        public void release() {
            registration.release();
        }
    }

    /**
     * Runs {@code body}; callbacks it registers on any of {@code sources} are gathered into the
     * returned {@link Collected#registration()}.
     */
    public static <T> Collected<T> collect(Collection<? extends Source> sources, Supplier<T> body) {
        Set<Source> watched = Collections.newSetFromMap(new IdentityHashMap<>());
        watched.addAll(sources);
        CallbackScope scope = new CallbackScope(watched, CURRENT.isBound() ? CURRENT.get() : null);
        T value = ScopedValue.where(CURRENT, scope).call(body::get);
        List<Registration> regs = List.copyOf(scope.collected);
        Registration all =
                regs.isEmpty() ? Registration.NONE : () -> regs.forEach(Registration::release);
        return new Collected<>(value, all);
    }

    /** Offers a fresh registration on {@code source} to every enclosing scope that watches it. */
    static void offer(Source source, Registration registration) {
        if (!CURRENT.isBound()) return;
        for (CallbackScope s = CURRENT.get(); s != null; s = s.outer) {
            if (s.watched.contains(source)) s.collected.add(registration);
        }
    }
}
