package org.groovecast.liquidsoap.prelude;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.LiqError;
import org.groovecast.liquidsoap.eval.Parameter;
import org.groovecast.liquidsoap.eval.Rec;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;

/**
 * Liquidsoap's named UNIX sockets ({@code socket.unix.listen}, {@code socket.unix.client}: a socket
 * with {@code read}, {@code write}, their {@code wait(fn)}, {@code close}, {@code closed}),
 * internet addresses ({@code socket.internet_address.*}, {@code socket.address.*}) and {@code
 * host.of_name}. A {@code wait} callback runs on a virtual thread of its own once the socket is
 * ready (never on a clock); one that waits past its timeout is logged.
 */
final class SocketFunctions {
    private SocketFunctions() {}

    private static final String SOCKET =
            "{type : string, read : ((?timeout : float?) -> string).{wait : (?timeout : float?, () -> unit) -> unit},"
                    + " write : ((?timeout : float?, string) -> unit).{wait : (?timeout : float?, () -> unit) -> unit},"
                    + " close : () -> unit, closed : () -> bool, non_blocking : (bool) -> unit}";
    private static final String INTERNET_ADDRESS = "{is_ipv6 : bool, to_string : () -> string}";

    static void register(Library lib, Platform platform) {
        lib.function(
                "socket.unix.listen",
                "(?non_blocking : bool, string) -> " + SOCKET,
                "Listens on a named UNIX socket and waits for one client: the connection to it.",
                Map.of("non_blocking", false),
                a -> {
                    String path = a.string(1);
                    try {
                        ServerSocketChannel server =
                                ServerSocketChannel.open(StandardProtocolFamily.UNIX);
                        server.bind(UnixDomainSocketAddress.of(path), 1);
                        SocketChannel c = server.accept();
                        return socket(c, server, platform);
                    } catch (IOException e) {
                        throw Errors.of("socket", "socket.unix.listen(" + path + "): " + e);
                    }
                });
        lib.function(
                "socket.unix.client",
                "(?non_blocking : bool, string) -> " + SOCKET,
                "Connects to a named UNIX socket.",
                Map.of("non_blocking", false),
                a -> {
                    String path = a.string(1);
                    try {
                        return socket(
                                SocketChannel.open(UnixDomainSocketAddress.of(path)),
                                null,
                                platform);
                    } catch (IOException e) {
                        throw Errors.of("socket", "socket.unix.client(" + path + "): " + e);
                    }
                });
        lib.value(
                "socket.internet_address.any",
                INTERNET_ADDRESS,
                address(fixed("0.0.0.0")),
                "The IPv4 address of every interface.");
        lib.value(
                "socket.internet_address.loopback",
                INTERNET_ADDRESS,
                address(fixed("127.0.0.1")),
                "The IPv4 loopback address.");
        lib.value(
                "socket.internet_address.ipv6.any",
                INTERNET_ADDRESS,
                address(fixed("::")),
                "The IPv6 address of every interface.");
        lib.value(
                "socket.internet_address.ipv6.loopback",
                INTERNET_ADDRESS,
                address(fixed("::1")),
                "The IPv6 loopback address.");
        lib.function(
                "socket.address.internet_address",
                "(" + INTERNET_ADDRESS + ", int) -> {port : int, to_string : () -> string}",
                "A socket address: an internet address and a port.",
                a -> {
                    Map<String, Object> f = new LinkedHashMap<>();
                    long port = a.integer(1);
                    String host = text(a.get(0));
                    f.put("port", port);
                    f.put(
                            "to_string",
                            constant(
                                    host.contains(":")
                                            ? "[" + host + "]:" + port
                                            : host + ":" + port));
                    return Rec.record(f);
                });
        lib.function(
                "host.of_name",
                "(string) -> {name : string, aliases : [string], addresses : ["
                        + INTERNET_ADDRESS
                        + "]}?",
                "A host's IPv4 addresses by its name (as gethostbyname), null when it has none.",
                a -> {
                    String name = a.string(0);
                    List<Object> addresses = new ArrayList<>();
                    try {
                        for (InetAddress i : InetAddress.getAllByName(name))
                            if (!(i instanceof Inet6Address)) addresses.add(address(i));
                    } catch (UnknownHostException e) {
                        return null;
                    }
                    if (addresses.isEmpty()) return null;
                    Map<String, Object> f = new LinkedHashMap<>();
                    f.put("name", name);
                    f.put("aliases", List.of());
                    f.put("addresses", List.copyOf(addresses));
                    return Rec.record(f);
                });
    }

    private static InetAddress fixed(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }

    private static Object address(InetAddress a) {
        String text = a.getHostAddress();
        if (a instanceof Inet6Address) {
            int scope = text.indexOf('%');
            if (scope >= 0) text = text.substring(0, scope);
            text = compact(text);
        }
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("is_ipv6", a instanceof Inet6Address);
        f.put("to_string", constant(text));
        return Rec.record(f);
    }

    /** An IPv6 address as written usually: {@code ::1}, not Java's {@code 0:0:0:0:0:0:0:1}. */
    private static String compact(String full) {
        String[] parts = full.split(":");
        int bestAt = -1, bestLength = 0;
        for (int i = 0; i < parts.length; ) {
            int j = i;
            while (j < parts.length && parts[j].equals("0")) j++;
            if (j - i > bestLength) {
                bestAt = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        if (bestLength < 2) return full;
        String head = String.join(":", java.util.Arrays.copyOfRange(parts, 0, bestAt));
        String tail =
                String.join(
                        ":",
                        java.util.Arrays.copyOfRange(parts, bestAt + bestLength, parts.length));
        return head + "::" + tail;
    }

    private static String text(Object address) {
        Object f = Values.fields(address).get("to_string");
        return f instanceof Fn fn
                ? String.valueOf(Values.base(fn.call()))
                : String.valueOf(address);
    }

    private static Builtin constant(String s) {
        return Builtin.of("to_string", List.of(), a -> s);
    }

    private static Object socket(SocketChannel c, ServerSocketChannel server, Platform platform) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("type", "unix");
        Builtin read =
                Builtin.of(
                        "socket.read",
                        List.of(new Parameter("timeout", true, 10.0)),
                        a -> {
                            ByteBuffer b = ByteBuffer.allocate(65536);
                            try {
                                int n = c.read(b);
                                return n <= 0
                                        ? ""
                                        : BinaryStrings.of(java.util.Arrays.copyOf(b.array(), n));
                            } catch (IOException e) {
                                throw Errors.of("socket", "socket read: " + e);
                            }
                        });
        Builtin write =
                Builtin.of(
                        "socket.write",
                        List.of(
                                new Parameter("timeout", true, 10.0),
                                new Parameter("", false, null)),
                        a -> {
                            ByteBuffer b = ByteBuffer.wrap(BinaryStrings.bytes(a.string(1)));
                            try {
                                while (b.hasRemaining()) c.write(b);
                                return Tuple.UNIT;
                            } catch (IOException e) {
                                throw Errors.of("socket", "socket write: " + e);
                            }
                        });
        f.put("read", Rec.with(read, "wait", waiter(c, SelectionKey.OP_READ, platform)));
        f.put("write", Rec.with(write, "wait", waiter(c, SelectionKey.OP_WRITE, platform)));
        f.put(
                "close",
                Builtin.of(
                        "socket.close",
                        List.of(),
                        a -> {
                            try {
                                c.close();
                                if (server != null) server.close();
                                return Tuple.UNIT;
                            } catch (IOException e) {
                                throw Errors.of("socket", "socket close: " + e);
                            }
                        }));
        f.put("closed", Builtin.of("socket.closed", List.of(), a -> !c.isOpen()));
        // Reads and writes block the thread they run on; waits are what does not block.
        f.put(
                "non_blocking",
                Builtin.of(
                        "socket.non_blocking",
                        List.of(new Parameter("", false, null)),
                        a -> Tuple.UNIT));
        return Rec.record(f);
    }

    /** {@code wait(?timeout, fn)}: fn on a virtual thread once the socket is ready. */
    private static Builtin waiter(SocketChannel c, int op, Platform platform) {
        return Builtin.of(
                "socket.wait",
                List.of(new Parameter("timeout", true, 10.0), new Parameter("", false, null)),
                a -> {
                    Object t = Values.base(a.get(0));
                    long timeout = t instanceof Number n ? Math.round(n.doubleValue() * 1000) : 0;
                    Fn fn = a.fn(1);
                    Thread.ofVirtual()
                            .name("socket.wait")
                            .start(
                                    () -> {
                                        try {
                                            if (!ready(c, op, timeout)) {
                                                platform.log(
                                                        "socket",
                                                        2,
                                                        "timeout while waiting on the socket");
                                                return;
                                            }
                                            fn.call();
                                        } catch (IOException | LiqError e) {
                                            platform.log(
                                                    "socket",
                                                    2,
                                                    "socket callback failed: " + e.getMessage());
                                        }
                                    });
                    return Tuple.UNIT;
                });
    }

    /** Whether the channel became ready for {@code op} within {@code timeout} ms (0: no limit). */
    private static boolean ready(SocketChannel c, int op, long timeout) throws IOException {
        synchronized (c.blockingLock()) {
            try (Selector s = Selector.open()) {
                c.configureBlocking(false);
                SelectionKey key = c.register(s, op);
                int n = timeout > 0 ? s.select(timeout) : s.select();
                key.cancel();
                s.selectNow();
                return n > 0;
            } finally {
                c.configureBlocking(true);
            }
        }
    }
}
