package org.groovecast.ffmpeg.autocue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Metadata;
import org.groovecast.api.RequestResolver;
import org.groovecast.ffmpeg.Wavs;
import org.groovecast.ffmpeg.Wavs.Part;
import org.junit.jupiter.api.Test;

class AutocueTest {
    static final Path DIR = Path.of("target", "autocue");
    static final AudioFormat FORMAT = AudioFormat.DEFAULT;

    static Path padded() throws IOException {
        return Wavs.write(
                DIR.resolve("padded.wav"), Part.silence(1), Part.tone(5, 0.5), Part.silence(2));
    }

    @Test
    void silenceAroundATrackIsCutAway() throws IOException {
        LoudnessProfile p = LoudnessProfile.measure(padded().toString(), FORMAT);
        assertEquals(8.0, p.duration(), 0.01);
        assertEquals(80, p.momentary().length);
        AutocuePoints c = AutocuePoints.of(p, AutocueParams.DEFAULTS);
        // Liquidsoap's margins: 0.1 s ahead of the first loud reading, then a 0.2 s fade-in.
        assertTrue(c.cueIn() > 0.5 && c.cueIn() < 1.0, "cue in " + c);
        assertEquals(0.2, c.fadeIn(), 1e-9, "fade in " + c);
        assertTrue(c.cueIn() + c.fadeIn() <= 1.0, "sound reached by the fade's end " + c);
        assertTrue(c.cueOut() >= 6.0 && c.cueOut() <= 6.5, "cue out " + c);
        assertTrue(c.fadeOut() < 0.5, "a tone stopping dead needs no fade " + c);
    }

    @Test
    void aQuietTrackIsAmplifiedAndALoudOneAttenuated() throws IOException {
        Path quiet = Wavs.write(DIR.resolve("quiet.wav"), Part.tone(4, 0.02));
        Path loud = Wavs.write(DIR.resolve("loud.wav"), Part.tone(4, 0.9));
        AutocuePoints q =
                AutocuePoints.of(
                        LoudnessProfile.measure(quiet.toString(), FORMAT), AutocueParams.DEFAULTS);
        AutocuePoints l =
                AutocuePoints.of(
                        LoudnessProfile.measure(loud.toString(), FORMAT), AutocueParams.DEFAULTS);
        // A 1 kHz sine of peak A in both channels reads 20 log10(A) LUFS (EBU Tech 3341's first
        // case): -34.0 for 0.02, -0.9 for 0.9.
        assertEquals(-14 + 34.0, q.amplify(), 0.3, "quiet " + q);
        assertEquals(-14 + 0.9, l.amplify(), 0.3, "loud " + l);
        assertEquals(0, q.cueIn(), 1e-9, "a track starting at once starts at 0");
    }

    @Test
    void aSilentFileHasNoCues() throws IOException {
        Path silent = Wavs.write(DIR.resolve("silent.wav"), Part.silence(2));
        assertNull(
                AutocuePoints.of(
                        LoudnessProfile.measure(silent.toString(), FORMAT),
                        AutocueParams.DEFAULTS));
    }

    @Test
    void aLongFadeIsCutToTheLongestOverlap() {
        // 20 s at -14, then a 10 s ramp down to -60: the crossing point is where it falls 7 LU
        // below the integrated loudness; the fade-out is limited to 6 s, the cue-out moved back.
        float[] m = new float[300];
        for (int k = 0; k < 300; k++) m[k] = k < 200 ? -14 : (float) (-14 - (k - 200) * 0.46);
        AutocuePoints c = AutocuePoints.of(new LoudnessProfile(m, -14.5, 30), REGULAR);
        assertEquals(6.0, c.fadeOut(), 1e-9, c.toString());
        double cross = 20 + Math.ceil(6.5 / 0.46) * 0.1; // last reading above -21.5, then 0.1
        assertTrue(Math.abs(c.cueOut() - c.fadeOut() - cross) < 0.21, c + " cross " + cross);
    }

    @Test
    void anEndingThatStaysLoudPlaysOutInsteadOfFading() {
        // 20 s at -14, then 8 s held at -25 (under the crossing threshold, -21), then silence.
        float[] m = new float[300];
        for (int k = 0; k < 300; k++) m[k] = k < 200 ? -14 : k < 280 ? -25 : -80;
        LoudnessProfile p = new LoudnessProfile(m, -14, 30);
        AutocuePoints regular = AutocuePoints.of(p, REGULAR);
        assertEquals(6.0, regular.fadeOut(), 1e-9, "faded from 20 s, at most 6: " + regular);
        assertEquals(26.0, regular.cueOut(), 1e-9, regular.toString());
        AutocuePoints sustained = AutocuePoints.of(p, AutocueParams.DEFAULTS);
        assertEquals(28.0, sustained.cueOut(), 1e-9, "the held note to its end: " + sustained);
        assertTrue(sustained.fadeOut() < 0.2, sustained.toString());
    }

    /** Liquidsoap's defaults without the sustained endings refinement. */
    static final AutocueParams REGULAR =
            new AutocueParams(
                    -14, -34, -42, -7, 6, new AutocueParams.Sustained(false, 15, 20, 1, 2));

    @Test
    void metadataIsLiquidsoapsAutocueMetadata() {
        Map<String, String> m = AutocueMetadata.of(new AutocuePoints(0.7, 6.4, 0.2, 1.5, 3.25));
        assertEquals("internal", m.get("liq_autocue"));
        assertEquals("0.7", m.get("liq_cue_in"));
        assertEquals("6.4", m.get("liq_cue_out"));
        assertEquals("0.2", m.get("liq_fade_in"));
        assertEquals("1.5", m.get("liq_fade_out"));
        assertEquals("1.5", m.get("liq_cross_end_duration"));
        assertEquals("1.5", m.get("liq_cross_duration"));
        assertEquals("4.2", m.get("liq_cross_max_start_duration"));
        assertEquals("3.25 dB", m.get("liq_amplify"));
        // a start_next before the fade-out delays the fade-out by the difference
        Map<String, String> early = AutocueMetadata.of("x", 0, 10, 0, 2, 7.0, null);
        assertEquals("1", early.get("liq_fade_out_delay"));
        assertEquals("3", early.get("liq_cross_end_duration"));
    }

    @Test
    void theProfileIsCachedPerFileVersion() throws IOException {
        Path f = Wavs.write(DIR.resolve("cached.wav"), Part.tone(1, 0.5));
        LoudnessProfiles cache = new LoudnessProfiles(4);
        LoudnessProfile first = cache.of(f.toString(), FORMAT);
        assertSame(first, cache.of(f.toString(), FORMAT));
        Wavs.write(f, Part.tone(2, 0.5));
        Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() + 5000));
        LoudnessProfile second = cache.of(f.toString(), FORMAT);
        assertNotSame(first, second);
        assertEquals(2.0, second.duration(), 0.01);
    }

    @Test
    void aTrackWithCuesOfItsOwnIsLeftAsItIs() throws IOException {
        TrackAnalysis on =
                new TrackAnalysis(true, false, AutocueParams.DEFAULTS, "override", FORMAT, null);
        Metadata own = Metadata.of(Map.of("liq_cue_in", "0.5"));
        assertEquals(Map.of(), on.of(padded().toString(), own));
        Metadata disabled = Metadata.of(Map.of("liq_disable_autocue", "true"));
        assertEquals(Map.of(), on.of(padded().toString(), disabled));
    }

    @Test
    void amplifyBehaviourDecidesAboutAGainTheTrackHas() throws IOException {
        Metadata tagged = Metadata.of(Map.of("replaygain_track_gain", "-1 dB"));
        String file = padded().toString();
        Map<String, String> override = analysis("override").of(file, tagged);
        assertEquals(override.get("liq_amplify"), override.get("replaygain_track_gain"));
        assertNotNull(override.get("liq_amplify"));
        Map<String, String> keep = analysis("keep").of(file, tagged);
        assertNull(keep.get("liq_amplify"));
        assertNotNull(keep.get("liq_cue_in"));
        assertNull(analysis("ignore").of(file, Metadata.EMPTY).get("liq_amplify"));
    }

    @Test
    void replayGainIsComputedForAnUntaggedFile() throws IOException {
        TrackAnalysis rg =
                new TrackAnalysis(false, true, AutocueParams.DEFAULTS, "override", FORMAT, null);
        Path loud = Wavs.write(DIR.resolve("loud.wav"), Part.tone(4, 0.9));
        String gain = rg.of(loud.toString(), Metadata.EMPTY).get("replaygain_track_gain");
        assertNotNull(gain);
        assertEquals(-18 + 0.9, Double.parseDouble(gain.replace(" dB", "")), 0.3);
        Metadata tagged = Metadata.of(Map.of("replaygain_track_gain", "-3 dB"));
        assertEquals(Map.of(), rg.of(loud.toString(), tagged));
    }

    @Test
    void aScriptsOwnImplementationComesFirstAndTheFileIsNotMeasured() throws IOException {
        RequestResolver script =
                new RequestResolver() {
                    @Override
                    public double timeout() {
                        return 1;
                    }

                    @Override
                    public <T> T resolve(String uri, Path baseDir, double timeout, Opener<T> o) {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public Metadata fileMetadata(String file, Metadata metadata) {
                        return Metadata.of(
                                "liq_autocue", "mine", "liq_cue_in", "0.5", "liq_amplify", "-2 dB");
                    }
                };
        TrackAnalysis keep =
                new TrackAnalysis(true, false, AutocueParams.DEFAULTS, "keep", FORMAT, script);
        Map<String, String> out = keep.of(padded().toString(), Metadata.of("liq_amplify", "1 dB"));
        assertEquals("mine", out.get("liq_autocue"));
        assertEquals("0.5", out.get("liq_cue_in"));
        assertNull(out.get("liq_cue_out"), "nothing measured: " + out);
        assertNull(out.get("liq_amplify"), "keep: the track's own gain stays");
    }

    private static TrackAnalysis analysis(String amplify) {
        return new TrackAnalysis(true, false, AutocueParams.DEFAULTS, amplify, FORMAT, null);
    }
}
