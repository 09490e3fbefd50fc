package org.groovecast.ffmpeg.playlist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.Metadata;
import org.groovecast.api.ResolvedRequest;
import org.groovecast.ffmpeg.Wavs;
import org.groovecast.ffmpeg.Wavs.Part;
import org.groovecast.ffmpeg.autocue.AutocueParams;
import org.groovecast.ffmpeg.autocue.TrackAnalysis;
import org.junit.jupiter.api.Test;

/** A track a request source opens with autocue on starts and ends where the measurement says. */
class TrackAutocueTest {
    static final Path DIR = Path.of("target", "track-autocue");
    static final AudioFormat FORMAT = AudioFormat.DEFAULT;

    /** The file AutocueTest measures: a tone with a second of silence before it, two after. */
    static Path padded() throws IOException {
        return Wavs.write(
                DIR.resolve("padded.wav"), Part.silence(1), Part.tone(5, 0.5), Part.silence(2));
    }

    @Test
    void aTrackOpensAtItsMeasuredCues() throws IOException {
        TrackAnalysis on =
                new TrackAnalysis(true, false, AutocueParams.DEFAULTS, "override", FORMAT, null);
        try (Track t = open(padded(), Metadata.EMPTY, on)) {
            double cueIn = Double.parseDouble(t.metadata().get("liq_cue_in"));
            double cueOut = Double.parseDouble(t.metadata().get("liq_cue_out"));
            assertTrue(cueIn > 0.5 && cueOut < 6.5, t.metadata().toString());
            assertEquals(cueOut - cueIn, FORMAT.seconds(t.remaining(FORMAT)), 0.05);
        }
    }

    private static Track open(Path file, Metadata metadata, TrackAnalysis analysis)
            throws IOException {
        ResolvedRequest r =
                new ResolvedRequest() {
                    @Override
                    public String file() {
                        return file.toString();
                    }

                    @Override
                    public Metadata metadata() {
                        return metadata;
                    }

                    @Override
                    public void close() {}
                };
        return Track.open(Request.of(file.toString()), r, FORMAT, null, 1, analysis);
    }
}
