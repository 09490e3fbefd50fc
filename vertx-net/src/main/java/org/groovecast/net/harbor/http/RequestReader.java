package org.groovecast.net.harbor.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.function.LongSupplier;
import org.groovecast.net.harbor.clients.HarborLimits;

/**
 * The request-head state machine of a harbor connection: the bytes as they arrive, read into
 * request heads and the bodies behind them, and the deadline of what the connection waits for. It
 * keeps what came after a request for the next one (pipelined requests), takes at most {@link
 * #MAX_HEAD} bytes before a head's blank line, and counts a body out by its Content-Length.
 *
 * <p>It only says what the bytes amount to ({@link Step}); answering, and the timer that calls
 * {@link #overdue}, are the connection's. No channel and a clock passed in, so that it is tested
 * alone; one per connection, and nothing allocated per read but the copy into its buffer.
 */
public final class RequestReader {
    public static final int MAX_HEAD = 16 * 1024;
    public static final ByteBuf END =
            Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(new byte[] {13, 10, 13, 10}));

    /** The clock of a connection on a real socket; a method reference, so one for all of them. */
    public static final LongSupplier SYSTEM_CLOCK = System::nanoTime;

    /** What the connection waits for now, and so what its deadline means. */
    public enum Wait {
        NONE,
        HEAD,
        IDLE,
        BODY
    }

    /** What the bytes so far hold, or what an overdue deadline comes to. */
    public enum Step {
        /** Nothing to do yet: more bytes (or the deadline) are waited for. */
        MORE,
        /** A request head, {@link #head()}: the connection dispatches it. */
        HEAD,
        /** The whole body of the head before is here: {@link #takeBody()}. */
        BODY,
        /** No request can be read: answer {@link #status()} with {@link #message()} and close. */
        REFUSED,
        /** An overdue wait that deserves no answer (nothing was sent): close. */
        QUIET
    }

    private final LongSupplier clock;
    private ByteBuf acc = Unpooled.EMPTY_BUFFER;
    private RequestHead head;
    private boolean inBody;
    private int bodyLength;
    private Wait wait = Wait.NONE;
    private long deadline;
    private int status;
    private String message;

    public RequestReader(LongSupplier clock) {
        this.clock = clock;
    }

    /**
     * Keeps the bytes of {@code in} (not released here); a byte of a body moves the body's
     * deadline, since a body is bounded by how long it stalls, not by how long it takes.
     */
    public void add(ByteBufAllocator alloc, ByteBuf in, HarborLimits limits) {
        if (acc == Unpooled.EMPTY_BUFFER) {
            acc = alloc.buffer(Math.max(512, in.readableBytes()));
        } else if (!acc.isReadable()) {
            acc.clear(); // every request so far consumed: start the buffer over rather than grow it
        } else {
            acc.discardSomeReadBytes();
        }
        acc.writeBytes(in);
        if (wait == Wait.BODY) deadline = clock.getAsLong() + limits.idleTimeoutNanos();
    }

    /**
     * The next thing the bytes hold: a head, a body, a refusal (431, 400), or {@link Step#MORE},
     * the wait then set: for the next request (idle), the rest of a begun head, or of a body.
     */
    public Step next(HarborLimits limits) {
        if (inBody) {
            if (acc.readableBytes() >= bodyLength) return Step.BODY;
            if (wait != Wait.BODY) await(Wait.BODY, limits.idleTimeoutNanos());
            return Step.MORE;
        }
        if (!acc.isReadable()) {
            if (wait != Wait.IDLE) await(Wait.IDLE, limits.idleTimeoutNanos());
            return Step.MORE;
        }
        int end = ByteBufUtil.indexOf(END, acc);
        if (end < 0) {
            if (acc.readableBytes() > MAX_HEAD) return refuse(431, "request head over 16 KiB");
            // The head timeout runs from its first byte, not from each: a slow drip is still
            // bounded.
            if (wait != Wait.HEAD) await(Wait.HEAD, limits.headTimeoutNanos());
            return Step.MORE;
        }
        if (end - acc.readerIndex() > MAX_HEAD) return refuse(431, "request head over 16 KiB");
        try {
            head = RequestHead.parse(acc, acc.readerIndex(), end);
        } catch (RequestHead.Malformed e) {
            return refuse(400, e.getMessage());
        }
        acc.readerIndex(end + 4);
        return Step.HEAD;
    }

    /**
     * The head just read is an ordinary request: its body, of Content-Length bytes (none without
     * one), is read next. False when it cannot be (400, 411 for a chunked one, 413 over {@code
     * maxBody}), {@link #status()} and {@link #message()} then saying why.
     */
    public boolean expectBody(long maxBody) {
        long length;
        try {
            length = head.contentLength();
        } catch (RequestHead.Malformed e) {
            refuse(400, e.getMessage());
            return false;
        }
        if (length < 0) {
            refuse(411, "chunked request bodies are not accepted; send a Content-Length");
            return false;
        }
        if (length > maxBody) {
            refuse(413, "request body over " + maxBody + " bytes");
            return false;
        }
        bodyLength = (int) length;
        inBody = true;
        return true;
    }

    /** The body {@link #next} said is here; the bytes after it are the next request's. */
    public byte[] takeBody() {
        byte[] body = new byte[bodyLength];
        acc.readBytes(body);
        inBody = false;
        return body;
    }

    public RequestHead head() {
        return head;
    }

    public int status() {
        return status;
    }

    public String message() {
        return message;
    }

    private Step refuse(int status, String message) {
        this.status = status;
        this.message = message;
        return Step.REFUSED;
    }

    // ---------------------------------------------------------------- deadlines

    /**
     * From now the connection has {@code nanos} for {@code what}; {@link #deadline()} says until
     * when.
     */
    public void await(Wait what, long nanos) {
        wait = what;
        deadline = clock.getAsLong() + nanos;
    }

    /**
     * Waiting for nothing the connection could be late with: a listener, a DJ, a reply being
     * streamed, the script.
     */
    public void stopWaiting() {
        wait = Wait.NONE;
    }

    public Wait waiting() {
        return wait;
    }

    public long deadline() {
        return deadline;
    }

    /**
     * What the deadline comes to now: {@link Step#MORE} when it has not passed (or nothing is
     * waited for); 408 for a begun head or a body that did not come in time; {@link Step#QUIET} for
     * a connection that sent nothing, or a keep-alive one that sent no next request.
     */
    public Step overdue(HarborLimits limits) {
        if (wait == Wait.NONE || deadline - clock.getAsLong() > 0) return Step.MORE;
        return switch (wait) {
            case HEAD ->
                    acc.isReadable()
                            ? refuse(
                                    408,
                                    "request head not complete within "
                                            + secondsText(limits.headTimeoutNanos())
                                            + " s (settings.harbor.headTimeout)")
                            : Step.QUIET;
            case BODY ->
                    refuse(
                            408,
                            "request body stalled for "
                                    + secondsText(limits.idleTimeoutNanos())
                                    + " s (settings.harbor.idleTimeout)");
            default -> Step.QUIET;
        };
    }

    public static String secondsText(long nanos) {
        double s = nanos / 1e9;
        return s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s);
    }

    // ---------------------------------------------------------------- the buffer, at hand-over and
    // close

    /** Whether bytes are kept that no request has taken yet. */
    boolean hasBytes() {
        return acc.isReadable();
    }

    /** Forgets what is kept: the connection is past reading requests. */
    public void clear() {
        acc.clear();
    }

    /**
     * The bytes kept after the head, as a retained slice (null when none), for a WebSocket's frame
     * decoder.
     */
    public ByteBuf retainedRest() {
        return acc.isReadable() ? acc.readRetainedSlice(acc.readableBytes()) : null;
    }

    /**
     * The buffer itself, whose ownership passes: a source's stream goes on in it to its live input.
     */
    public ByteBuf handOver() {
        ByteBuf rest = acc;
        acc = Unpooled.EMPTY_BUFFER;
        return rest;
    }

    /** Lets the buffer go: the connection closed. */
    public void release() {
        if (acc != Unpooled.EMPTY_BUFFER) acc.release();
        acc = Unpooled.EMPTY_BUFFER;
    }
}
