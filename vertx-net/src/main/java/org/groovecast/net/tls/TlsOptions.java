package org.groovecast.net.tls;

import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.TrustOptions;
import java.nio.file.Path;
import java.util.Objects;

/**
 * How an outgoing connection (output.icecast, output.rtmp) speaks TLS: by default the server's
 * certificate must chain to the JVM's trust store or to the certificates of {@code trust} (a PEM
 * file: a private CA, or the server's self-signed certificate) and name the host connected to; with
 * {@code verify} false any certificate is taken (a self-signed test server), and the connection is
 * still encrypted. The trust store is read when the options are made (the script's load), so that
 * no connection reads files on an event loop or a clock.
 */
public final class TlsOptions {
    private final Path trust;
    private final boolean verify;
    private final ExplainingTrustManager trustManager;

    /**
     * @param trust a PEM file of certificates trusted besides the JVM's, or null
     * @param verify whether the server's certificate is checked at all
     */
    public TlsOptions(Path trust, boolean verify) {
        this.trust = trust;
        this.verify = verify;
        this.trustManager = verify ? ExplainingTrustManager.of(trust) : null;
    }

    /** The options of a plain TCP client, made TLS. */
    public NetClientOptions apply(NetClientOptions o) {
        o.setSsl(true);
        if (verify)
            o.setTrustOptions(TrustOptions.wrap(trustManager))
                    .setHostnameVerificationAlgorithm("HTTPS");
        else o.setTrustAll(true).setHostnameVerificationAlgorithm("");
        return o;
    }

    /**
     * The same for the HTTP client of the same output (Icecast's metadata updates go to the same
     * TLS port).
     */
    public HttpClientOptions apply(HttpClientOptions o) {
        o.setSsl(true);
        if (verify) o.setTrustOptions(TrustOptions.wrap(trustManager)).setVerifyHost(true);
        else o.setTrustAll(true).setVerifyHost(false);
        return o;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TlsOptions t && t.verify == verify && Objects.equals(t.trust, trust);
    }

    @Override
    public int hashCode() {
        return Objects.hash(trust, verify);
    }

    @Override
    public String toString() {
        return verify
                ? (trust == null ? "TLS" : "TLS trusting " + trust)
                : "TLS, certificate unchecked";
    }
}
