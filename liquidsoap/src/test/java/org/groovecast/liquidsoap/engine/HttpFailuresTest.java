package org.groovecast.liquidsoap.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.groovecast.host.Station;
import org.groovecast.host.plugin.OperatorPlugins;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An HTTP request that gets no answer is a response with a status, as Liquidsoap 2.4.5's http.*
 * answer it, not an error: AzuraCast's runtime reads {@code response.status_code} of each call to
 * its API and treats anything but 200 as "no answer".
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpFailuresTest {
    private static final OperatorPlugins PLUGINS =
            OperatorPlugins.load(ShippedStation.pluginsDir());

    @Test
    void noAnswerInTimeIs522AndAnUnreachableHostIs523() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                ServerSocket closed = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int closedPort = closed.getLocalPort();
            closed.close();
            String script =
                    """
                    log.level := 4
                    def ask(url) =
                      r = http.post(url, timeout=0.5, data="{}")
                      log.info("#{r.status_code} #{r.status_message} [#{r}]")
                    end
                    ask("http://127.0.0.1:%d/nextsong")
                    ask("http://127.0.0.1:%d/nextsong")
                    output.dummy(blank())
                    """
                            .formatted(silent.getLocalPort(), closedPort);
            Station station = Station.load("api.liq", script, PLUGINS.functions(), Map.of());
            try {
                List<String> answers =
                        station.scriptLog().recent().stream()
                                .filter(l -> l.startsWith("info: 52"))
                                .toList();
                assertEquals(
                        List.of(
                                "info: 522 Connection timed out []",
                                "info: 523 Origin is unreachable []"),
                        answers);
            } finally {
                station.stop();
            }
        }
    }
}
