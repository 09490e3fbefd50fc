package org.groovecast.liquidsoap.eval;

import java.util.List;

/** A function of the library written in Java. */
public final class Builtin extends Fn {
    /** What the function does with its arguments. */
    @FunctionalInterface
    public interface Body {
        Object run(Args args);
    }

    private final String name;
    private final List<Parameter> parameters;
    private final Body body;

    private Builtin(String name, List<Parameter> parameters, Body body) {
        this.name = name;
        this.parameters = List.copyOf(parameters);
        this.body = body;
    }

    public static Builtin of(String name, List<Parameter> parameters, Body body) {
        return new Builtin(name, parameters, body);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<Parameter> parameters() {
        return parameters;
    }

    @Override
    protected Object invoke(Object[] bound, boolean[] given, Call call) {
        try {
            return body.run(new Args(name, bound, given, call));
        } catch (LiqError e) {
            throw e.locate(call == null ? null : call.at());
        } catch (StackOverflowError e) {
            throw Errors.at(call == null ? null : call.at(), "eval", "stack overflow in " + name);
        } catch (Halt h) {
            throw h;
        } catch (RuntimeException e) {
            throw Errors.at(call == null ? null : call.at(), "failure", name + ": " + describe(e));
        }
    }

    private static String describe(RuntimeException e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
