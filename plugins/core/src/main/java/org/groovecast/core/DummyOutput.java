package org.groovecast.core;

import org.groovecast.api.Frame;
import org.groovecast.api.Output;
import org.groovecast.api.Source;

/** Pulls its source in real time and discards it: drives a graph without sending it anywhere. */
final class DummyOutput extends Output {
    DummyOutput(Source source, boolean fallible) {
        super("output.dummy", source, fallible);
    }

    @Override
    protected void send(Frame frame) {}
}
