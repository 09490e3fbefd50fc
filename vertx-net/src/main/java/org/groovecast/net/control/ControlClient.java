package org.groovecast.net.control;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One command sent to a running station's telnet control, for the command line ({@code groovecast
 * reload}): a blocking socket, since the CLI does nothing else meanwhile.
 */
public final class ControlClient {
    private ControlClient() {}

    /**
     * Sends {@code command} and returns the answer's lines up to {@code END}; throws when nothing
     * listens.
     */
    public static String send(String host, int port, String command) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 5000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader in =
                    new BufferedReader(
                            new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            StringBuilder answer = new StringBuilder();
            for (String line = in.readLine();
                    line != null && !line.equals("END");
                    line = in.readLine()) {
                if (!answer.isEmpty()) answer.append('\n');
                answer.append(line);
            }
            return answer.toString();
        }
    }
}
