package org.groovecast.ffmpeg.playlist;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.groovecast.api.Metadata;
import org.groovecast.ffmpeg.playlist.PlaylistParser.Format;
import org.junit.jupiter.api.Test;

class PlaylistParserTest {
    static final Path BASE = Path.of("/music/lists");

    static List<Request> m3u(byte[] bytes) {
        return PlaylistParser.parse(bytes, Format.M3U, BASE);
    }

    @Test
    void aLatin1M3uIsReadAsWindows1252WithItsAccents() {
        byte[] latin1 =
                "#EXTM3U\n#EXTINF:215,Zoé - Crème brûlée\nCafé.mp3\n../Ölmühle.mp3\n"
                        .getBytes(ISO_8859_1);
        List<Request> r = m3u(latin1);
        assertEquals(
                List.of("Café.mp3", "../Ölmühle.mp3"),
                r.stream().map(Request::uri).toList(),
                "entries as written: the station resolves them against the playlist's directory");
        assertEquals(List.of(BASE, BASE), r.stream().map(Request::baseDir).toList());
        assertEquals(
                Map.of("extinf_duration", "215", "artist", "Zoé", "title", "Crème brûlée"),
                r.get(0).annotations());
        assertEquals(
                Metadata.EMPTY, r.get(1).annotations(), "an EXTINF is for the next entry only");
    }

    @Test
    void windows1252PunctuationAndValidUtf8() {
        byte[] cp1252 =
                "#EXTINF:1,It’s “quoted” – €\n/a.mp3\n".getBytes(Charset.forName("windows-1252"));
        assertEquals("It’s “quoted” – €", m3u(cp1252).get(0).annotations().get("title"));
        byte[] utf8 = "#EXTINF:1,Ангел - Ölmühle 日本\n/a.mp3\n".getBytes(UTF_8);
        assertEquals(
                Map.of("extinf_duration", "1", "artist", "Ангел", "title", "Ölmühle 日本"),
                m3u(utf8).get(0).annotations());
    }

    @Test
    void anM3u8IsUtf8EvenWhenMalformed() {
        byte[] bytes = "#EXTINF:1,Caf\u00e9\n/a.mp3\n".getBytes(ISO_8859_1);
        assertEquals(
                "Caf\uFFFD",
                PlaylistParser.parse(bytes, Format.M3U8, BASE).get(0).annotations().get("title"));
    }

    @Test
    void aByteOrderMarkIsNotPartOfTheFirstEntry() {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] body = "/music/a.mp3\r\n/music/b.mp3\r\n".getBytes(UTF_8);
        byte[] all = new byte[bom.length + body.length];
        System.arraycopy(bom, 0, all, 0, 3);
        System.arraycopy(body, 0, all, 3, body.length);
        assertEquals(
                List.of("/music/a.mp3", "/music/b.mp3"),
                m3u(all).stream().map(Request::uri).toList());
        byte[] utf16 =
                "\uFEFF#EXTINF:1,Été\r\n/music/a.mp3\r\n".getBytes(Charset.forName("UTF-16LE"));
        assertEquals("Été", m3u(utf16).get(0).annotations().get("title"));
        assertEquals("/music/a.mp3", m3u(utf16).get(0).uri());
    }

    @Test
    void extinfFormsAndAnnotations() {
        String text =
                """
                #EXTM3U
                #EXTINF:-1 tvg-id="news.fr" tvg-name="Info, 24" group-title=News,Info 24
                #EXTVLCOPT:network-caching=1000
                http://example.com/live.ts
                #EXTINF:12.5,Just a title
                a.mp3
                #EXTINF:7,Mr. A - B - Live
                annotate:title="Own":b.mp3
                #EXTINF:,
                c.mp3
                """;
        List<Request> r = m3u(text.getBytes(UTF_8));
        assertEquals(
                List.of(
                        "http://example.com/live.ts",
                        "a.mp3",
                        "annotate:title=\"Own\":b.mp3",
                        "c.mp3"),
                r.stream().map(Request::uri).toList(),
                "prefixes stay for the station to resolve");
        assertEquals(
                Map.of(
                        "tvg-id",
                        "news.fr",
                        "tvg-name",
                        "Info, 24",
                        "group-title",
                        "News",
                        "title",
                        "Info 24"),
                r.get(0).annotations(),
                "a duration of -1 is no duration");
        assertEquals(
                Map.of("extinf_duration", "12.5", "title", "Just a title"), r.get(1).annotations());
        assertEquals(
                Map.of("extinf_duration", "7", "artist", "Mr. A", "title", "B - Live"),
                r.get(2).annotations(),
                "split at the first ' - '; the entry's annotate: title wins when it is resolved (ProtocolsSpec)");
        assertEquals(Metadata.EMPTY, r.get(3).annotations());
    }

    @Test
    void plsFilesWithTitlesInWindows1252() {
        String text =
                "[playlist]\nFile1=Café.mp3\nTitle1=Zoé - Crème\nLength1=12\nFile2=/abs/b.mp3\nNumberOfEntries=2\nVersion=2\n";
        List<Request> r = PlaylistParser.parse(text.getBytes(ISO_8859_1), Format.PLS, BASE);
        assertEquals(List.of("Café.mp3", "/abs/b.mp3"), r.stream().map(Request::uri).toList());
        assertEquals(Map.of("artist", "Zoé", "title", "Crème"), r.get(0).annotations());
        assertEquals(Metadata.EMPTY, r.get(1).annotations());
    }

    @Test
    void noInputMakesItThrow() {
        Random random = new Random(12);
        String[] pieces = {
            "#EXTINF:",
            "-1",
            " a=\"",
            "=",
            ",",
            " - ",
            "\n",
            "\r",
            "annotate:",
            "x=\"1\":",
            "\u0000",
            "File1=",
            "Title1=",
            "\"",
            "\\",
            "\u00e9",
            "\uFEFF"
        };
        for (int round = 0; round < 20_000; round++) {
            StringBuilder b = new StringBuilder();
            for (int i = random.nextInt(12); i > 0; i--)
                b.append(pieces[random.nextInt(pieces.length)]);
            byte[] bytes = b.toString().getBytes(random.nextBoolean() ? UTF_8 : ISO_8859_1);
            if (random.nextInt(4) == 0 && bytes.length > 0)
                bytes[random.nextInt(bytes.length)] = (byte) random.nextInt();
            for (Format f : Format.values()) PlaylistParser.parse(bytes, f, BASE);
        }
    }
}
