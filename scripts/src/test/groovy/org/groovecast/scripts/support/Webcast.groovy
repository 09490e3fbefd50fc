package org.groovecast.scripts.support

import com.fasterxml.jackson.databind.ObjectMapper
import java.net.http.HttpClient
import java.net.http.WebSocket
import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CompletionStage
import java.util.concurrent.TimeUnit
import javax.net.ssl.SSLContext

/**
 * Browser-DJ clients of the webcast protocol (webcast.js, AzuraCast's web DJ) for the specs:
 * {@link Client} over the JDK's WebSocket client, as a browser would speak it, and {@link Raw},
 * frames written by hand, for what no well-behaved client sends.
 */
final class Webcast {
    private static final ObjectMapper JSON = new ObjectMapper()

    private Webcast() {
    }

    /** A DJ on {@code ws://127.0.0.1:port/mount} (wss:// with {@code ssl}) with subprotocol webcast; records how the server closed it. */
    static final class Client implements WebSocket.Listener, Closeable {
        final WebSocket socket
        final CompletableFuture<List> closed = new CompletableFuture<>()
        final CompletableFuture<ByteBuffer> pong = new CompletableFuture<>()

        Client(int port, String mount = '/live', SSLContext ssl = null) {
            HttpClient http = ssl == null ? HttpClient.newHttpClient() : HttpClient.newBuilder().sslContext(ssl).build()
            socket = http.newWebSocketBuilder().subprotocols('webcast')
                    .buildAsync(URI.create("${ssl == null ? 'ws' : 'wss'}://127.0.0.1:${port}${mount}"), this).get(10, TimeUnit.SECONDS)
        }

        void hello(String mime, String user, String password) {
            text([type: 'hello', data: [mime: mime, audio: [channels: 2, samplerate: 44100, bitrate: 128, encoder: 'libmp3lame'],
                                        user: user, password: password]])
        }

        void metadata(Map m) {
            text([type: 'metadata', data: m])
        }

        void text(Map message) {
            socket.sendText(JSON.writeValueAsString(message), true).get(10, TimeUnit.SECONDS)
        }

        void binary(byte[] data, int from, int to, boolean last = true) {
            socket.sendBinary(ByteBuffer.wrap(data, from, to - from), last).get(10, TimeUnit.SECONDS)
        }

        /**
         * Sends {@code mp3} at the pace of its bitrate, in messages of 100 ms, each third one in two
         * fragments, the first 1.5 s at once: with the input's 2 s buffer, room for a test machine so loaded
         * that the sender falls behind for a while (a browser's recorder would, too).
         */
        void stream(byte[] mp3, double seconds, Closure between = null) {
            int step = (int) (mp3.length / seconds / 10)
            long start = System.nanoTime()
            int n = 0
            for (int at = 0; at < mp3.length; at += step, n++) {
                int end = Math.min(mp3.length, at + step)
                if (n % 3 == 2 && end - at > 1) {
                    int mid = at + (end - at).intdiv(2)
                    binary(mp3, at, mid, false)
                    binary(mp3, mid, end, true)
                } else {
                    binary(mp3, at, end)
                }
                between?.call(n)
                long due = start + (long) ((n + 1 - 15) * 100e6)
                long wait = due - System.nanoTime()
                if (wait > 0) Thread.sleep(wait.intdiv(1_000_000L))
            }
        }

        @Override
        CompletionStage<?> onPong(WebSocket ws, ByteBuffer message) {
            pong.complete(message)
            ws.request(1)
            null
        }

        @Override
        CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            closed.complete([statusCode, reason])
            null
        }

        @Override
        void onError(WebSocket ws, Throwable error) {
            closed.complete([-1, error.toString()])
        }

        @Override
        void close() {
            try {
                if (!socket.isOutputClosed()) socket.sendClose(WebSocket.NORMAL_CLOSURE, 'bye').get(5, TimeUnit.SECONDS)
            } catch (Exception ignored) {
            }
            socket.abort()
        }
    }

    /** A WebSocket written frame by frame on a plain socket (TLS with {@code ssl}). */
    static final class Raw implements Closeable {
        final Socket socket
        final String answer

        /** @param early bytes sent with the upgrade request, in the same write (frames a client did not wait to send) */
        Raw(int port, String mount = '/live', SSLContext ssl = null, byte[] early = null) {
            socket = ssl == null ? new Socket('127.0.0.1', port) : ssl.socketFactory.createSocket('127.0.0.1', port)
            socket.soTimeout = 10000
            def request = new ByteArrayOutputStream()
            request.write(("GET ${mount} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n" +
                    "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" +
                    "Sec-WebSocket-Protocol: webcast\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1))
            if (early != null) request.write(early)
            socket.outputStream.write(request.toByteArray())
            socket.outputStream.flush()
            def head = new StringBuilder()
            while (!head.toString().endsWith('\r\n\r\n')) {
                int c = socket.inputStream.read()
                if (c < 0) break
                head.append((char) c)
            }
            answer = head.toString()
        }

        /** A frame: FIN set unless {@code last} is false, masked unless {@code masked} is false. */
        void frame(int opcode, byte[] payload, boolean masked = true, boolean last = true) {
            write(frameBytes(opcode, payload, masked, last))
        }

        static byte[] frameBytes(int opcode, byte[] payload, boolean masked = true, boolean last = true) {
            def out = new ByteArrayOutputStream()
            out.write((last ? 0x80 : 0) | opcode)
            int m = masked ? 0x80 : 0
            if (payload.length < 126) {
                out.write(m | payload.length)
            } else if (payload.length < 65536) {
                out.write(m | 126); out.write(payload.length >> 8); out.write(payload.length & 0xff)
            } else {
                out.write(m | 127)
                for (int i = 7; i >= 0; i--) out.write((int) (((long) payload.length >> (8 * i)) & 0xff))
            }
            byte[] key = [0x12, 0x34, 0x56, 0x78] as byte[]
            if (masked) out.write(key)
            byte[] body = payload.clone()
            if (masked) for (int i = 0; i < body.length; i++) body[i] = (byte) (body[i] ^ key[i % 4])
            out.write(body)
            out.toByteArray()
        }

        void text(String s) {
            frame(1, s.getBytes(StandardCharsets.UTF_8))
        }

        void write(byte[] bytes) {
            try {
                socket.outputStream.write(bytes)
                socket.outputStream.flush()
            } catch (IOException ignored) {
                // the server may have closed already: what it answered is read next
            }
        }

        /** The close frame's status code the server sent before ending the connection (-1: it sent none). */
        int closeCode() {
            def all = new ByteArrayOutputStream()
            try {
                byte[] buf = new byte[8192]
                int n
                while ((n = socket.inputStream.read(buf)) > 0) all.write(buf, 0, n)
            } catch (IOException ignored) {
                // a reset after the close frame: what came is enough
            }
            byte[] b = all.toByteArray()
            // frames in order; the close frame (opcode 8) carries the code in its first two bytes
            int at = 0
            while (at + 2 <= b.length) {
                int op = b[at] & 0x0f
                int len = b[at + 1] & 0x7f
                int hdr = 2
                if (len == 126) { len = ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff); hdr = 4 }
                if (op == 8) return len >= 2 ? ((b[at + hdr] & 0xff) << 8) | (b[at + hdr + 1] & 0xff) : 1005
                at += hdr + len
            }
            -1
        }

        @Override
        void close() {
            socket.close()
        }
    }
}
