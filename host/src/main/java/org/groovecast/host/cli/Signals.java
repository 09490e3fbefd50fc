package org.groovecast.host.cli;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * The signals {@code groovecast run} answers, handled whatever disposition the process inherited.
 *
 * <p>A shell without job control starts {@code cmd &} with SIGINT and SIGQUIT ignored, and the JVM
 * keeps an ignored INT, TERM or HUP ignored: its signal registration quietly installs nothing then
 * (so that {@code nohup} keeps working for plain Java programs). Nor can the launcher help: a shell
 * cannot un-ignore a signal that was ignored when it started. So before installing a handler, an
 * inherited SIG_IGN is reset to SIG_DFL here through libc, over the FFM API; the JVM then installs
 * the handler as usual. Where libc cannot be called (not POSIX, native access denied) the
 * disposition stays as it was, as before.
 */
final class Signals {
    private static final Logger log = LoggerFactory.getLogger(Signals.class);

    /**
     * {@code SIG_IGN} is the handler address 1, {@code SIG_DFL} the address 0, on Linux and the
     * BSDs.
     */
    private static final long SIG_IGN = 1;

    /** Larger than any libc's {@code struct sigaction} (152 bytes on glibc x86_64). */
    private static final long SIGACTION_BYTES = 512;

    private Signals() {}

    /**
     * Runs {@code action} on each {@code name} signal (INT, TERM, HUP), on the JVM's signal thread.
     */
    static void handle(String name, Runnable action) {
        Signal signal = new Signal(name);
        unignore(signal);
        Signal.handle(signal, s -> action.run());
    }

    /** Resets {@code signal} to its default disposition if it was inherited as ignored. */
    private static void unignore(Signal signal) {
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            MethodHandle sigaction =
                    linker.downcallHandle(
                            libc.find("sigaction").orElseThrow(),
                            FunctionDescriptor.of(
                                    ValueLayout.JAVA_INT,
                                    ValueLayout.JAVA_INT,
                                    ValueLayout.ADDRESS,
                                    ValueLayout.ADDRESS));
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment old = arena.allocate(SIGACTION_BYTES, 16);
                // the handler is the struct's first member on every libc
                int rc = (int) sigaction.invokeExact(signal.getNumber(), MemorySegment.NULL, old);
                if (rc != 0 || old.get(ValueLayout.ADDRESS, 0).address() != SIG_IGN) return;
            }
            MethodHandle reset =
                    linker.downcallHandle(
                            libc.find("signal").orElseThrow(),
                            FunctionDescriptor.of(
                                    ValueLayout.ADDRESS,
                                    ValueLayout.JAVA_INT,
                                    ValueLayout.ADDRESS));
            MemorySegment previous =
                    (MemorySegment) reset.invokeExact(signal.getNumber(), MemorySegment.NULL);
            log.debug(
                    "SIG{} was ignored when the engine started (a background job?); handling it",
                    signal.getName());
        } catch (Throwable e) {
            log.debug(
                    "cannot check how SIG{} is handled ({}); leaving it as inherited",
                    signal.getName(),
                    e.toString());
        }
    }
}
