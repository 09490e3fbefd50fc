package org.groovecast.liquidsoap.prelude;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Tuple;

/**
 * {@code file.cover(path)}: the picture embedded in a file's tags, read from the file itself (an
 * ID3v2 tag's APIC or PIC frame, a FLAC PICTURE block), as {@code metadata.cover} answers it from
 * the same frame; null when the file has none. Liquidsoap gets it from its decoders' metadata;
 * Groovecast's decoders do not hand pictures to scripts, so the tags are read here.
 */
final class FileCover {
    private FileCover() {}

    /** Tags larger than this are not read (a picture-laden tag is a few MB). */
    private static final int MAX_TAG = 64 << 20;

    static void register(Library lib) {
        lib.function(
                "file.cover",
                "(string) -> string.{mime : string}?",
                "The cover art embedded in a file (ID3v2 APIC or PIC, FLAC PICTURE), or null.",
                a -> {
                    String name = a.string(0);
                    try {
                        return cover(FileFunctions.path(name));
                    } catch (NoSuchFileException e) {
                        throw Errors.of("file", "file.cover: no such file " + name);
                    } catch (IOException e) {
                        throw Errors.of("file", "file.cover: " + name + ": " + e.getMessage());
                    }
                });
    }

    static Object cover(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] head = in.readNBytes(10);
            if (head.length == 10 && head[0] == 'I' && head[1] == 'D' && head[2] == '3')
                return id3(head, in);
            if (head.length >= 4
                    && head[0] == 'f'
                    && head[1] == 'L'
                    && head[2] == 'a'
                    && head[3] == 'C') return flac(Arrays.copyOfRange(head, 4, head.length), in);
            return null;
        }
    }

    private static Object id3(byte[] head, InputStream in) throws IOException {
        int version = head[3];
        int flags = head[5] & 0xff;
        int size = syncsafe(head, 6);
        if (size < 0 || size > MAX_TAG) return null;
        byte[] tag = in.readNBytes(size);
        // Before 2.4 the whole tag is unsynchronised; 2.4 marks each frame.
        if ((flags & 0x80) != 0 && version < 4) tag = resync(tag, 0, tag.length);
        int at = 0;
        if ((flags & 0x40) != 0 && version >= 3) {
            at = version == 3 ? 4 + int32(tag, 0) : syncsafe(tag, 0);
        }
        int idLength = version == 2 ? 3 : 4;
        int headerLength = version == 2 ? 6 : 10;
        while (at + headerLength <= tag.length && tag[at] != 0) {
            String id = new String(tag, at, idLength, java.nio.charset.StandardCharsets.ISO_8859_1);
            int length =
                    switch (version) {
                        case 2 -> int24(tag, at + 3);
                        case 3 -> int32(tag, at + 4);
                        default -> syncsafe(tag, at + 4);
                    };
            int start = at + headerLength;
            if (length < 0 || start + length > tag.length) return null;
            if (id.equals("APIC") || id.equals("PIC")) {
                byte[] body = frame(tag, version, at, start, length);
                String key = id.equals("APIC") ? "apic" : "pic";
                return CoverArt.cover(null, List.of(Tuple.of(key, BinaryStrings.of(body))));
            }
            at = start + length;
        }
        return null;
    }

    /** A frame's content: 2.4's data length indicator skipped, its unsynchronisation undone. */
    private static byte[] frame(byte[] tag, int version, int at, int start, int length) {
        if (version < 4) return Arrays.copyOfRange(tag, start, start + length);
        int format = tag[at + 9] & 0xff;
        int from = (format & 0x01) != 0 ? start + 4 : start;
        return (format & 0x02) != 0
                ? resync(tag, from, start + length)
                : Arrays.copyOfRange(tag, from, start + length);
    }

    private static Object flac(byte[] rest, InputStream in) throws IOException {
        InputStream blocks =
                new java.io.SequenceInputStream(new java.io.ByteArrayInputStream(rest), in);
        while (true) {
            byte[] header = blocks.readNBytes(4);
            if (header.length < 4) return null;
            int type = header[0] & 0x7f;
            int length = int24(header, 1);
            if (type == 6) {
                byte[] body = blocks.readNBytes(length);
                return CoverArt.cover(
                        null, List.of(Tuple.of("metadata_block_picture", BinaryStrings.of(body))));
            }
            if ((header[0] & 0x80) != 0) return null;
            blocks.skipNBytes(length);
        }
    }

    /** ID3v2's unsynchronisation undone: each 0xFF 0x00 is 0xFF. */
    private static byte[] resync(byte[] b, int from, int to) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(to - from);
        for (int i = from; i < to; i++) {
            out.write(b[i]);
            if ((b[i] & 0xff) == 0xff && i + 1 < to && b[i + 1] == 0) i++;
        }
        return out.toByteArray();
    }

    private static int syncsafe(byte[] b, int at) {
        return (b[at] & 0x7f) << 21
                | (b[at + 1] & 0x7f) << 14
                | (b[at + 2] & 0x7f) << 7
                | (b[at + 3] & 0x7f);
    }

    private static int int32(byte[] b, int at) {
        return (b[at] & 0xff) << 24
                | (b[at + 1] & 0xff) << 16
                | (b[at + 2] & 0xff) << 8
                | (b[at + 3] & 0xff);
    }

    private static int int24(byte[] b, int at) {
        return (b[at] & 0xff) << 16 | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff);
    }
}
