package org.groovecast.liquidsoap.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code xml.stringify(v)}: a value as XML, the way {@code let xml.parse} reads it. A record of one
 * field is an element of that name: its value a record (the element's children, by field name, in
 * the names' order), a string, number or boolean (its text), each with {@code xml_params} (the
 * attributes: pairs or a record), {@code xml_text} or {@code xml_children}; {@code (name, {...})}
 * is the element too. Indented by two, an element with only text on one line; {@code compact}: no
 * layout. A value with no XML form raises error.xml.
 */
public final class XmlWriting {
    private XmlWriting() {}

    private static final class NoXml extends RuntimeException {
        NoXml() {
            super(null, null, false, false);
        }
    }

    public static String stringify(Object v, boolean compact) {
        XmlDecoding.Node node;
        try {
            node = node(v);
        } catch (NoXml | ClassCastException e) {
            throw Errors.of("xml", "Value could not be converted to XML!");
        }
        StringBuilder out = new StringBuilder();
        write(node, compact, 0, out);
        return out.toString();
    }

    private static XmlDecoding.Node node(Object v) {
        Object base = Values.base(v);
        Map<String, Object> fields = new TreeMap<>(Values.fields(v));
        if (base instanceof Tuple t && t.size() == 2 && Values.base(t.get(0)) instanceof String n)
            return element(n, new TreeMap<>(Values.fields(t.get(1))), null);
        if (!Values.isUnit(v) || fields.size() != 1) throw new NoXml();
        Map.Entry<String, Object> only = fields.entrySet().iterator().next();
        Object value = only.getValue();
        Object inner = Values.base(value);
        Map<String, Object> meths = new TreeMap<>(Values.fields(value));
        if (Values.isUnit(value)) return element(only.getKey(), meths, null);
        return switch (inner) {
            case String s -> element(only.getKey(), meths, s);
            case Boolean b -> element(only.getKey(), meths, b.toString());
            case Long l -> element(only.getKey(), meths, l.toString());
            case Double d -> element(only.getKey(), meths, Show.value(d));
            default -> throw new NoXml();
        };
    }

    private static XmlDecoding.Node element(String name, Map<String, Object> meths, String text) {
        if (text == null && meths.get("xml_text") != null)
            text = String.valueOf(Values.base(meths.get("xml_text")));
        Object children = meths.get("xml_children");
        List<Map.Entry<String, String>> params = params(meths.get("xml_params"));
        Map<String, Object> rest = new TreeMap<>(meths);
        rest.keySet().removeAll(List.of("xml_text", "xml_children", "xml_params"));
        if (name.equals("xml_text")
                && text != null
                && params.isEmpty()
                && children == null
                && rest.isEmpty()) {
            return new XmlDecoding.Text(text);
        }
        List<XmlDecoding.Node> kids = new ArrayList<>();
        if (text != null && children == null && rest.isEmpty()) {
            kids.add(new XmlDecoding.Text(text));
        } else if (children != null && text == null && rest.isEmpty()) {
            if (!(Values.base(children) instanceof List<?> l)) throw new NoXml();
            for (Object c : l) kids.add(node(c));
        } else if (children == null && text == null) {
            for (Map.Entry<String, Object> e : rest.entrySet())
                kids.add(node(Rec.with(Tuple.UNIT, e.getKey(), e.getValue())));
        } else {
            throw new NoXml();
        }
        return new XmlDecoding.Elem(name, params, kids);
    }

    private static List<Map.Entry<String, String>> params(Object v) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        if (v == null) return out;
        if (Values.base(v) instanceof List<?> l) {
            for (Object p : l) {
                if (!(Values.base(p) instanceof Tuple t) || t.size() != 2) throw new NoXml();
                out.add(Map.entry(String.valueOf(Values.base(t.get(0))), ground(t.get(1))));
            }
            return out;
        }
        for (Map.Entry<String, Object> e : new TreeMap<>(Values.fields(v)).entrySet())
            out.add(Map.entry(e.getKey(), ground(e.getValue())));
        return out;
    }

    private static String ground(Object v) {
        return switch (Values.base(v)) {
            case String s -> s;
            case Boolean b -> b.toString();
            case Long l -> l.toString();
            case Double d -> Show.value(d);
            default -> throw new NoXml();
        };
    }

    private static void write(XmlDecoding.Node n, boolean compact, int depth, StringBuilder out) {
        String indent = compact ? "" : "  ".repeat(depth);
        if (n instanceof XmlDecoding.Text t) {
            out.append(indent).append(escape(t.text(), false));
            return;
        }
        XmlDecoding.Elem e = (XmlDecoding.Elem) n;
        out.append(indent).append('<').append(e.name());
        for (Map.Entry<String, String> p : e.params())
            out.append(' ')
                    .append(p.getKey())
                    .append("=\"")
                    .append(escape(p.getValue(), true))
                    .append('"');
        if (e.children().isEmpty()) {
            out.append("/>");
            return;
        }
        out.append('>');
        if (e.children().size() == 1 && e.children().getFirst() instanceof XmlDecoding.Text t) {
            out.append(escape(t.text(), false));
        } else {
            for (XmlDecoding.Node c : e.children()) {
                if (!compact) out.append('\n');
                write(c, compact, depth + 1, out);
            }
            if (!compact) out.append('\n').append(indent);
        }
        out.append("</").append(e.name()).append('>');
    }

    private static String escape(String s, boolean attribute) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append(attribute ? "&quot;" : "\"");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
