package org.groovecast.host.service;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A listening unix datagram socket, what systemd binds as {@code $NOTIFY_SOCKET}: bound to a path
 * or an abstract name, it hands back each datagram it receives as text.
 */
final class DatagramListener implements AutoCloseable {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle SOCKET =
            handle("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle BIND =
            handle("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle RECV =
            handle(
                    "recv",
                    FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    private static final MethodHandle CLOSE =
            handle("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final int MSG_DONTWAIT = 0x40;

    private final int fd;

    /** Binds a new socket to {@code name}: a path, or {@code @name}. */
    DatagramListener(String name) throws Throwable {
        fd = (int) SOCKET.invokeExact(1, 2, 0); // AF_UNIX, SOCK_DGRAM
        if (fd < 0) throw new IllegalStateException("socket() failed");
        byte[] address = SystemdNotify.sockaddr(name);
        try (Arena arena = Arena.ofConfined()) {
            int r =
                    (int)
                            BIND.invokeExact(
                                    fd, arena.allocateFrom(JAVA_BYTE, address), address.length);
            if (r != 0) throw new IllegalStateException("bind(" + name + ") failed");
        }
    }

    /** The next datagram, or null if none came within {@code timeout}. */
    String receive(Duration timeout) throws Throwable {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(4096);
            while (true) {
                long n = (long) RECV.invokeExact(fd, buf, 4096L, MSG_DONTWAIT);
                if (n >= 0)
                    return new String(buf.asSlice(0, n).toArray(JAVA_BYTE), StandardCharsets.UTF_8);
                if (System.nanoTime() > deadline) return null;
                Thread.sleep(5);
            }
        }
    }

    @Override
    public void close() throws Exception {
        try {
            int ignored = (int) CLOSE.invokeExact(fd);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static MethodHandle handle(String name, FunctionDescriptor d) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), d);
    }
}
