package org.groovecast.liquidsoap.prelude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.groovecast.liquidsoap.eval.Liq;
import org.junit.jupiter.api.Test;

/** let xml.parse and xml.stringify. */
class XmlFunctionsTest {
    private static final String ICECAST =
            "'<icecast admin=\"me\" port=\"8000\">\\n"
                    + "<limits><sources>10</sources></limits>\\n"
                    + "<listen-socket><port>8000</port></listen-socket>\\n"
                    + "<mount type=\"normal\">/radio</mount>\\n"
                    + "<mount>/live</mount>\\n"
                    + "<empty/>\\n"
                    + "</icecast>'";

    @Test
    void documentsAreReadAsTheTypeWritten() {
        assertEquals(
                "(10, null, 8000, (\"/radio\".{xml_params={type=\"normal\"}}, \"/live\"), \"normal\", \"\","
                        + " [(\"admin\", \"me\"), (\"port\", \"8000\")].{port=8000}, 8000)",
                Liq.value(
                        "let xml.parse (c : {icecast: {limits: {sources: int, \"queue-size\" as queue_size?: int},"
                                + " \"listen-socket\" as socket: {port: int},"
                                + " mount: (string.{xml_params: {type?: string}} * string), empty: string,"
                                + " xml_params: [(string * string)].{port: int}}}) = "
                                + ICECAST
                                + "\ni = c.icecast\n"
                                + "(i.limits.sources, i.limits.queue_size, i.socket.port, i.mount,"
                                + " null.get(fst(i.mount).xml_params.type), i.empty, i.xml_params, i.xml_params.port)"));
        assertEquals("null", Liq.value("null()"));
    }

    @Test
    void theTupleFormKeepsEveryChildInOrder() {
        assertEquals(
                "(\"a\", [(\"b\", \"1\")], [(\"c\", [(\"xml_text\", \"x\")]), (\"d\", [])])",
                Liq.value(
                        "let xml.parse ((n, p) : (string * {xml_params: [(string * string)], xml_children:"
                                + " [(string * {xml_children: [(string * {xml_text: string})]})]})) ="
                                + " '<a b=\"1\"><c>x</c><d/></a>'\n"
                                + "(n, p.xml_params, list.map(fun (c) -> (fst(c),"
                                + " list.map(fun (t) -> (fst(t), snd(t).xml_text), snd(c).xml_children)), p.xml_children))"));
    }

    @Test
    void valuesAreWrittenAsXml() {
        assertEquals(
                "\"<station name=\\\"x\\\">\\n  <bitrate>128</bitrate>\\n  <live/>\\n  <mount kind=\\\"main\\\">/radio</mount>\\n</station>\"",
                Liq.value(
                        "xml.stringify({station={xml_params=[(\"name\", \"x\")], mount=\"/radio\".{xml_params={kind=\"main\"}},"
                                + " bitrate=128, live={xml_children=[]}}})"));
        assertEquals(
                "\"<a><b>1 &lt; 2</b></a>\"",
                Liq.value(
                        "xml.stringify(compact=true, (\"a\", {xml_children=[(\"b\", {xml_text=\"1 < 2\"})]}))"));
        assertTrue(
                Liq.error("xml.stringify(fun () -> 1)").contains("could not be converted to XML"));
        Registered.withTypes("xml.stringify");
    }

    @Test
    void malformedDocumentsAndDtdsAreRefused() {
        assertTrue(
                Liq.error("let xml.parse (x : {a: int}) = \"<a>1</b>\"\nx")
                        .contains("Parse error"));
        assertTrue(
                Liq.error("let xml.parse (x : {a: int}) = \"<a>x</a>\"\nx")
                        .contains("xml value cannot be parsed as type"));
        assertTrue(
                Liq.error(
                                "let xml.parse (x : {a: string}) = '<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><a>&e;</a>'\nx")
                        .contains("Parse error"));
    }
}
