package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.groovecast.liquidsoap.eval.Liq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** playlist.parse.cue.full, playlist.parse.cue and playlist.parse.get_file. */
class CueSheetsTest {
    private static final String SHEET =
            "sheet = 'REM GENRE Ska\\r\\n"
                    + "REM DATE 1991\\n"
                    + "CATALOG 123\\n"
                    + "PERFORMER \"The Band\"\\n"
                    + "TITLE \"Singles\"\\n"
                    + "FILE \"a \\\"b\\\".wav\" WAVE\\n"
                    + "  TRACK 01 AUDIO\\n"
                    + "    TITLE \"One\"\\n"
                    + "    INDEX 01 00:00:00\\n"
                    + "  TRACK 02 AUDIO\\n"
                    + "    TITLE \"Two\"\\n"
                    + "    PERFORMER \"Guest\"\\n"
                    + "    REM ALBUM \"Other\"\\n"
                    + "    PREGAP 00:01:00\\n"
                    + "    NONSENSE here\\n"
                    + "    INDEX 00 02:47:74\\n"
                    + "    INDEX 01 02:48:27\\n"
                    + "FILE next.mp3 MP3\\n"
                    + "  TRACK 03 AUDIO\\n"
                    + "    INDEX 01 117:19:00\\n"
                    + "  TRACK 04 AUDIO\\n"
                    + "    TITLE \"No index\"'\n";

    @Test
    void sheetsAreReadAsLiquidsoapReadsThem() {
        assertEquals(
                "({catalog=\"123\", performer=\"The Band\", title=\"Singles\"}, [(\"date\", \"1991\"), (\"genre\", \"Ska\")], 4)",
                Liq.value(
                        SHEET
                                + "s = playlist.parse.cue.full(sheet)\n"
                                + "({catalog=s?.catalog, performer=s?.performer, title=s?.title}, s.rem, list.length(s.tracks))"));
        assertEquals(
                "[(1, \"audio\", \"One\", null, null, null, [(1, {file_type=\"wave\", filename=\"a \\\"b\\\".wav\", frames=0, minutes=0, seconds=0})]),"
                        + " (2, \"audio\", \"Two\", \"Guest\", \"Other\", {frames=0, minutes=0, seconds=1},"
                        + " [(0, {file_type=\"wave\", filename=\"a \\\"b\\\".wav\", frames=74, minutes=2, seconds=47}),"
                        + " (1, {file_type=\"wave\", filename=\"a \\\"b\\\".wav\", frames=27, minutes=2, seconds=48})]),"
                        + " (3, \"audio\", null, null, null, null, [(1, {file_type=\"mp3\", filename=\"next.mp3\", frames=0, minutes=117, seconds=19})]),"
                        + " (4, \"audio\", \"No index\", null, null, null, [])]",
                Liq.value(
                        SHEET
                                + "list.map(fun (t) -> (t.position, t?.track_type, t?.title, t?.performer, t?.album, t?.pregap,"
                                + " t.indexes), playlist.parse.cue.full(sheet).tracks)"));
    }

    @Test
    void sheetsAreReadAsPlaylistsWithTheirCuePoints() {
        assertEquals(
                "[([(\"liq_cue_out\", \"167.986666667\"), (\"album\", \"Singles\"), (\"title\", \"One\"),"
                        + " (\"artist\", \"The Band\"), (\"catalog\", \"123\"), (\"tracknumber\", \"1\"),"
                        + " (\"year\", \"1991\"), (\"genre\", \"Ska\")], \"a \\\"b\\\".wav\"),"
                        + " ([(\"liq_cue_in\", \"168.36\"), (\"album\", \"Other\"), (\"title\", \"Two\"),"
                        + " (\"albumartist\", \"The Band\"), (\"artist\", \"Guest\"), (\"catalog\", \"123\"),"
                        + " (\"tracknumber\", \"2\"), (\"liq_index_zero_filename\", \"a \\\"b\\\".wav\"),"
                        + " (\"liq_index_zero\", \"167.986666667\"), (\"liq_pregap\", \"1.0\"),"
                        + " (\"year\", \"1991\"), (\"genre\", \"Ska\")], \"a \\\"b\\\".wav\"),"
                        + " ([(\"liq_cue_in\", \"7039.0\"), (\"album\", \"Singles\"), (\"artist\", \"The Band\"),"
                        + " (\"catalog\", \"123\"), (\"tracknumber\", \"3\"), (\"year\", \"1991\"), (\"genre\", \"Ska\")], \"next.mp3\")]",
                Liq.value(SHEET + "playlist.parse.cue(sheet)"));
        assertEquals("[]", Liq.value("playlist.parse.cue(\"TITLE x\")"));
        Registered.withTypes("playlist.parse.cue.full", "playlist.parse.get_file");
    }

    @Test
    void pathsAreRelativeToPwdWhenTheFileIsThere(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("here.mp3"), "");
        String pwd = "\"" + dir + "\"";
        assertEquals(
                "(\""
                        + dir.resolve("here.mp3")
                        + "\", \"gone.mp3\", \"http://x/a.mp3\", \"/abs.mp3\")",
                Liq.value(
                        "(playlist.parse.get_file(pwd="
                                + pwd
                                + ", \"here.mp3\"),"
                                + " playlist.parse.get_file(pwd="
                                + pwd
                                + ", \"gone.mp3\"),"
                                + " playlist.parse.get_file(pwd=\"http://x/\", \"a.mp3\"),"
                                + " playlist.parse.get_file(\"/abs.mp3\"))"));
    }
}
