package org.groovecast.host;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The process footprint for {@code runtime.memory()}: Java heap, process-private memory (what the
 * process costs the machine) and native memory outside the heap, in bytes.
 */
final class RuntimeMemory {
    private RuntimeMemory() {}

    static Map<String, Object> read() {
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        MemoryUsage nonHeap = ManagementFactory.getMemoryMXBean().getNonHeapMemoryUsage();
        long direct = 0;
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
            direct += b.getMemoryUsed();
        long privateBytes = smapsPrivate();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("heapUsed", heap.getUsed());
        m.put("heapCommitted", heap.getCommitted());
        m.put("private", privateBytes);
        m.put("native", Math.max(0, privateBytes - heap.getCommitted()));
        m.put("nonHeap", nonHeap.getCommitted());
        m.put("directBuffers", direct);
        m.put(
                "pretty",
                String.format(
                        "heap %s/%s, private %s, native %s",
                        mib(heap.getUsed()),
                        mib(heap.getCommitted()),
                        mib(privateBytes),
                        mib(Math.max(0, privateBytes - heap.getCommitted()))));
        return m;
    }

    /** Private_Clean + Private_Dirty of the whole process, from /proc (0 where it is missing). */
    private static long smapsPrivate() {
        try {
            long kib = 0;
            for (String line : Files.readAllLines(Path.of("/proc/self/smaps_rollup"))) {
                if (line.startsWith("Private_Clean:") || line.startsWith("Private_Dirty:")) {
                    kib += Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
            return kib * 1024;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static String mib(long bytes) {
        return String.format("%.1f MiB", bytes / 1048576.0);
    }
}
