package org.groovecast.host.status;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * The status page's Server-Sent Events, as the body of one streamed reply: the whole picture with
 * the clocks' ten-minute traces first, then the current figures every {@link #PERIOD_MILLIS}. It is
 * read by the harbor's streaming thread (a virtual one), so waiting here blocks nothing; it ends
 * when its station stops, and the browser's EventSource reconnects to the station on air.
 */
final class EventStream extends InputStream {
    /** Twice a second: a skip shows on the page well within the two seconds people notice. */
    static final long PERIOD_MILLIS = 500;

    private final StationStatus status;
    private final Supplier<String> whole;
    private final Supplier<String> current;
    private byte[] pending;
    private int at;
    private boolean started;
    private long next;

    /**
     * @param whole the picture with the traces, shared by the pages that open within a second
     * @param current the figures without traces, shared by every page
     */
    EventStream(StationStatus status, Supplier<String> whole, Supplier<String> current) {
        this.status = status;
        this.whole = whole;
        this.current = current;
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) return 0;
        if (pending == null || at == pending.length) {
            String event = nextEvent();
            if (event == null) return -1;
            pending = event.getBytes(StandardCharsets.UTF_8);
            at = 0;
        }
        int n = Math.min(len, pending.length - at);
        System.arraycopy(pending, at, b, off, n);
        at += n;
        return n;
    }

    private String nextEvent() {
        if (!started) {
            started = true;
            next = System.currentTimeMillis() + PERIOD_MILLIS;
            // The first event carries the traces, so a page opened late plots the whole window at
            // once.
            return "retry: 2000\nevent: full\ndata: " + whole.get() + "\n\n";
        }
        long wait = next - System.currentTimeMillis();
        if (wait > 0) {
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        // A client that could not take the last ones gets the next figures on time, not a burst of
        // old ones.
        next = Math.max(next + PERIOD_MILLIS, System.currentTimeMillis());
        if (status.isReleased()) return null;
        return "data: " + current.get() + "\n\n";
    }
}
