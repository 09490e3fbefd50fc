import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many HTTP stream listeners on one selector thread, each reading and discarding. Steady listeners
 * connect once and must stay for the whole run: their disconnection is recorded as a drop and they
 * are not reconnected. Churning listeners live a random time in [minLife, maxLife] seconds, then
 * hang up and connect again at once. One thread and one shared buffer keep the load off the two
 * cores the station runs on.
 */
final class Listeners implements AutoCloseable {
    /** One listener; its counters are read by the sampler while the selector thread writes them. */
    static final class Listener {
        final String name;
        final InetSocketAddress address;
        final String path;
        final boolean steady;
        final AtomicLong bytes = new AtomicLong();
        volatile boolean connected;
        volatile String dropped;     // why a steady listener went away, or null
        SocketChannel channel;
        long deadlineNanos;          // a churner hangs up then
        final StringBuilder status = new StringBuilder();
        boolean statusChecked;
        ByteBuffer request;

        Listener(String name, InetSocketAddress address, String path, boolean steady) {
            this.name = name;
            this.address = address;
            this.path = path;
            this.steady = steady;
        }
    }

    private final List<Listener> all = new ArrayList<>();
    private final ConcurrentLinkedQueue<Listener> toConnect = new ConcurrentLinkedQueue<>();
    private final Selector selector;
    private final Random random;
    private final double minLife;
    private final double maxLife;
    private final ByteBuffer sink = ByteBuffer.allocateDirect(64 * 1024);
    private final Thread thread;
    private volatile boolean running = true;

    final AtomicLong churnConnects = new AtomicLong();
    /** A churner the server closed, or whose connection failed, before its time was up. */
    final AtomicLong churnUnexpected = new AtomicLong();
    final ConcurrentLinkedQueue<String> churnReasons = new ConcurrentLinkedQueue<>();

    Listeners(long seed, double minLife, double maxLife) throws IOException {
        this.selector = Selector.open();
        this.random = new Random(seed);
        this.minLife = minLife;
        this.maxLife = maxLife;
        this.thread = Thread.ofPlatform().name("listeners").daemon().unstarted(this::loop);
    }

    Listener add(String name, InetSocketAddress address, String path, boolean steady) {
        Listener l = new Listener(name, address, path, steady);
        all.add(l);
        return l;
    }

    /** Connects everyone, {@code perSecond} at a time, so that the start is not one burst of hundreds. */
    void start(double perSecond) {
        thread.start();
        Thread.ofPlatform().name("listeners-start").daemon().start(() -> {
            long gap = (long) (1e9 / perSecond);
            long next = System.nanoTime();
            for (Listener l : all) {
                if (!running) return;
                toConnect.add(l);
                selector.wakeup();
                next += gap;
                long wait = next - System.nanoTime();
                if (wait > 0) sleepNanos(wait);
            }
        });
    }

    private void loop() {
        long lastChurnCheck = System.nanoTime();
        while (running) {
            try {
                Listener l;
                while ((l = toConnect.poll()) != null) connect(l);
                selector.select(200);
                for (SelectionKey key : selector.selectedKeys()) handle(key);
                selector.selectedKeys().clear();
                long now = System.nanoTime();
                if (now - lastChurnCheck >= 100_000_000L) {
                    lastChurnCheck = now;
                    for (Listener c : all) {
                        if (!c.steady && c.channel != null && now - c.deadlineNanos >= 0) {
                            closeChannel(c);
                            connect(c);
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                System.err.println("listeners: " + e);
            }
        }
        for (Listener l : all) closeChannel(l);
    }

    private void connect(Listener l) {
        l.status.setLength(0);
        l.statusChecked = false;
        l.request = ByteBuffer.wrap(("GET " + l.path + " HTTP/1.0\r\nHost: " + l.address.getHostString() + "\r\n"
                + "User-Agent: groovecast-soak\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        l.deadlineNanos = System.nanoTime() + (long) ((minLife + random.nextDouble() * (maxLife - minLife)) * 1e9);
        if (!l.steady) churnConnects.incrementAndGet();
        try {
            SocketChannel ch = SocketChannel.open();
            ch.configureBlocking(false);
            l.channel = ch;
            if (ch.connect(l.address)) ch.register(selector, SelectionKey.OP_WRITE, l);
            else ch.register(selector, SelectionKey.OP_CONNECT, l);
        } catch (IOException e) {
            lost(l, "connect: " + e.getMessage());
        }
    }

    private void handle(SelectionKey key) {
        Listener l = (Listener) key.attachment();
        try {
            if (!key.isValid()) return;
            if (key.isConnectable()) {
                l.channel.finishConnect();
                key.interestOps(SelectionKey.OP_WRITE);
            }
            if (key.isValid() && key.isWritable()) {
                l.channel.write(l.request);
                if (!l.request.hasRemaining()) key.interestOps(SelectionKey.OP_READ);
            }
            if (key.isValid() && key.isReadable()) read(l);
        } catch (IOException e) {
            lost(l, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }
    }

    private void read(Listener l) throws IOException {
        int total = 0;
        int n;
        while ((n = l.channel.read(sink.clear())) > 0) {
            total += n;
            if (!l.statusChecked) checkStatus(l);
        }
        if (total > 0) {
            l.bytes.addAndGet(total);
            if (l.statusChecked) l.connected = true;
        }
        if (n < 0) lost(l, "closed by the server after " + l.bytes.get() + " bytes");
    }

    /** The status line must say 200; anything else (a full mount, a 404) is a lost connection. */
    private void checkStatus(Listener l) throws IOException {
        sink.flip();
        while (sink.hasRemaining() && l.status.length() < 200) {
            char c = (char) (sink.get() & 0xff);
            if (c == '\n') {
                l.statusChecked = true;
                String line = l.status.toString().trim();
                if (!line.matches("^(HTTP/1\\.[01]|ICY) 200\\b.*")) throw new IOException("answered " + line);
                return;
            }
            l.status.append(c);
        }
    }

    private void lost(Listener l, String why) {
        closeChannel(l);
        if (l.steady) {
            if (l.dropped == null) l.dropped = why;
            return;
        }
        churnUnexpected.incrementAndGet();
        if (churnReasons.size() < 20) churnReasons.add(l.name + ": " + why);
        // A failed churner tries again after a second, not in a tight loop against a refusing server.
        Thread.ofVirtual().start(() -> {
            sleepNanos(1_000_000_000L);
            if (running) {
                toConnect.add(l);
                selector.wakeup();
            }
        });
    }

    private static void closeChannel(Listener l) {
        l.connected = false;
        SocketChannel ch = l.channel;
        l.channel = null;
        if (ch == null) return;
        try {
            ch.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private static void sleepNanos(long nanos) {
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws IOException {
        running = false;
        selector.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        selector.close();
    }
}
