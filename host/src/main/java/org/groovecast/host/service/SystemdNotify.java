package org.groovecast.host.service;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the service manager how the service is, as {@code sd_notify(3)} does: one datagram per
 * state ({@code READY=1}, {@code WATCHDOG=1}, {@code STATUS=...}, {@code STOPPING=1}) to the unix
 * socket named by {@code $NOTIFY_SOCKET} (a path, or {@code @name} in the abstract namespace).
 *
 * <p>Sent through libc with the FFM API: java.nio's unix-domain channels are stream sockets only,
 * and Netty's epoll {@code DomainDatagramChannel}, which could send it, needs an event loop and a
 * channel set up for three short messages. The socket is {@code SOCK_CLOEXEC} and each send {@code
 * MSG_DONTWAIT}: a manager slow to read loses a ping rather than stall the thread sending it.
 */
public final class SystemdNotify implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SystemdNotify.class);

    private static final int AF_UNIX = 1;
    private static final int SOCK_DGRAM = 2;
    private static final int SOCK_CLOEXEC = 0x80000;
    private static final int MSG_DONTWAIT = 0x40;
    private static final int MSG_NOSIGNAL = 0x4000;

    /** The size of {@code sockaddr_un.sun_path}, after the address's 2-byte family. */
    private static final int SUN_PATH = 108;

    private final String socketName;
    private final byte[] address;
    private int fd;

    private SystemdNotify(String socketName, byte[] address, int fd) {
        this.socketName = socketName;
        this.address = address;
        this.fd = fd;
    }

    /**
     * The notifier of {@code $NOTIFY_SOCKET} in {@code env}, or null when the process runs under no
     * manager that listens (the variable unset or empty), or on a socket it cannot use (logged).
     */
    public static SystemdNotify fromEnvironment(Map<String, String> env) {
        String name = env.get("NOTIFY_SOCKET");
        if (name == null || name.isEmpty()) return null;
        try {
            return open(name);
        } catch (RuntimeException | LinkageError e) {
            log.warn("NOTIFY_SOCKET={}: {}; the service manager is not told", name, e.getMessage());
            return null;
        }
    }

    /** A notifier of the socket {@code name}: a path, or {@code @name} (abstract). */
    public static SystemdNotify open(String name) {
        byte[] address = sockaddr(name);
        int fd;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(Libc.ERRNO_STATE);
            fd = (int) Libc.SOCKET.invokeExact(state, AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
            if (fd < 0) throw new IllegalStateException("socket(): errno " + Libc.errno(state));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        return new SystemdNotify(name, address, fd);
    }

    /**
     * {@code struct sockaddr_un} for {@code name}, as long as it needs to be: family, path and its
     * NUL; for an abstract name a leading NUL and no trailing one (the length delimits it).
     */
    static byte[] sockaddr(String name) {
        boolean abstractName = name.startsWith("@");
        if (!abstractName && !name.startsWith("/"))
            throw new IllegalArgumentException(
                    "not a unix socket (an absolute path or @name): " + name);
        byte[] path = (abstractName ? name.substring(1) : name).getBytes(StandardCharsets.UTF_8);
        int pathBytes = path.length + 1; // the leading NUL (abstract) or the trailing one
        if (pathBytes > SUN_PATH)
            throw new IllegalArgumentException("a socket name longer than " + SUN_PATH + " bytes");
        byte[] a = new byte[2 + pathBytes];
        a[0] = (byte) AF_UNIX; // sa_family_t, little-endian on the platforms the natives ship for
        System.arraycopy(path, 0, a, abstractName ? 3 : 2, path.length);
        return a;
    }

    /**
     * Sends {@code state} (lines of {@code KEY=VALUE}); false, logged, when it could not be sent.
     */
    public synchronized boolean send(String state) {
        if (fd < 0) return false;
        byte[] message = state.getBytes(StandardCharsets.UTF_8);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = arena.allocate(Libc.ERRNO_STATE);
            MemorySegment buf = arena.allocateFrom(JAVA_BYTE, message);
            MemorySegment to = arena.allocateFrom(JAVA_BYTE, address);
            long sent =
                    (long)
                            Libc.SENDTO.invokeExact(
                                    errno,
                                    fd,
                                    buf,
                                    (long) message.length,
                                    MSG_DONTWAIT | MSG_NOSIGNAL,
                                    to,
                                    address.length);
            if (sent == message.length) return true;
            log.warn(
                    "NOTIFY_SOCKET={}: sending {} failed (errno {})",
                    socketName,
                    state.lines().findFirst().orElse(""),
                    Libc.errno(errno));
            return false;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public synchronized void close() {
        if (fd < 0) return;
        try {
            int ignored = (int) Libc.CLOSE.invokeExact(fd);
        } catch (Throwable e) {
            log.debug("closing the notify socket: {}", e.toString());
        }
        fd = -1;
    }

    /**
     * libc's functions, bound when a notifier is first opened: a process that no manager watches
     * never sets up the linker.
     */
    private static final class Libc {
        static final Linker LINKER = Linker.nativeLinker();
        static final MemoryLayout ERRNO_STATE = Linker.Option.captureStateLayout();
        static final VarHandle ERRNO =
                ERRNO_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        static final MethodHandle SOCKET =
                function(
                        "socket",
                        FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                        true);
        static final MethodHandle SENDTO =
                function(
                        "sendto",
                        FunctionDescriptor.of(
                                JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS,
                                JAVA_INT),
                        true);
        static final MethodHandle CLOSE =
                function("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT), false);

        private static MethodHandle function(
                String name, FunctionDescriptor descriptor, boolean captureErrno) {
            MemorySegment symbol =
                    LINKER.defaultLookup()
                            .find(name)
                            .orElseThrow(
                                    () -> new IllegalStateException("no " + name + "() in libc"));
            return captureErrno
                    ? LINKER.downcallHandle(
                            symbol, descriptor, Linker.Option.captureCallState("errno"))
                    : LINKER.downcallHandle(symbol, descriptor);
        }

        static int errno(MemorySegment state) {
            return (int) ERRNO.get(state, 0L);
        }
    }
}
