package org.groovecast.net.tls;

import java.nio.file.Files;
import java.nio.file.Path;
import org.groovecast.api.Arguments;
import org.groovecast.api.ScriptException;

/**
 * The {@code tls:}, {@code tlsTrust:} and {@code tlsVerify:} arguments of an output that connects
 * out.
 */
public final class ClientTls {
    private ClientTls() {}

    /** The output's TLS options, or null when it connects in plain TCP ({@code tls: false}). */
    public static TlsOptions of(String operator, Arguments a) {
        return a.bool("tls") ? options(operator, a) : null;
    }

    /**
     * TLS options from {@code tlsTrust:} and {@code tlsVerify:}, for an output whose URL says TLS.
     */
    public static TlsOptions options(String operator, Arguments a) {
        String trust = a.string("tlsTrust");
        Path file = trust == null || trust.isEmpty() ? null : Path.of(trust);
        if (file != null && !Files.isReadable(file)) {
            throw new ScriptException(
                    operator + "(): tlsTrust " + file.toAbsolutePath() + " cannot be read");
        }
        try {
            return new TlsOptions(file, a.bool("tlsVerify"));
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ScriptException(operator + "(): tlsTrust: " + e.getMessage());
        }
    }
}
