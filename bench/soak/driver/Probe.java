import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The station process seen from outside: memory, threads, descriptors and CPU from /proc, and the
 * heap after a full collection through one JMX connection (the attach API starts the station's local
 * management agent once; a jcmd per sample would start a JVM every 10 s on a 2-core machine).
 */
final class Probe implements AutoCloseable {
    record Proc(long rssKb, int threads, int fds, long cpuTicks) {
    }

    /** The heap a full collection left, and how long that collection took. */
    record Heap(long usedBytes, long gcMillis) {
    }

    private final long pid;
    private final Path proc;
    private JMXConnector connector;
    private MemoryMXBean memory;
    private List<com.sun.management.GarbageCollectorMXBean> collectors;
    private final Set<String> heapPools = new HashSet<>();

    Probe(long pid) {
        this.pid = pid;
        this.proc = Path.of("/proc", String.valueOf(pid));
    }

    boolean alive() {
        return Files.exists(proc);
    }

    Proc proc() throws IOException {
        long rss = 0;
        for (String line : Files.readAllLines(proc.resolve("status"))) {
            if (line.startsWith("VmRSS:")) rss = Long.parseLong(line.substring(6).trim().split("\\s+")[0]);
        }
        String stat = Files.readString(proc.resolve("stat"));
        // after "pid (comm) ": field 3 is the state, utime and stime are fields 14 and 15
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        long cpu = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        return new Proc(rss, stationThreads(), count(proc.resolve("fd")), cpu);
    }

    /**
     * The process's threads less the ones this probe makes it run: the attach listener and the JMX
     * connection's (RMI connection threads come and go with the connection's idle timeout).
     */
    private int stationThreads() throws IOException {
        int n = 0;
        try (Stream<Path> s = Files.list(proc.resolve("task"))) {
            for (Path task : (Iterable<Path>) s::iterator) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).strip();
                } catch (IOException gone) {
                    continue; // the thread ended meanwhile
                }
                if (!name.startsWith("RMI ") && !name.startsWith("JMX ") && !name.equals("Attach Listener")) n++;
            }
        }
        return n;
    }

    private static int count(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return (int) s.count();
        }
    }

    /**
     * Runs a full collection in the station (MemoryMXBean.gc(), what {@code jcmd GC.run} does) and
     * returns the heap it left, in bytes: the sum over the heap pools of that collection's
     * usage-after-GC, so that what the station allocates in the moments after does not count.
     */
    Heap heapAfterGc() throws IOException {
        connect();
        long[] before = new long[collectors.size()];
        for (int i = 0; i < before.length; i++) before[i] = collectors.get(i).getCollectionCount();
        memory.gc();
        com.sun.management.GcInfo latest = null;
        for (int i = 0; i < before.length; i++) {
            if (collectors.get(i).getCollectionCount() == before[i]) continue;
            com.sun.management.GcInfo info = collectors.get(i).getLastGcInfo();
            if (info != null && (latest == null || info.getEndTime() > latest.getEndTime())) latest = info;
        }
        if (latest == null) return new Heap(memory.getHeapMemoryUsage().getUsed(), -1);
        long used = 0;
        for (Map.Entry<String, MemoryUsage> e : latest.getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) used += e.getValue().getUsed();
        }
        return new Heap(used, latest.getDuration());
    }

    private void connect() throws IOException {
        if (connector != null) return;
        String address;
        try {
            VirtualMachine vm = VirtualMachine.attach(String.valueOf(pid));
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
        } catch (com.sun.tools.attach.AttachNotSupportedException e) {
            throw new IOException("cannot attach to the station's JVM " + pid + ": " + e.getMessage(), e);
        }
        connector = JMXConnectorFactory.connect(new JMXServiceURL(address));
        MBeanServerConnection mbs = connector.getMBeanServerConnection();
        memory = ManagementFactory.newPlatformMXBeanProxy(mbs, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
        collectors = ManagementFactory.getPlatformMXBeans(mbs, com.sun.management.GarbageCollectorMXBean.class);
        for (MemoryPoolMXBean p : ManagementFactory.getPlatformMXBeans(mbs, MemoryPoolMXBean.class)) {
            if (p.getType() == MemoryType.HEAP) heapPools.add(p.getName());
        }
    }

    @Override
    public void close() throws IOException {
        if (connector != null) connector.close();
    }
}
