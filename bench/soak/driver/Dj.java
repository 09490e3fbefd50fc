import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A live DJ: ffmpeg as an Icecast source client streaming a tone to the station's input.harbor
 * mount, for a given time per session; the session ends with ffmpeg's own clean exit.
 */
final class Dj implements AutoCloseable {
    private final int port;
    private final String password;
    private final Path log;
    private Process process;
    int sessions;

    Dj(int port, String password, Path log) {
        this.port = port;
        this.password = password;
        this.log = log;
    }

    /** Starts a session of {@code seconds}; {@code onEnd} gets ffmpeg's exit code when it ends. */
    void start(double seconds, int frequency, Consumer<Integer> onEnd) throws IOException {
        process = new ProcessBuilder("ffmpeg", "-hide_banner", "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i",
                "sine=frequency=" + frequency + ":sample_rate=44100:duration=" + seconds, "-ac", "2",
                "-c:a", "libmp3lame", "-b:a", "128k", "-f", "mp3", "-content_type", "audio/mpeg",
                "icecast://source:" + password + "@127.0.0.1:" + port + "/live")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        sessions++;
        Process p = process;
        p.onExit().thenAccept(x -> onEnd.accept(x.exitValue()));
    }

    boolean onAir() {
        Process p = process;
        return p != null && p.isAlive();
    }

    @Override
    public void close() {
        Process p = process;
        if (p == null || !p.isAlive()) return;
        p.destroy();
        try {
            if (!p.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) p.destroyForcibly();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
