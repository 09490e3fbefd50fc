import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Follows the station's log (the launcher's logback pattern, {@code yyyy-MM-dd HH:mm:ss.SSS LEVEL logger - msg},
 * or without the date as logs before it had):
 * counts ERROR and WARN lines, keeps the first ones to show, and picks out the lines the soak checks
 * against what it did (reloads done or failed, DJ connections).
 */
final class StationLog {
    private static final Pattern LINE =
            Pattern.compile("^(?:\\d{4}-\\d\\d-\\d\\d )?(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) (\\S+)\\s+(\\S+) - (.*)$");
    private static final Pattern RELOADED = Pattern.compile("^reload of \\S+ in (\\d+) ms");
    private static final int KEEP = 30;

    private final Path file;
    private long offset;
    private final StringBuilder partial = new StringBuilder();

    long errors;
    long warnings;
    final List<String> errorLines = new ArrayList<>();
    final List<String> warnLines = new ArrayList<>();
    final List<LocalTime> warnTimes = new ArrayList<>();
    final List<Long> reloadMillis = new ArrayList<>();
    long djConnected;
    long djKept;

    StationLog(Path file) {
        this.file = file;
    }

    /** Reads what was appended since the last call. */
    void poll() throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long length = f.length();
            if (length < offset) offset = 0; // truncated: start again
            f.seek(offset);
            byte[] buf = new byte[(int) Math.min(length - offset, 16 * 1024 * 1024)];
            f.readFully(buf);
            offset += buf.length;
            partial.append(new String(buf, StandardCharsets.UTF_8));
        }
        int nl;
        while ((nl = partial.indexOf("\n")) >= 0) {
            line(partial.substring(0, nl));
            partial.delete(0, nl + 1);
        }
    }

    private void line(String line) {
        Matcher m = LINE.matcher(line);
        if (!m.matches()) return; // a stack trace's lines belong to the line before
        String level = m.group(2);
        String msg = m.group(4);
        if (level.equals("ERROR")) {
            errors++;
            if (errorLines.size() < KEEP) errorLines.add(line);
        } else if (level.equals("WARN")) {
            warnings++;
            warnTimes.add(LocalTime.parse(m.group(1)));
            if (warnLines.size() < KEEP) warnLines.add(line);
        }
        Matcher r = RELOADED.matcher(msg);
        if (r.find()) reloadMillis.add(Long.parseLong(r.group(1)));
        if (msg.startsWith("input.harbor /live: source client ") && msg.contains(" connected (")) djConnected++;
        if (msg.startsWith("input.harbor /live: source client ") && msg.endsWith(" kept across the reload")) djKept++;
    }
}
