package org.groovecast.host.cli;

import java.io.IOException;
import java.util.concurrent.Callable;
import org.groovecast.net.control.ControlClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code groovecast reload}: asks a running station to reload its script, over its telnet control.
 */
@Command(
        name = "reload",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description =
                "Reload the script of a running station through its control socket (server.telnet in the script); "
                        + "SIGHUP does the same.")
final class ReloadCommand implements Callable<Integer> {
    @Option(
            names = "--host",
            defaultValue = "127.0.0.1",
            description = "The control's address (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(
            names = "--port",
            defaultValue = "1234",
            description = "The control's port (default: ${DEFAULT-VALUE}).")
    int port;

    @Override
    public Integer call() {
        try {
            String answer = ControlClient.send(host, port, "reload");
            System.out.println(answer);
            return answer.startsWith("ERROR") ? 1 : 0;
        } catch (IOException e) {
            System.err.println(
                    "cannot reach the station's control at "
                            + host
                            + ":"
                            + port
                            + " ("
                            + e.getMessage()
                            + "); does the script declare server.telnet(port: "
                            + port
                            + ")?");
            return 1;
        }
    }
}
