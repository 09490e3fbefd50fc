package org.groovecast.core;

import static org.groovecast.api.ValueType.ENCODER;
import static org.groovecast.api.ValueType.INTEGER;

import java.util.List;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.pf4j.Extension;

/** Encoders written in Java, needing no native library. */
@Extension
public final class EncoderOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("wav")
                        .doc(
                                "PCM WAV; the header gets its real sizes when the output stops cleanly.")
                        .named("samplesize", INTEGER, 16, "bits per sample: 16 or 24")
                        .returns(ENCODER)
                        .create(a -> new WavEncoder(a.integer("samplesize"))));
    }
}
