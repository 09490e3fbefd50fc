package org.groovecast.net.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.groovecast.api.AudioFormat;
import org.groovecast.api.ClockInfo;
import org.groovecast.api.Encoder;
import org.groovecast.api.Frame;
import org.groovecast.api.Generator;
import org.groovecast.api.Metadata;
import org.groovecast.api.StreamContext;
import org.groovecast.api.VideoFormat;
import org.junit.jupiter.api.Test;

/** What an output whose format carries titles in band (Ogg) gives its encoder at each title. */
class EncodedOutputTest {
    private static final AudioFormat FORMAT = new AudioFormat(1000, 1);

    private final List<Metadata> opened = new ArrayList<>();
    private boolean failClose;

    @Test
    void aTracksStreamCarriesOnlyTheExportedTagsNeverTheServersPaths() throws IOException {
        Out out = new Out();
        out.prepareOutput(context());
        out.open();
        out.send(
                frameWith(
                        Metadata.of(
                                Map.of(
                                        "title", "Song",
                                        "artist", "Band",
                                        "filename", "/srv/music/song.mp3",
                                        "liq_cue_in", "1.5",
                                        "request_id", "7"))));
        assertEquals(Map.of("title", "Song", "artist", "Band"), Map.copyOf(opened.getLast()));
    }

    @Test
    void aCloseThatFailsLeavesNoClosedStreamToEncodeInto() throws IOException {
        Out out = new Out();
        out.prepareOutput(context());
        out.open();
        failClose = true;
        assertThrows(IOException.class, () -> out.send(frameWith(Metadata.of("title", "A"))));
        failClose = false;
        out.close(); // with the closed session kept, this closed it a second time and threw
    }

    private static Frame frameWith(Metadata m) {
        Frame f = new Frame(FORMAT, 10);
        f.addMetadata(0, m);
        return f;
    }

    private final class Out extends EncodedOutput {
        Out() {
            super(
                    "output.test",
                    new Chained(),
                    new Generator("silence") {
                        @Override
                        protected void generate(Frame frame) {}
                    },
                    false);
        }

        @Override
        protected void deliver(ByteBuf chunk) {
            chunk.release();
        }

        @Override
        protected void title(String song) {}
    }

    private final class Chained implements Encoder {
        @Override
        public String name() {
            return "chained";
        }

        @Override
        public String extension() {
            return "ogg";
        }

        @Override
        public boolean inBandMetadata() {
            return true;
        }

        @Override
        public Session open(AudioFormat format, WritableByteChannel out) {
            return open(format, null, out, Metadata.EMPTY);
        }

        @Override
        public Session open(
                AudioFormat format, VideoFormat video, WritableByteChannel out, Metadata tags) {
            opened.add(tags);
            return new Session() {
                private boolean closed;

                @Override
                public void encode(Frame frame) {}

                @Override
                public void close() throws IOException {
                    if (closed) throw new IOException("closed twice");
                    closed = true;
                    if (failClose) throw new IOException("the muxer could not write its trailer");
                }
            };
        }
    }

    private static StreamContext context() {
        return new StreamContext() {
            @Override
            public AudioFormat format() {
                return FORMAT;
            }

            @Override
            public int frameSize() {
                return 10;
            }

            @Override
            public ClockInfo clock() {
                return null;
            }

            @Override
            public Executor blocking() {
                return Runnable::run;
            }

            @Override
            public boolean realtime() {
                return true;
            }

            @Override
            public void beforeStart(Runnable blockingWork) {
                blockingWork.run();
            }
        };
    }
}
