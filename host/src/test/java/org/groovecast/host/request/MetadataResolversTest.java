package org.groovecast.host.request;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.groovecast.api.Metadata;
import org.groovecast.api.Registration;
import org.groovecast.api.UserFunction;
import org.junit.jupiter.api.Test;

/** decoder.metadata.add's resolvers, as the request sources ask them for each file. */
class MetadataResolversTest {
    final Protocols protocols = new Protocols(() -> 30, () -> 1 << 20, () -> null);

    @Test
    void eachResolverSeesWhatTheOnesBeforeItGaveAndTheirAnswersAreAdded() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        protocols.addMetadataResolver("first", args -> Map.of("liq_cue_in", "1.5"));
        protocols.addMetadataResolver(
                "second",
                args -> {
                    seen.add(args[0]);
                    seen.add(((Map<?, ?>) args[1]).get("liq_cue_in"));
                    return Map.of("mood", "calm");
                });
        Metadata added = protocols.fileMetadata("/music/a.mp3", Metadata.of("title", "A"));
        assertEquals(Map.of("liq_cue_in", "1.5", "mood", "calm"), added);
        assertEquals(List.of("/music/a.mp3", "1.5"), seen);
    }

    @Test
    void aResolverThatFailsOrAnswersNothingAddsNothingAndAReleasedOneIsNotAsked() {
        UserFunction failing =
                new UserFunction() {
                    @Override
                    public Object call(Object... args) {
                        throw new IllegalStateException("database down");
                    }
                };
        protocols.addMetadataResolver("failing", failing);
        protocols.addMetadataResolver("none", args -> null);
        Registration r = protocols.addMetadataResolver("gone", args -> Map.of("x", "1"));
        r.release();
        assertEquals(Map.of(), protocols.fileMetadata("/music/a.mp3", Metadata.EMPTY));
    }
}
