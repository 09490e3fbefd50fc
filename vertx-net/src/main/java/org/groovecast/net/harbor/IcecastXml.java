package org.groovecast.net.harbor;

/**
 * XML as Icecast's admin answers it (libxml2's dump of its document): the declaration on a line of
 * its own, then the document on one line, text escaped.
 */
final class IcecastXml {
    private final StringBuilder out = new StringBuilder(1024).append("<?xml version=\"1.0\"?>\n");

    IcecastXml open(String name) {
        out.append('<').append(name).append('>');
        return this;
    }

    /** An element with one attribute: {@code <source mount="/radio">}. */
    IcecastXml open(String name, String attribute, String value) {
        out.append('<').append(name).append(' ').append(attribute).append("=\"");
        escape(value, true);
        out.append("\">");
        return this;
    }

    IcecastXml close(String name) {
        out.append("</").append(name).append('>');
        return this;
    }

    /** {@code <name>text</name>}; nothing for a null text. */
    IcecastXml element(String name, Object text) {
        if (text == null) return this;
        open(name);
        escape(String.valueOf(text), false);
        return close(name);
    }

    private void escape(String s, boolean attribute) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append(attribute ? "&quot;" : "\"");
                case '\r' -> out.append("&#13;");
                default -> {
                    // XML 1.0 has no place for other control characters: a client's text may.
                    if (c < 0x20 && c != '\n' && c != '\t') continue;
                    out.append(c);
                }
            }
        }
    }

    /** The document, with the line end libxml2 puts after it. */
    String text() {
        return out + "\n";
    }
}
