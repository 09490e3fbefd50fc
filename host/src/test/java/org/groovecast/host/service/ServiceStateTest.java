package org.groovecast.host.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.groovecast.host.sched.TaskScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sd_notify against a real listening unix datagram socket, as systemd binds it. */
class ServiceStateTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final long PID = ProcessHandle.current().pid();

    @TempDir Path dir;

    @Test
    void readyStatusAndStoppingReachASocketBoundToAPath() throws Throwable {
        Path socket = dir.resolve("notify");
        try (DatagramListener manager = new DatagramListener(socket.toString());
                ServiceState state =
                        ServiceState.of(Map.of("NOTIFY_SOCKET", socket.toString()), PID)) {
            assertTrue(Files.exists(socket), "bound at the path the address names");
            assertTrue(state.managed());
            state.ready("on air: radio.groovy");
            assertEquals("READY=1\nSTATUS=on air: radio.groovy", manager.receive(WAIT));
            state.status("reloaded");
            assertEquals("STATUS=reloaded", manager.receive(WAIT));
            state.stopping();
            assertEquals("STOPPING=1\nSTATUS=stopping", manager.receive(WAIT));
        }
    }

    @Test
    void anAbstractSocketNameWorksToo() throws Throwable {
        String name = "@groovecast-test-" + PID + "-" + System.nanoTime();
        try (DatagramListener manager = new DatagramListener(name);
                ServiceState state = ServiceState.of(Map.of("NOTIFY_SOCKET", name), PID)) {
            assertTrue(
                    Files.readString(Path.of("/proc/net/unix")).contains(name),
                    "bound in the abstract namespace, under the name given");
            state.ready("on air");
            assertEquals("READY=1\nSTATUS=on air", manager.receive(WAIT));
        }
    }

    @Test
    void withoutAManagerNothingIsSentAndNothingFails() {
        try (ServiceState state = ServiceState.of(Map.of(), PID)) {
            assertFalse(state.managed());
            state.ready("on air");
            state.watch(() -> null);
        }
        assertFalse(ServiceState.of(Map.of("NOTIFY_SOCKET", "relative/path"), PID).managed());
        assertThrows(
                IllegalArgumentException.class,
                () -> SystemdNotify.sockaddr("/" + "x".repeat(108)));
    }

    @Test
    void watchdogPingsComeFromTheSchedulerAndStopWhileItsWorkersAreStuck() throws Throwable {
        Path socket = dir.resolve("notify");
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (DatagramListener manager = new DatagramListener(socket.toString());
                TaskScheduler scheduler = new TaskScheduler(1, Duration.ofMillis(1), 64);
                ServiceState state =
                        ServiceState.of(
                                Map.of(
                                        "NOTIFY_SOCKET", socket.toString(),
                                        "WATCHDOG_USEC", "200000",
                                        "WATCHDOG_PID", String.valueOf(PID)),
                                PID)) {
            state.watch(() -> scheduler);
            assertEquals("WATCHDOG=1", manager.receive(WAIT));
            assertEquals("WATCHDOG=1", manager.receive(WAIT), "every half period");

            scheduler.execute(
                    () -> {
                        stuck.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    });
            assertTrue(stuck.await(5, TimeUnit.SECONDS));
            while (manager.receive(Duration.ofMillis(50)) != null) {} // what was queued before
            assertNull(manager.receive(Duration.ofMillis(600)), "no ping from a stuck scheduler");

            release.countDown();
            assertEquals("WATCHDOG=1", manager.receive(WAIT), "pings again once it runs");
        } finally {
            release.countDown();
        }
    }

    @Test
    void theWatchdogIsAnotherProcesssWhenWatchdogPidNamesIt() {
        Map<String, String> env = Map.of("WATCHDOG_USEC", "30000000", "WATCHDOG_PID", "1");
        assertEquals(0, ServiceState.watchdogNanos(env, PID));
        assertEquals(
                30_000_000_000L,
                ServiceState.watchdogNanos(Map.of("WATCHDOG_USEC", "30000000"), PID));
        assertEquals(0, ServiceState.watchdogNanos(Map.of(), PID));
    }
}
