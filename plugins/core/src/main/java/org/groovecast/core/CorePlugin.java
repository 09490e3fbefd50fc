package org.groovecast.core;

import org.pf4j.Plugin;

/**
 * The core operators: generators, selection, time conditions, mixing, metadata, outputs and the WAV
 * encoder.
 */
public final class CorePlugin extends Plugin {}
