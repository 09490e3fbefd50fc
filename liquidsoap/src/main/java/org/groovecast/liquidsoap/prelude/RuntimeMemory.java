package org.groovecast.liquidsoap.prelude;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.groovecast.liquidsoap.eval.Rec;

/** {@code runtime.memory()}: the process's and the machine's memory, from Linux's /proc. */
final class RuntimeMemory {
    private RuntimeMemory() {}

    static Object read() {
        Map<String, Long> status = kilobytes(Path.of("/proc/self/status"));
        Map<String, Long> info = kilobytes(Path.of("/proc/meminfo"));
        long rss = status.getOrDefault("VmRSS", 0L);
        long anon = status.getOrDefault("RssAnon", rss);
        long total = info.getOrDefault("MemTotal", 0L);
        long swapTotal = info.getOrDefault("SwapTotal", 0L);
        long used = total - info.getOrDefault("MemAvailable", total);
        long swapUsed = swapTotal - info.getOrDefault("SwapFree", swapTotal);
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("process_private_memory", anon);
        f.put("process_physical_memory", rss);
        f.put("process_virtual_memory", status.getOrDefault("VmSize", 0L));
        f.put("process_swapped_memory", status.getOrDefault("VmSwap", 0L));
        f.put("total_physical_memory", total);
        f.put("total_virtual_memory", total + swapTotal);
        f.put("total_used_physical_memory", used);
        f.put("total_used_virtual_memory", used + swapUsed);
        Runtime jvm = Runtime.getRuntime();
        f.put("process_managed_memory", jvm.totalMemory() - jvm.freeMemory());
        Map<String, Object> pretty = new LinkedHashMap<>();
        for (String field : FIELDS) pretty.put(field, megabytes((Long) f.get(field)));
        f.put("pretty", Rec.record(pretty));
        return Rec.record(f);
    }

    /** Its figures, as Liquidsoap names them: the process's managed memory is the JVM's heap. */
    static final List<String> FIELDS =
            List.of(
                    "process_managed_memory",
                    "total_virtual_memory",
                    "total_physical_memory",
                    "total_used_virtual_memory",
                    "total_used_physical_memory",
                    "process_virtual_memory",
                    "process_physical_memory",
                    "process_private_memory",
                    "process_swapped_memory");

    /** Its type: the figures in bytes, and {@code pretty}, each as text. */
    static String type() {
        List<String> ints = new java.util.ArrayList<>();
        List<String> strings = new java.util.ArrayList<>();
        for (String field : FIELDS) {
            ints.add(field + " : int");
            strings.add(field + " : string");
        }
        return "() -> {"
                + String.join(", ", ints)
                + ", pretty : {"
                + String.join(", ", strings)
                + "}}";
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.2f MiB", bytes / 1048576.0);
    }

    /** The "Name: N kB" lines of a /proc file, in bytes; none where it cannot be read. */
    private static Map<String, Long> kilobytes(Path file) {
        Map<String, Long> out = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                int colon = line.indexOf(':');
                if (colon < 0) continue;
                String[] value = line.substring(colon + 1).trim().split("\\s+");
                try {
                    out.put(line.substring(0, colon), Long.parseLong(value[0]) * 1024);
                } catch (NumberFormatException e) {
                    // a line that is no size
                }
            }
        } catch (IOException e) {
            // not Linux: every figure reads 0
        }
        return out;
    }
}
