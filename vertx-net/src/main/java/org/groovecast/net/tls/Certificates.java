package org.groovecast.net.tls;

import java.security.cert.X509Certificate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import javax.security.auth.x500.X500Principal;

/**
 * How a certificate is named in log lines: its subject's common name, serial and end of validity.
 */
public final class Certificates {
    private static final DateTimeFormatter DAY =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    private Certificates() {}

    /** {@code CN=radio.example.org, serial 5f3a..., expires 2027-01-31 12:00 UTC}. */
    public static String describe(X509Certificate c) {
        return subject(c) + ", serial " + c.getSerialNumber().toString(16) + ", " + validity(c);
    }

    static String subject(X509Certificate c) {
        String dn = c.getSubjectX500Principal().getName(X500Principal.RFC2253);
        for (String part : dn.split(",")) {
            if (part.startsWith("CN=")) return part;
        }
        return dn.isEmpty() ? "no subject" : dn;
    }

    static String validity(X509Certificate c) {
        long now = System.currentTimeMillis();
        if (c.getNotAfter().getTime() < now)
            return "expired " + DAY.format(c.getNotAfter().toInstant());
        if (c.getNotBefore().getTime() > now)
            return "not valid before " + DAY.format(c.getNotBefore().toInstant());
        return "expires " + DAY.format(c.getNotAfter().toInstant());
    }

    /** Whether the certificate is outside its validity now (expired, or not yet valid). */
    static boolean outOfDate(X509Certificate c) {
        long now = System.currentTimeMillis();
        return c.getNotAfter().getTime() < now || c.getNotBefore().getTime() > now;
    }
}
