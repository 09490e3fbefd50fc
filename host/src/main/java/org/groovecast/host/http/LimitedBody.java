package org.groovecast.host.http;

import java.io.IOException;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read into memory, but never more than a limit: a server that answers with
 * gigabytes (a stream URL given by mistake, a misbehaving API) fails the call instead of taking the
 * engine's heap.
 */
final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
    private final HttpResponse.BodySubscriber<byte[]> bytes =
            HttpResponse.BodySubscribers.ofByteArray();
    private final long limit;
    private Flow.Subscription subscription;
    private long received;
    private boolean failed;

    private LimitedBody(long limit) {
        this.limit = limit;
    }

    /**
     * The body as text, decoded with its Content-Type's charset (UTF-8 when it names none or an
     * unknown one).
     */
    static HttpResponse.BodyHandler<String> text(long limit) {
        return info ->
                HttpResponse.BodySubscribers.mapping(
                        new LimitedBody(limit), b -> new String(b, charset(info.headers())));
    }

    static Charset charset(HttpHeaders headers) {
        String type = headers.firstValue("content-type").orElse("");
        int at = type.toLowerCase(Locale.ROOT).indexOf("charset=");
        if (at < 0) return StandardCharsets.UTF_8;
        String name =
                type.substring(at + "charset=".length()).split(";", 2)[0].strip().replace("\"", "");
        try {
            return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            return StandardCharsets.UTF_8;
        }
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return bytes.getBody();
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        bytes.onSubscribe(s);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (failed) return;
        for (ByteBuffer b : items) received += b.remaining();
        if (received > limit) {
            failed = true;
            subscription.cancel();
            bytes.onError(
                    new IOException("the response body is larger than " + (limit >> 20) + " MiB"));
            return;
        }
        bytes.onNext(items);
    }

    @Override
    public void onError(Throwable t) {
        if (!failed) bytes.onError(t);
    }

    @Override
    public void onComplete() {
        if (!failed) bytes.onComplete();
    }
}
