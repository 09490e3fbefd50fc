package org.groovecast.liquidsoap.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.groovecast.liquidsoap.eval.Format;
import org.junit.jupiter.api.Test;

/** What engine encoder each Liquidsoap format becomes, with which of its parameters. */
class EncodersTest {
    private final List<String> made = new ArrayList<>();

    private final Encoders encoders =
            new Encoders(
                    new Encoders.Maker() {
                        @Override
                        public Object make(String operator, Map<String, Object> named) {
                            made.add(operator + " " + named);
                            return null;
                        }

                        @Override
                        public boolean has(String operator) {
                            return true;
                        }

                        @Override
                        public void note(String message) {}
                    });

    @Test
    void vorbisKeepsItsQualityAndItsBitRateVariantsTheirBitRate() {
        encoders.encoder(new Format("vorbis", List.of(new Format.Param("quality", 0.6))));
        encoders.encoder(new Format("vorbis.cbr", List.of(new Format.Param("bitrate", 128L))));
        encoders.encoder(new Format("vorbis.abr", List.of(new Format.Param("bitrate", 96L))));
        assertEquals(
                List.of("vorbis {quality=0.6}", "vorbis {bitrate=128}", "vorbis {bitrate=96}"),
                made);
    }
}
