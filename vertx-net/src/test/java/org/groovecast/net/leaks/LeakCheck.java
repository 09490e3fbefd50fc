package org.groovecast.net.leaks;

import java.util.List;

/**
 * The check the JUnit and Spock hooks run after each test class or spec: collect garbage, let
 * Netty's detectors look at what was collected, and fail with the leaks reported since the last
 * check (each with Netty's record of where the buffer was allocated and last touched).
 */
public final class LeakCheck {
    /** Reference processing is asynchronous: a few collections with a pause between them. */
    private static final int ROUNDS = 3;

    private static final long PAUSE_MILLIS = 20;

    private LeakCheck() {}

    public static void afterTests(String what) {
        if (!RecordingLeakDetector.installed()) {
            return; // Netty never made a detector in this JVM: nothing was tracked
        }
        for (int round = 0; round < ROUNDS; round++) {
            System.gc();
            try {
                Thread.sleep(PAUSE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            RecordingLeakDetector.pollAll();
        }
        List<String> leaks = RecordingLeakDetector.drainReported();
        if (!leaks.isEmpty()) {
            throw new AssertionError(
                    leaks.size()
                            + " Netty resource leak(s) reported by the end of "
                            + what
                            + ":\n"
                            + String.join("\n\n", leaks));
        }
    }
}
