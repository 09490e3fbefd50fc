package org.groovecast.net.tls;

import javax.net.ssl.SSLException;

/**
 * A failed connection told as a TLS failure when that is what it was, in one line for the
 * reconnection's log.
 */
public final class TlsFailure {
    private TlsFailure() {}

    /**
     * {@code e} as it should be logged: {@code TLS handshake failed: certificate not trusted
     * (CN=..., expires ...)} when the certificate was refused, {@code TLS handshake failed: <the
     * JDK's reason>} for another TLS failure (a server that does not speak TLS on that port), else
     * {@code e} itself.
     */
    public static Throwable explain(Throwable e) {
        SSLException ssl = null;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ExplainingTrustManager.UntrustedCertificate u) {
                return new IllegalStateException("TLS handshake failed: " + u.getMessage(), e);
            }
            if (ssl == null && t instanceof SSLException s) ssl = s;
        }
        if (ssl != null)
            return new IllegalStateException("TLS handshake failed: " + ssl.getMessage(), e);
        return e;
    }
}
