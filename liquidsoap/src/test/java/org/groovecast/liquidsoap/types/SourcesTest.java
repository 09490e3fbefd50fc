package org.groovecast.liquidsoap.types;

import static org.groovecast.liquidsoap.types.Check.error;
import static org.groovecast.liquidsoap.types.Check.located;
import static org.groovecast.liquidsoap.types.Check.ok;
import static org.groovecast.liquidsoap.types.Check.type;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Sources with content types, encoders and what they encode. */
class SourcesTest {
    @Test
    void anEncoderEncodesWhatItsParametersSay() {
        type("format(audio=pcm(stereo))", "x = %mp3");
        type("format(audio=pcm(mono))", "x = %mp3(mono)");
        type("format(audio=pcm(mono))", "x = %vorbis(stereo=false)");
        type("format(audio=pcm(channels=3))", "x = %opus(channels=3)");
        type("format(audio=pcm(stereo), video=canvas)", "x = %avi");
        type(
                "format(audio=pcm(stereo), video=canvas)",
                "x = %ffmpeg(format=\"mpegts\", %audio(codec=\"aac\"), %video(codec=\"libx264\"))");
        type(
                "format(audio=ffmpeg.copy, video=ffmpeg.copy)",
                "x = %ffmpeg(%audio.copy, %video.copy)");
        type("format(dolby_audio=ffmpeg.audio.raw)", "x = %ffmpeg(%dolby_audio.raw)");
    }

    @Test
    void anFfmpegAudioStreamHasTheChannelsItsLayoutSays() {
        type("format(audio=pcm(5.1))", "x = %ffmpeg(%audio(channel_layout=5.1))");
        type("format(audio=pcm(channels=8))", "x = %ffmpeg(%audio(channel_layout=\"7.1\"))");
        type("format(audio=pcm(mono))", "x = %ffmpeg(%audio(ac=1))");
        type("format(audio=pcm(channels=3))", "x = %ffmpeg(%audio(channels=3, codec=\"aac\"))");
        // a layout FFmpeg does not name leaves the channel count to channels, as Liquidsoap does
        type("format(audio=pcm(mono))", "x = %ffmpeg(%audio(channel_layout=\"nope\", ac=1))");
    }

    @Test
    void anFfmpegStreamMustSayWhetherItIsAudioOrVideo() {
        ok("x = %ffmpeg(%foo(audio_content), %bla(video_content))");
        ok("x = %ffmpeg(%foo(codec=\"libmp3lame\"))");
        assertEquals(
                "t.liq:1:12: Cannot decide whether the %ffmpeg stream %foo is audio or video. Use"
                        + " \"audio\" or \"video\" in its name (%dolby_audio), add audio_content or"
                        + " video_content to its parameters, or give a static codec string"
                        + " (codec=\"libmp3lame\")",
                located("x = %ffmpeg(%foo, %bla_gni)"));
        assertEquals(
                "Unknown encoder parameter: audio_content",
                error("x = %ffmpeg(%foo.copy(audio_content))"));
    }

    @Test
    void aMonoSourceCannotFeedAStereoEncoder() {
        assertEquals(
                "t.liq:1:27: this value has type source(audio=pcm(mono), _) but it should be a"
                        + " subtype of source(audio=pcm(stereo), _)",
                located("output.file(%mp3, \"o.mp3\", mean(sine()))"));
        ok("output.file(%mp3(mono), \"o.mp3\", mean(sine()))");
    }

    @Test
    void oneSourceCannotBeEncodedInStereoAndInMono() {
        assertEquals(
                "t.liq:3:34: this value has type source(audio=pcm(stereo), _) but it should be a"
                        + " subtype of source(audio=pcm(mono), _)",
                located(
                        "def f(s) =\n"
                                + "  output.file(%vorbis(stereo), \"a\", s)\n"
                                + "  output.file(%vorbis(mono), \"b\", s)\nend"));
    }

    @Test
    void annotationsOfSources() {
        ok("s = (sine() : source(audio=pcm))");
        ok("s = (sine() : source(audio=pcm(stereo), video=none, ...))");
        ok("s = (blank() : source(audio=pcm(5.1), video=canvas))");
        ok("s = (blank() : source)");
        assertEquals(
                "Unknown type constructor: pcm(bogus).",
                error("s = (blank() : source(audio=pcm(bogus)))"));
        assertEquals("Unknown type constructor: sorce.", error("s = (blank() : sorce(audio=pcm))"));
        assertEquals("Unknown type constructor: foo.", error("x = (1 : foo)"));
        // the engine defines a source's methods: the annotation takes what it is given
        ok("s = (sine() : source_methods).{extra = 1}");
    }

    @Test
    void tracksOfASource() {
        type("pcm('A)", "x = (source.tracks(sine()).audio : pcm)");
        ok(
                "let {audio, ...tracks} = source.tracks(sine())\n"
                        + "s = source(tracks.{audio = audio})\n"
                        + "output.file(%mp3, \"a\", s)");
        assertEquals(
                "this value has type pcm(mono) but it should be a subtype of ffmpeg.copy('A)",
                error("let {audio} = source.tracks(mean(sine()))\nx = (audio : ffmpeg.copy)"));
    }

    @Test
    void anUnsupportedEncoderIsRefusedAsLiquidsoapRefusesAMissingOne() {
        TypeChecker checker =
                TypeChecker.of(
                        new Signatures() {
                            public java.util.Map<String, String> types() {
                                return Check.BUILTINS;
                            }

                            public boolean hasEncoder(String name) {
                                return !name.equals("shine");
                            }
                        });
        TypeError e =
                org.junit.jupiter.api.Assertions.assertThrows(
                        TypeError.class,
                        () ->
                                checker.check(
                                        org.groovecast.liquidsoap.parser.Scripts.parse(
                                                "t.liq",
                                                "x = %shine",
                                                java.nio.file.Path.of("."),
                                                java.util.List.of())));
        assertEquals(
                "t.liq:1:4: Unsupported encoder: %shine. You must be missing an optional dependency.",
                e.getMessage());
    }
}
