import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The RTMP publisher and players run.sh started (one line each in its list: name, PID, ffmpeg
 * -progress file): each must stay alive and its stream time must advance between samples.
 */
final class RtmpClients {
    static final class Client {
        final String name;
        final long pid;
        final Path progress;
        long lastOutTime = -1;
        int stalls;
        String gone;

        Client(String name, long pid, Path progress) {
            this.name = name;
            this.pid = pid;
            this.progress = progress;
        }
    }

    final List<Client> clients = new ArrayList<>();

    RtmpClients(Path list) throws IOException {
        for (String line : Files.readAllLines(list)) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3) clients.add(new Client(f[0], Long.parseLong(f[1]), Path.of(f[2])));
        }
    }

    /** Checks every client once; returns how many are alive and advanced since the last check. */
    int check() {
        int ok = 0;
        for (Client c : clients) {
            if (c.gone != null) continue;
            if (!ProcessHandle.of(c.pid).map(ProcessHandle::isAlive).orElse(false)) {
                c.gone = "exited";
                continue;
            }
            long t = outTime(c.progress);
            if (t > c.lastOutTime) ok++;
            else c.stalls++;
            c.lastOutTime = Math.max(t, c.lastOutTime);
        }
        return ok;
    }

    /** The last out_time_us of an ffmpeg -progress file, or -1. */
    private static long outTime(Path progress) {
        try (RandomAccessFile f = new RandomAccessFile(progress.toFile(), "r")) {
            long from = Math.max(0, f.length() - 4096);
            f.seek(from);
            byte[] b = new byte[(int) (f.length() - from)];
            f.readFully(b);
            String tail = new String(b, StandardCharsets.ISO_8859_1);
            int i = tail.lastIndexOf("out_time_us=");
            if (i < 0) return -1;
            int end = tail.indexOf('\n', i);
            if (end < 0) return -1;
            return Long.parseLong(tail.substring(i + 12, end).trim());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }
}
