package org.groovecast.liquidsoap.prelude;

import java.util.Map;
import org.groovecast.liquidsoap.eval.XmlWriting;

/** {@code xml.stringify(v)}: a value as XML, as {@code let xml.parse} reads it back. */
final class XmlFunctions {
    private XmlFunctions() {}

    static void register(Library lib) {
        lib.function(
                "xml.stringify",
                "(?compact : bool, 'a) -> string",
                "A value as XML: a record of one field is an element of that name, its fields its children, with xml_params, xml_text, xml_children.",
                Map.of("compact", false),
                a -> XmlWriting.stringify(a.get(1), a.bool(0)));
    }
}
