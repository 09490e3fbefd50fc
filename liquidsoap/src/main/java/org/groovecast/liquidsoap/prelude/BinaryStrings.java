package org.groovecast.liquidsoap.prelude;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Bytes in the Java strings scripts hold. Liquidsoap's strings are bytes, ours are characters:
 * bytes that are UTF-8 text are held as that text, bytes that are not (a picture decoded from
 * base64, a binary file's contents) one character per byte, U+0000 to U+00FF, so that they come
 * back out as the same bytes. Going out, a string that holds a character of the C1 range (U+0080 to
 * U+009F, never in text) or U+0000 is such bytes; any other string is text, written as UTF-8.
 */
final class BinaryStrings {
    private BinaryStrings() {}

    /** {@code bytes} as a string: their text when they are UTF-8, else one char per byte. */
    static String of(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
    }

    /** The bytes {@code s} stands for (see the class comment). */
    static byte[] bytes(String s) {
        return isBinary(s)
                ? s.getBytes(StandardCharsets.ISO_8859_1)
                : s.getBytes(StandardCharsets.UTF_8);
    }

    /** Whether {@code s} holds bytes rather than text. */
    static boolean isBinary(String s) {
        boolean marker = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c > 0xFF) return false;
            if (c == 0 || (c >= 0x80 && c <= 0x9F)) marker = true;
        }
        return marker;
    }
}
