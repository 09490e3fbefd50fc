package org.groovecast.host.sched;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lowers the calling thread's CPU priority (its Linux nice value). Blocking workers run at a higher
 * nice than clocks, so that a pool full of CPU-bound decoding cannot delay a clock's tick: the
 * kernel hands the core to the clock as soon as it wakes. Java thread priorities do nothing on
 * Linux, hence setpriority(2), which on Linux applies to the calling thread only.
 */
final class ThreadNice {
    private static final Logger log = LoggerFactory.getLogger(ThreadNice.class);
    private static final int PRIO_PROCESS = 0;
    private static final Optional<MethodHandle> SETPRIORITY = lookup();

    private ThreadNice() {}

    private static Optional<MethodHandle> lookup() {
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup()
                    .find("setpriority")
                    .map(
                            address ->
                                    linker.downcallHandle(
                                            address,
                                            FunctionDescriptor.of(
                                                    ValueLayout.JAVA_INT,
                                                    ValueLayout.JAVA_INT,
                                                    ValueLayout.JAVA_INT,
                                                    ValueLayout.JAVA_INT)));
        } catch (RuntimeException | LinkageError e) {
            log.debug("setpriority unavailable: {}", e.toString());
            return Optional.empty();
        }
    }

    /** Sets the calling thread's nice value; false where the platform does not allow it. */
    static boolean set(int nice) {
        if (SETPRIORITY.isEmpty()) return false;
        try {
            return (int) SETPRIORITY.get().invokeExact(PRIO_PROCESS, 0, nice) == 0;
        } catch (Throwable t) {
            return false;
        }
    }
}
