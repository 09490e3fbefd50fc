package org.groovecast.net;

import static org.groovecast.api.ValueType.INTEGER;
import static org.groovecast.api.ValueType.NONE;
import static org.groovecast.api.ValueType.STRING;

import java.nio.file.Path;
import java.util.List;
import org.groovecast.api.Arguments;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.groovecast.net.harbor.HarborServer;
import org.groovecast.net.tls.CertificateFiles;
import org.groovecast.net.tls.ServerTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code harbor.tls(port:, certificate:, key:)}: a harbor port that speaks HTTPS. */
public final class TlsOperators {
    private static final Logger log = LoggerFactory.getLogger(TlsOperators.class);

    private TlsOperators() {}

    public static List<OperatorSpec> specs(Network net) {
        return List.of(
                OperatorSpec.named("harbor.tls")
                        .doc(
                                "Serves a harbor port over TLS (HTTPS): its listeners, DJs, endpoints, status page and metrics. "
                                        + "The PEM files are read again at each reload (SIGHUP): the next handshake presents the new certificate.")
                        .named("port", INTEGER, 8000, "the harbor port")
                        .range(0, 65535)
                        .requiredNamed(
                                "certificate",
                                STRING,
                                "PEM file of the certificate, then its chain (fullchain.pem); "
                                        + "it may hold the key too")
                        .named(
                                "key",
                                STRING,
                                "",
                                "PEM file of the private key (PKCS#8 or RSA); '' when the certificate file holds it")
                        .returns(NONE)
                        .create(
                                a -> {
                                    declare(net, a);
                                    return null;
                                }));
    }

    private static void declare(Network net, Arguments a) {
        int port = a.integer("port");
        if (net.harbor(port).declaredTls() != null) {
            throw new ScriptException(
                    "harbor.tls(): port "
                            + port
                            + " is given a certificate twice; declare it once");
        }
        String key = a.string("key");
        CertificateFiles files;
        try {
            files =
                    CertificateFiles.load(
                            Path.of(a.string("certificate")),
                            key == null || key.isEmpty() ? null : Path.of(key));
        } catch (IllegalArgumentException e) {
            throw new ScriptException("harbor.tls(): port " + port + ": " + e.getMessage());
        }
        HarborServer harbor = net.harbor(port);
        ServerTls served = harbor.tls();
        if (files.outOfDate()) {
            if (served != null && !served.files().outOfDate()) {
                log.warn(
                        "harbor.tls(): port {}: the certificate in {} is out of date ({}); the one on air stays ({})",
                        port,
                        files.certificate(),
                        files.describe(),
                        served);
                harbor.tls(served);
                return;
            }
            log.warn(
                    "harbor.tls(): port {}: the certificate in {} is out of date ({}); clients will refuse it until "
                            + "it is replaced",
                    port,
                    files.certificate(),
                    files.describe());
        }
        try {
            harbor.tls(
                    served != null && served.files().sameAs(files) ? served : new ServerTls(files));
        } catch (IllegalArgumentException e) {
            throw new ScriptException("harbor.tls(): port " + port + ": " + e.getMessage());
        }
    }
}
