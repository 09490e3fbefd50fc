import java.util.concurrent.TimeUnit;

/**
 * A stand-in JVM relay for checking run.sh's JVM side (process tree, JFR start and dump, the
 * allocation figures) before the engine's rtmp.server exists: runs the command given as arguments
 * (a real relay, e.g. nginx) as its child and allocates ALLOC_RATE bytes per second (default 5,000,000)
 * in 1 KiB arrays on two threads; SIGTERM stops the child. Not compiled by the build: run it with the
 * source launcher, for example
 *
 *   GROOVECAST_RELAY_CMD="/usr/lib/jvm/temurin-25-jdk-amd64/bin/java $PWD/bench/rtmp/StandInRelay.java \
 *       nginx -c $PWD/bench/rtmp/nginx-rtmp.conf -p /tmp/standin-nginx/" bench/rtmp/run.sh --relay groovecast --port 1935
 *
 * (mkdir /tmp/standin-nginx first). The "groovecast" row should then read nginx's CPU plus the
 * allocation loop's, and an allocation rate a little under ALLOC_RATE (the loop's 10 ms sleeps overshoot).
 */
public class StandInRelay {
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        long rate = Long.parseLong(System.getenv().getOrDefault("ALLOC_RATE", "5000000"));
        Process child = new ProcessBuilder(args).inheritIO().start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            child.destroy();
            try {
                child.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        long perTick = rate / 2 / 100 / 1024;  // two threads, 100 ticks a second, 1 KiB each
        for (int t = 0; t < 2; t++) {
            Thread thread = new Thread(() -> {
                while (true) {
                    for (long i = 0; i < perTick; i++) {
                        sink = new byte[1024 - 16];  // 1,024 bytes with the array header
                    }
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "alloc-" + t);
            thread.setDaemon(true);
            thread.start();
        }
        System.exit(child.waitFor());
    }
}
