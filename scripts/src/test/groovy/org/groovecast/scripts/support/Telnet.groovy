package org.groovecast.scripts.support

import java.nio.charset.StandardCharsets

/** A line client of the telnet control server: sends a command, reads its answer up to END. */
final class Telnet implements Closeable {
    final Socket socket
    private final BufferedReader input
    private final Writer output

    Telnet(int port) {
        socket = new Socket('127.0.0.1', port)
        socket.soTimeout = 5000
        input = new BufferedReader(new InputStreamReader(socket.inputStream, StandardCharsets.UTF_8))
        output = new OutputStreamWriter(socket.outputStream, StandardCharsets.UTF_8)
    }

    /** The answer's lines before END, joined with \n; fails when the server closes first. */
    String cmd(String line) {
        output.write(line + '\r\n')
        output.flush()
        List<String> lines = []
        String l
        while ((l = input.readLine()) != 'END') {
            assert l != null: "the server closed the connection after '${line}'; so far: ${lines}"
            lines << l
        }
        lines.join('\n')
    }

    /** True when the server has closed the connection (reading meets the end of the stream). */
    boolean closedByServer() {
        try {
            input.readLine() == null
        } catch (SocketException ignored) {
            true
        }
    }

    @Override
    void close() {
        socket.close()
    }
}
