package org.groovecast.net.tls;

import java.net.Socket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The JDK's check of a server's certificate (chain, validity, host name), with a failure that says
 * which certificate and why in one line: the JDK's own is {@code PKIX path building failed: ...
 * unable to find valid certification path to requested target}, which names neither. Trusts the
 * JVM's store and, when given, the certificates of a PEM file.
 */
final class ExplainingTrustManager extends X509ExtendedTrustManager {
    private final X509ExtendedTrustManager jdk;

    private ExplainingTrustManager(X509ExtendedTrustManager jdk) {
        this.jdk = jdk;
    }

    /**
     * @param extra a PEM file of more trusted certificates, or null
     */
    static ExplainingTrustManager of(Path extra) {
        try {
            TrustManagerFactory f =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (extra == null) {
                f.init((KeyStore) null);
            } else {
                KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
                store.load(null, null);
                int i = 0;
                for (X509Certificate c : jvmTrusted()) store.setCertificateEntry("jvm-" + i++, c);
                for (X509Certificate c : PemFiles.certificates(extra))
                    store.setCertificateEntry("extra-" + i++, c);
                f.init(store);
            }
            for (TrustManager t : f.getTrustManagers()) {
                if (t instanceof X509ExtendedTrustManager x) return new ExplainingTrustManager(x);
            }
            throw new IllegalStateException("the JVM has no X.509 trust manager");
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException(
                    "cannot set up the TLS trust store: " + e.getMessage(), e);
        }
    }

    private static List<X509Certificate> jvmTrusted() throws GeneralSecurityException {
        TrustManagerFactory f =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        f.init((KeyStore) null);
        for (TrustManager t : f.getTrustManagers()) {
            if (t instanceof X509TrustManager x) return List.of(x.getAcceptedIssuers());
        }
        return List.of();
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        try {
            jdk.checkServerTrusted(chain, authType, engine);
        } catch (CertificateException e) {
            throw explained(chain, engine == null ? null : engine.getPeerHost(), e);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        try {
            jdk.checkServerTrusted(chain, authType, socket);
        } catch (CertificateException e) {
            throw explained(chain, null, e);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
            throws CertificateException {
        try {
            jdk.checkServerTrusted(chain, authType);
        } catch (CertificateException e) {
            throw explained(chain, null, e);
        }
    }

    /** Why the chain was refused, from what the JDK threw and the certificate itself. */
    static UntrustedCertificate explained(
            X509Certificate[] chain, String host, CertificateException e) {
        if (chain == null || chain.length == 0)
            return new UntrustedCertificate("the server sent no certificate", e);
        X509Certificate leaf = chain[0];
        String what = Certificates.subject(leaf) + ", " + Certificates.validity(leaf);
        String jdkSays = String.valueOf(e.getMessage());
        String why;
        if (Certificates.outOfDate(leaf)) {
            why = "certificate out of date";
        } else if (jdkSays.contains("subject alternative")
                || jdkSays.contains("No name matching")
                || jdkSays.contains("No subject alternative")) {
            why = "certificate not valid for " + (host == null ? "this host" : host);
        } else if (chain.length == 1
                && leaf.getSubjectX500Principal().equals(leaf.getIssuerX500Principal())) {
            return new UntrustedCertificate(
                    "certificate not trusted ("
                            + what
                            + ", self-signed; trust it with tlsTrust: "
                            + "'/path/cert.pem' or skip the check with tlsVerify: false)",
                    e);
        } else {
            why = "certificate not trusted";
        }
        return new UntrustedCertificate(why + " (" + what + ")", e);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        jdk.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        jdk.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
            throws CertificateException {
        jdk.checkClientTrusted(chain, authType);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return jdk.getAcceptedIssuers();
    }

    /** A refused server certificate, its message the whole story. */
    static final class UntrustedCertificate extends CertificateException {
        UntrustedCertificate(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
