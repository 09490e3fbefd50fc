package org.groovecast.liquidsoap.parser;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.groovecast.liquidsoap.lexer.SourceText;
import org.groovecast.liquidsoap.syntax.SyntaxError;

/** A script file's bytes as text: UTF-8, as Liquidsoap reads it, or a located error. */
final class ScriptText {
    private ScriptText() {}

    static SourceText decode(String name, byte[] bytes) {
        CharsetDecoder decoder =
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isUnderflow()) result = decoder.flush(out);
        String text = out.flip().toString();
        if (result.isError()) {
            SourceText prefix = new SourceText(name, text);
            int bad = bytes[in.position()] & 0xff;
            throw new SyntaxError(
                    prefix.span(text.length(), text.length()),
                    String.format("not UTF-8 text (byte 0x%02X)", bad));
        }
        return new SourceText(name, text);
    }
}
