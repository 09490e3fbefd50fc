package org.groovecast.ffmpeg.hls;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.groovecast.api.Frame;
import org.groovecast.api.Source;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A reload of output.file.hls with publish: never leaves the new output without a publisher. */
class HlsOutputHandOverTest {
    @TempDir Path dir;

    static Source silence() {
        return new Source("test") {
            @Override
            public boolean isReady() {
                return false;
            }

            @Override
            public boolean isFallible() {
                return true;
            }

            @Override
            protected void generate(Frame frame) {}
        };
    }

    @Test
    void aPredecessorThatStoppedBeforeTheHandOverLeavesANewPublisher() throws Exception {
        URI origin = URI.create("http://127.0.0.1:9/live/");
        HlsOutput old = new HlsOutput(dir, Map.of(), silence(), 1, 3, true, origin, Map.of());
        old.start();
        assertTrue(old.publishing());
        HlsOutput next = new HlsOutput(dir, Map.of(), silence(), 1, 3, true, origin, Map.of());
        next.follow(old);
        next.start();
        assertFalse(next.publishing(), "it waits to take the predecessor's over");
        old.stop(); // a failed output, stopped by its clock before the reload hands over
        next.adopt(old);
        assertTrue(next.publishing(), "a publisher of its own, not none for the whole run");
        next.stop();
        next.shutdown();
        old.shutdown();
    }
}
