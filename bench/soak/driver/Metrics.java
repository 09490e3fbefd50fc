import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** One scrape of the station's /metrics (Prometheus text): series name with labels, to value. */
final class Metrics {
    private final Map<String, Double> values;

    private Metrics(Map<String, Double> values) {
        this.values = values;
    }

    static Metrics scrape(int port, String path) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + path).toURL().openConnection();
        c.setConnectTimeout(2000);
        c.setReadTimeout(5000);
        String text;
        try (InputStream in = c.getInputStream()) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            c.disconnect();
        }
        Map<String, Double> values = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) continue;
            int space = line.lastIndexOf(' ');
            try {
                values.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            } catch (RuntimeException ignored) {
                // not a sample line
            }
        }
        return new Metrics(values);
    }

    /** The first series named {@code name} whose labels contain {@code label} (e.g. {@code mount="/radio"}), or NaN. */
    double value(String name, String label) {
        for (Map.Entry<String, Double> e : values.entrySet()) {
            String k = e.getKey();
            if ((k.equals(name) || k.startsWith(name + "{")) && (label == null || k.contains(label))) return e.getValue();
        }
        return Double.NaN;
    }
}
