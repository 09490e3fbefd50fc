package org.groovecast.transitions;

import org.pf4j.Plugin;

/** Transitions between tracks: fades and crossfades, built only on the api. */
public final class TransitionsPlugin extends Plugin {}
