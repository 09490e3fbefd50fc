package org.groovecast.liquidsoap.eval;

/**
 * {@code shutdown()} or {@code exit(n)} called by the script: not an error, it stops the evaluation
 * and goes through every {@code try}, as Liquidsoap's own exit does.
 */
public final class Halt extends RuntimeException {
    private final int code;

    public Halt(int code) {
        super("exit " + code, null, false, false);
        this.code = code;
    }

    public int code() {
        return code;
    }
}
