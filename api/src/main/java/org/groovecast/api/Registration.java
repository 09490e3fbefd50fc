package org.groovecast.api;

/** A callback that was registered and can be taken back. Releasing twice is harmless. */
@FunctionalInterface
public interface Registration {
    /** A registration with nothing to release. */
    Registration NONE = () -> {};

    /** Removes the callback; it will not be called after this returns on the clock's thread. */
    void release();
}
