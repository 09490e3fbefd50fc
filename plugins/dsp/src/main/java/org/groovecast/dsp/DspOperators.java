package org.groovecast.dsp;

import static org.groovecast.api.ValueType.BOOLEAN;
import static org.groovecast.api.ValueType.FUNCTION;
import static org.groovecast.api.ValueType.NUMBER;
import static org.groovecast.api.ValueType.SOURCE;

import java.util.List;
import org.groovecast.api.Arguments;
import org.groovecast.api.OperatorProvider;
import org.groovecast.api.OperatorSpec;
import org.groovecast.api.ScriptException;
import org.pf4j.Extension;

/** Loudness, dynamics and dead air. */
@Extension
public final class DspOperators implements OperatorProvider {
    @Override
    public List<OperatorSpec> operators() {
        return List.of(
                OperatorSpec.named("normalize")
                        .doc(
                                "Brings the short-term loudness (EBU R128) to a target with a smooth gain.")
                        .positional("source", SOURCE, "the source")
                        .named("target", NUMBER, -14.0, "LUFS")
                        .named("maxGain", NUMBER, 12.0, "dB of gain at most")
                        .named("rate", NUMBER, 3.0, "dB per second the gain may move")
                        .named(
                                "lufs",
                                BOOLEAN,
                                true,
                                "EBU R128 loudness (LUFS); false for the plain RMS level (dBFS)")
                        .named(
                                "threshold",
                                NUMBER,
                                -40.0,
                                "LUFS (dBFS without lufs) below which the gain is held, not adapted")
                        .method("gain", "the gain applied now, dB")
                        .returns(SOURCE)
                        .create(
                                a ->
                                        new Normalize(
                                                a.source("source"),
                                                a.number("target"),
                                                a.number("maxGain"),
                                                positive(a, "rate", "normalize"),
                                                a.bool("lufs"),
                                                a.number("threshold"))),
                OperatorSpec.named("lufs")
                        .doc(
                                "Passes its source and measures its loudness: m.momentary, m.shortTerm, m.integrated (LUFS).")
                        .positional("source", SOURCE, "the source")
                        .method("momentary", "loudness over the last 400 ms")
                        .method("shortTerm", "loudness over the last 3 s")
                        .method("integrated", "gated loudness since the start")
                        .returns(SOURCE)
                        .create(a -> new Lufs(a.source("source"))),
                OperatorSpec.named("compress")
                        .doc("A compressor: above the threshold the level rises 1/ratio as fast.")
                        .positional("source", SOURCE, "the source")
                        .named("threshold", NUMBER, -20.0, "dBFS")
                        .named("ratio", NUMBER, 4.0, "compression ratio, >= 1")
                        .named("attack", NUMBER, 10.0, "ms")
                        .named("release", NUMBER, 100.0, "ms")
                        .named("gain", NUMBER, 0.0, "make-up gain, dB")
                        .returns(SOURCE)
                        .create(
                                a -> {
                                    if (a.number("ratio") < 1)
                                        throw new ScriptException(
                                                "compress(): ratio must be at least 1, got "
                                                        + a.number("ratio"));
                                    return new Compress(
                                            a.source("source"),
                                            a.number("threshold"),
                                            a.number("ratio"),
                                            positive(a, "attack", "compress"),
                                            positive(a, "release", "compress"),
                                            a.number("gain"));
                                }),
                OperatorSpec.named("compress.exponential")
                        .doc(
                                "An exponential compressor on each sample, sign(x)(1 - (1 - |x|)^mu), as Liquidsoap's: quiet samples rise; mu 1 changes nothing.")
                        .positional("source", SOURCE, "the source")
                        .named("mu", NUMBER, 2.0, "compression factor, typically above 1")
                        .range(0.01, 100)
                        .returns(SOURCE)
                        .create(a -> new ExponentialCompress(a.source("source"), a.number("mu"))),
                OperatorSpec.named("limit")
                        .doc(
                                "A look-ahead limiter: no sample (nor estimated inter-sample peak) above the threshold.")
                        .positional("source", SOURCE, "the source")
                        .named("threshold", NUMBER, -1.0, "dBFS")
                        .named("lookahead", NUMBER, 5.0, "ms of delay and look-ahead")
                        .named("release", NUMBER, 50.0, "ms")
                        .returns(SOURCE)
                        .create(
                                a ->
                                        new Limit(
                                                a.source("source"),
                                                a.number("threshold"),
                                                positive(a, "lookahead", "limit"),
                                                positive(a, "release", "limit"))),
                OperatorSpec.named("blank.detect")
                        .doc(
                                "Calls the function when the source has been silent for maxBlank seconds.")
                        .positional("source", SOURCE, "the source")
                        .named("threshold", NUMBER, -40.0, "dBFS under which audio is silence")
                        .named("maxBlank", NUMBER, 20.0, "seconds of silence")
                        .positional("onBlank", FUNCTION, "called once per silence")
                        .calls()
                        .returns(SOURCE)
                        .create(
                                a ->
                                        new BlankDetect(
                                                a.source("source"),
                                                a.number("threshold"),
                                                positive(a, "maxBlank", "blank.detect"),
                                                a.function("onBlank"))),
                OperatorSpec.named("blank.strip")
                        .doc(
                                "Unavailable while the source has been silent for maxBlank seconds (for a fallback).")
                        .positional("source", SOURCE, "the source")
                        .named("threshold", NUMBER, -40.0, "dBFS under which audio is silence")
                        .named("maxBlank", NUMBER, 20.0, "seconds of silence")
                        .returns(SOURCE)
                        .create(
                                a ->
                                        new BlankStrip(
                                                a.source("source"),
                                                a.number("threshold"),
                                                positive(a, "maxBlank", "blank.strip"))),
                OperatorSpec.named("blank.skip")
                        .doc("Ends the track once it has been silent for maxBlank seconds.")
                        .positional("source", SOURCE, "the source")
                        .named("threshold", NUMBER, -40.0, "dBFS under which audio is silence")
                        .named("maxBlank", NUMBER, 20.0, "seconds of silence")
                        .returns(SOURCE)
                        .create(
                                a ->
                                        new BlankSkip(
                                                a.source("source"),
                                                a.number("threshold"),
                                                positive(a, "maxBlank", "blank.skip"))));
    }

    private static double positive(Arguments a, String name, String op) {
        double v = a.number(name);
        if (!(v > 0)) throw new ScriptException(op + "(): " + name + " must be positive, got " + v);
        return v;
    }
}
