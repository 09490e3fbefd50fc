package org.groovecast.net.harbor.http;

/**
 * Text a peer chose (a client's {@code User-Agent}, a server's answer), made fit for a log line:
 * quoted, with quotes, backslashes and control characters escaped, so that it can neither end the
 * line nor forge one of ours after it, and cut short so that a 16 KiB header makes no 16 KiB line.
 */
public final class ClientText {
    static final int MAX = 200;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private ClientText() {}

    /** {@code "mpv 0.35"}; {@code -} when the client sent none. */
    public static String quoted(String text) {
        if (text == null) return "-";
        int n = Math.min(text.length(), MAX);
        StringBuilder b = new StringBuilder(n + 8).append('"');
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
                b.append("\\x").append(HEX[c >> 4]).append(HEX[c & 15]);
            } else if (c == '\u2028' || c == '\u2029') {
                b.append("\\u")
                        .append(HEX[c >> 12])
                        .append(HEX[(c >> 8) & 15])
                        .append(HEX[(c >> 4) & 15])
                        .append(HEX[c & 15]);
            } else {
                b.append(c);
            }
        }
        b.append('"');
        if (text.length() > MAX) b.append("...");
        return b.toString();
    }
}
