package org.groovecast.net.admission;

import org.groovecast.api.UserFunction;

/**
 * Who may listen on a mount, and for how long: a cap on listeners, a time limit, a deny list, and
 * the script's {@code admit:} function (or a ready-made one, {@link ListenerUrlAuth}).
 *
 * @param maxListeners listeners at once; 0 for no cap
 * @param maxDurationNanos how long a listener may stay; 0 for no limit
 * @param deny addresses and agents refused at once
 * @param admit asked about each client that passed the rest, off the event loop; null for none
 */
public record MountAdmission(
        int maxListeners, long maxDurationNanos, DenyList deny, UserFunction admit) {
    public static final MountAdmission OPEN = new MountAdmission(0, 0, DenyList.NONE, null);

    public MountAdmission {
        if (maxListeners < 0) throw new IllegalArgumentException("maxListeners must be 0 or more");
        if (maxDurationNanos < 0)
            throw new IllegalArgumentException("maxListenerDuration must be 0 or more");
        if (deny == null) deny = DenyList.NONE;
    }

    /** Whether any rule applies: an open mount costs a listener nothing. */
    public boolean isOpen() {
        return maxListeners == 0 && maxDurationNanos == 0 && deny.isEmpty() && admit == null;
    }
}
