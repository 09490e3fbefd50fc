package org.groovecast.liquidsoap.eval;

import org.groovecast.liquidsoap.syntax.Span;

/**
 * A Liquidsoap error being raised: by the script ({@code error.raise}), by a function of the
 * library ({@code list.hd([])} raises {@code not_found}), or by the evaluator itself (a call with a
 * label the function does not take). A script catches it with {@code try ... catch}; uncaught, it
 * is one located line, {@code station.liq:12:4: ...}, and never a stack trace.
 */
public final class LiqError extends RuntimeException {
    private final ErrorValue error;
    private final boolean raisedByScript;
    private Span at;

    /** The calls the error went through, innermost first (Liquidsoap's {@code err.trace}). */
    private final java.util.List<Span> trace = new java.util.ArrayList<>();

    public LiqError(ErrorValue error, Span at, boolean raisedByScript) {
        super(error.message(), null, false, false);
        this.error = error;
        this.at = at;
        this.raisedByScript = raisedByScript;
    }

    public ErrorValue error() {
        return error;
    }

    public String kind() {
        return error.kind();
    }

    /** Where it was raised; null when not known (then the call that led to it says). */
    public Span at() {
        return at;
    }

    /** Locates an error raised where no place was known, at the call that led to it. */
    LiqError locate(Span span) {
        if (at == null && span != null) at = span;
        return this;
    }

    /** Records a call the error went through on its way out. */
    LiqError through(Span call) {
        if (call != null
                && (trace.isEmpty()
                        || trace.getLast()
                                != call) // identity: this runs while a stack overflow unwinds
                && trace.size() < 64) {
            trace.add(call);
        }
        return this;
    }

    /** Where it was raised, then the calls it went through, innermost first. */
    public java.util.List<Span> trace() {
        java.util.List<Span> all = new java.util.ArrayList<>();
        if (at != null) all.add(at);
        for (Span s : trace) if (all.isEmpty() || all.getLast() != s) all.add(s);
        return all;
    }

    /** The error as a script value, with the place it was raised. */
    public ErrorValue value() {
        if (at == null || !error.positions().isEmpty()) return error;
        return new ErrorValue(error.kind(), error.message(), trace());
    }

    /** The message without its place. */
    public String detail() {
        if (!raisedByScript) return error.message();
        return "uncaught error " + error.kind() + ": " + error.message();
    }

    @Override
    public String getMessage() {
        return at == null ? detail() : at + ": " + detail();
    }

    @Override
    public String toString() {
        return getMessage();
    }
}
