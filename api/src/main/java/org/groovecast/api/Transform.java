package org.groovecast.api;

/**
 * A source that reworks one input (gain, metadata, cutting tracks): it is ready, fallible and near
 * the end of a track exactly when its input is, unless a subclass says otherwise.
 */
public abstract class Transform extends Source {
    protected final Source input;

    protected Transform(String kind, Source input) {
        super(kind, input);
        this.input = input;
    }

    @Override
    public boolean isReady() {
        return input.isReady();
    }

    @Override
    public boolean isFallible() {
        return input.isFallible();
    }

    @Override
    public long remaining() {
        return input.remaining();
    }
}
