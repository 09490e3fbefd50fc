package org.groovecast.liquidsoap.engine;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.groovecast.api.Metadata;
import org.groovecast.api.UserFunction;

/**
 * A callback registered with {@code synchronous=false} ({@code s.on_metadata(synchronous=false,
 * f)}): the clock only queues the call, and a virtual thread runs the queued calls in the order
 * they came, one at a time, so that {@code f} may wait (AzuraCast's feedback is an {@code
 * http.post}) without holding the clock, as Liquidsoap runs such handlers on its scheduler's
 * threads.
 */
final class OffClock implements Consumer<Metadata> {
    private final UserFunction f;
    private final ConcurrentLinkedQueue<Metadata> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();

    OffClock(UserFunction f) {
        this.f = f;
    }

    @Override
    public void accept(Metadata m) {
        pending.add(m);
        if (draining.compareAndSet(false, true)) Thread.startVirtualThread(this::drain);
    }

    private void drain() {
        do {
            Metadata m;
            // f logs its own failures once per episode and answers null; nothing escapes here
            while ((m = pending.poll()) != null) f.call(m);
            draining.set(false);
        } while (!pending.isEmpty() && draining.compareAndSet(false, true));
    }
}
