package org.groovecast.net.leaks;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakTracker;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Netty's leak detector, keeping what it reports: installed in every test JVM by the root pom
 * ({@code -Dio.netty.customResourceLeakDetector}), so that a leak becomes a test failure ({@link
 * LeakCheck}) rather than a log line nobody reads. Netty still logs each leak as usual.
 */
public final class RecordingLeakDetector<T> extends ResourceLeakDetector<T> {
    /** Every detector Netty made (one per resource type, held in static fields anyway). */
    private static final List<RecordingLeakDetector<?>> DETECTORS = new CopyOnWriteArrayList<>();

    private static final Queue<String> REPORTED = new ConcurrentLinkedQueue<>();

    /** The constructor Netty's factory looks for. */
    public RecordingLeakDetector(Class<?> resourceType, int samplingInterval) {
        super(resourceType, samplingInterval);
        DETECTORS.add(this);
    }

    /** The older constructor, which Netty's factory tries first when a caller passes a maximum. */
    @SuppressWarnings("deprecation")
    public RecordingLeakDetector(Class<?> resourceType, int samplingInterval, long maxActive) {
        super(resourceType, samplingInterval, maxActive);
        DETECTORS.add(this);
    }

    /** Report whatever the logging configuration says: a test log level must not hide a leak. */
    @Override
    protected boolean needReport() {
        return true;
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
        REPORTED.add(
                resourceType
                        + ".release() was not called before it was garbage-collected:"
                        + records);
        super.reportTracedLeak(resourceType, records);
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
        REPORTED.add(
                resourceType
                        + ".release() was not called before it was garbage-collected"
                        + " (no access records: run with -Dio.netty.leakDetection.level=paranoid)");
        super.reportUntracedLeak(resourceType);
    }

    /**
     * Makes every detector read its queue of collected resources now: Netty only does that when it
     * tracks a new one, so a probe is tracked and closed at once.
     */
    @SuppressWarnings("unchecked")
    static void pollAll() {
        for (RecordingLeakDetector<?> detector : DETECTORS) {
            Object probe = new Object();
            ResourceLeakTracker<Object> tracker =
                    ((ResourceLeakDetector<Object>) detector).trackForcibly(probe);
            tracker.close(probe);
        }
    }

    /** The leaks reported since the last call, which forgets them. */
    static List<String> drainReported() {
        List<String> leaks = new ArrayList<>();
        for (String leak; (leak = REPORTED.poll()) != null; ) {
            leaks.add(leak);
        }
        return leaks;
    }

    static boolean installed() {
        return !DETECTORS.isEmpty();
    }
}
