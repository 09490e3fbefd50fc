package com.example.widener;

import org.pf4j.Plugin;

/** The plugin's entry point; PF4J starts it. Nothing to set up: the operators are extensions. */
public final class WidenerPlugin extends Plugin {}
