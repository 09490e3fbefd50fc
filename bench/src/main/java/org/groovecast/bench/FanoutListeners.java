package org.groovecast.bench;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * N HTTP listeners of {@code /radio} in one selector thread, reading and discarding: run as a
 * process of its own by HarborHttp so that their CPU is not counted as the engine's. Arguments: N
 * PORT SECONDS.
 */
public final class FanoutListeners {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int port = Integer.parseInt(args[1]);
        long end = System.nanoTime() + (long) (Double.parseDouble(args[2]) * 1e9);
        ByteBuffer request =
                ByteBuffer.wrap(
                        "GET /radio HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < n; i++) {
                SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                c.write(request.duplicate());
                c.configureBlocking(false);
                c.register(selector, SelectionKey.OP_READ);
            }
            ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
            long total = 0;
            while (System.nanoTime() < end) {
                selector.select(200);
                for (SelectionKey k : selector.selectedKeys()) {
                    buf.clear();
                    int r = ((SocketChannel) k.channel()).read(buf);
                    if (r < 0) k.cancel();
                    else total += r;
                }
                selector.selectedKeys().clear();
            }
            System.err.printf("listeners: %d connections read %.1f MB%n", n, total / 1048576.0);
        }
    }

    private FanoutListeners() {}
}
