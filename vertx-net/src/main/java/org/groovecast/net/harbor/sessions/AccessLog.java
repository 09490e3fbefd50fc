package org.groovecast.net.harbor.sessions;

import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per finished listener session in Icecast 2.4's access log format, the combined log
 * format with the seconds connected after it, so that the tools that read Icecast's {@code
 * access.log} (royalty reports, listener statistics) read the harbor's: {@code 192.0.2.7 - -
 * [05/Dec/2026:08:40:01 +0000] "GET /radio HTTP/1.1" 200 1234567 "-" "VLC/3.0.18" 61}. Written to
 * the logger {@link #LOGGER}, which the host gives an appender and file of its own ({@code
 * settings.harbor.accessLog}); nothing is formatted while it is off. Addresses are written as an
 * HMAC of a secret drawn once per process ({@code settings.harbor.accessLog.hashAddresses}, on by
 * default): the same listener is the same token all day, and no address is kept.
 */
public final class AccessLog {
    /** The logger the lines go to; not additive, so that they stay out of the engine's log. */
    public static final String LOGGER = "groovecast.access";

    public static final AccessLog OFF = new AccessLog(false, true);

    private static final Logger log = LoggerFactory.getLogger(LOGGER);
    private static final byte[] SALT = new byte[32];

    static {
        new SecureRandom().nextBytes(SALT);
    }

    private static final DateTimeFormatter CLF =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.US);

    private final boolean on;
    private final boolean hashAddresses;

    private AccessLog(boolean on, boolean hashAddresses) {
        this.on = on;
        this.hashAddresses = hashAddresses;
    }

    /** The log written (or not), its addresses hashed or as they are. */
    public static AccessLog of(boolean on, boolean hashAddresses) {
        return on ? new AccessLog(true, hashAddresses) : OFF;
    }

    public boolean isOn() {
        return on;
    }

    /** Writes the line of {@code s}, which just ended. */
    void finished(ListenerSession s) {
        if (!on) return;
        log.info(line(s, Instant.now(), ZoneId.systemDefault()));
    }

    /** The line of {@code s}, which ended at {@code end}, its date in {@code zone}. */
    public String line(ListenerSession s, Instant end, ZoneId zone) {
        StringBuilder b = new StringBuilder(160);
        b.append(hashAddresses ? hash(s.address()) : s.address().getHostAddress());
        b.append(" - ").append(s.user() == null ? "-" : escaped(s.user()));
        b.append(" [").append(CLF.format(end.atZone(zone))).append("] \"");
        b.append(escaped(s.request())).append("\" 200 ").append(s.bytes()).append(" \"");
        b.append(s.referer() == null ? "-" : escaped(s.referer())).append("\" \"");
        b.append(s.agent() == null ? "-" : escaped(s.agent())).append("\" ");
        b.append(s.seconds());
        return b.toString();
    }

    /** The address as a token: the same for the same address within this process, no more. */
    public static String hash(InetAddress a) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(SALT, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(a.getAddress()), 0, 8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /**
     * Text a client chose, made unable to end the line or its quoted field as Icecast 2.4.4 writes
     * it: every byte that is not printable ASCII, and every quote and backslash, becomes a dot
     * ({@code é}, two bytes in UTF-8, is two dots; the request's text holds its bytes as ISO-8859-1
     * characters, a login's user is decoded, each counted by its UTF-8 bytes).
     */
    static String escaped(String text) {
        StringBuilder b = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
            if (plain && b == null) continue;
            if (b == null) b = new StringBuilder(text.length() + 16).append(text, 0, i);
            if (plain) {
                b.append(c);
            } else if (c < 0x100) {
                b.append('.'); // a byte of the request, read as ISO-8859-1
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                b.append("....");
                i++;
            } else {
                b.append(c < 0x800 ? ".." : "...");
            }
        }
        return b == null ? text : b.toString();
    }
}
