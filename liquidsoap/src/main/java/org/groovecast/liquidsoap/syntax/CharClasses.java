package org.groovecast.liquidsoap.syntax;

/** The character classes of Liquidsoap 2.4's lexer (sedlex's, which follow Unicode). */
public final class CharClasses {
    private CharClasses() {}

    /**
     * Space that separates tokens on a line: the Unicode white space that is not a line break, and
     * the carriage return (so a CRLF file ends its lines at the LF alone).
     */
    public static boolean isSkipped(int c) {
        return c == ' ' || c == '\t' || c == '\r' || isOtherSpace(c);
    }

    /** White space that is not a line break, without the carriage return (comments' rules). */
    public static boolean isBlank(int c) {
        return c == ' ' || c == '\t' || isOtherSpace(c);
    }

    private static boolean isOtherSpace(int c) {
        return c == 0x85
                || c == 0xa0
                || c == 0x1680
                || (c >= 0x2000 && c <= 0x200a)
                || c == 0x202f
                || c == 0x205f
                || c == 0x3000;
    }

    /** Line breaks, each a token of its own: application and unary minus depend on them. */
    public static boolean isLineBreak(int c) {
        return c == '\n' || c == 0x0b || c == 0x0c || c == 0x2028 || c == 0x2029;
    }

    public static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    /** A letter of a name (Unicode's Alphabetic). */
    public static boolean isLetter(int c) {
        return c < 0x80
                ? (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                : Character.isAlphabetic(c);
    }

    /** A symbol that is a name on its own (Unicode's "other symbol": emoji and the like). */
    public static boolean isNameSymbol(int c) {
        return c >= 0x80 && Character.getType(c) == Character.OTHER_SYMBOL;
    }
}
