package org.groovecast.dsp;

import org.pf4j.Plugin;

/** Loudness, dynamics and dead-air operators, built only on the api. */
public final class DspPlugin extends Plugin {}
