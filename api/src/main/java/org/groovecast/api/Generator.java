package org.groovecast.api;

/**
 * A source that makes its stream from nothing (a tone, silence, noise): always ready, never fails.
 */
public abstract class Generator extends Source {
    protected Generator(String kind) {
        super(kind);
    }

    @Override
    public final boolean isReady() {
        return true;
    }

    @Override
    public final boolean isFallible() {
        return false;
    }
}
