package org.groovecast.liquidsoap.eval;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.groovecast.liquidsoap.syntax.TypeAnnotation;

/**
 * {@code let xml.parse (x : T) = s}: an XML document (the JDK's parser, no DTD, no external entity)
 * read as the type written, Liquidsoap's way. An element is read as a record of its child elements
 * by name (one child: its value; several: a tuple of them), a string, number or boolean from its
 * text, a list of its children, or {@code (name, {xml_params, xml_children, xml_text})}; {@code
 * xml_params} are its attributes (a list of pairs, or a record of typed values), {@code xml_text}
 * its text; {@code "a-b" as a_b} names an element that is no Liquidsoap name; what is nullable or
 * optional and absent is null. Untyped, every element is {@code (name, {xml_text, xml_params,
 * xml_children})} with a field of its name.
 */
final class XmlDecoding {
    private XmlDecoding() {}

    /** A node: text, or an element with its attributes in order and its children. */
    sealed interface Node permits Text, Elem {}

    record Text(String text) implements Node {}

    record Elem(String name, List<Map.Entry<String, String>> params, List<Node> children)
            implements Node {}

    private static final class Mismatch extends RuntimeException {
        Mismatch() {
            super(null, null, false, false);
        }
    }

    /** The document in {@code text}, read as {@code type} (untyped when null). */
    static Object decode(String text, TypeAnnotation type) {
        Node root = parse(text);
        try {
            return type == null ? untyped(root) : read(root, type);
        } catch (Mismatch | NumberFormatException e) {
            throw Errors.of(
                    "xml",
                    "Parse error: xml value cannot be parsed as type: " + JsonDecoding.show(type));
        }
    }

    static Node parse(String text) {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        try {
            XMLStreamReader r = f.createXMLStreamReader(new StringReader(text));
            while (r.hasNext() && r.next() != XMLStreamConstants.START_ELEMENT) {}
            if (!r.isStartElement()) throw Errors.of("xml", "Parse error: no element");
            Node root = element(r);
            while (r.hasNext()) r.next(); // what follows must still be well-formed
            return root;
        } catch (XMLStreamException e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            throw Errors.of("xml", "Parse error: " + why.lines().reduce((x, y) -> y).orElse(why));
        }
    }

    /** The element {@code r} is at the start of, read to its end. */
    private static Node element(XMLStreamReader r) throws XMLStreamException {
        String name = r.getLocalName();
        List<Map.Entry<String, String>> params = new ArrayList<>();
        for (int i = 0; i < r.getAttributeCount(); i++)
            params.add(Map.entry(r.getAttributeLocalName(i), r.getAttributeValue(i)));
        List<Node> children = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        while (true) {
            switch (r.next()) {
                case XMLStreamConstants.CHARACTERS,
                        XMLStreamConstants.CDATA,
                        XMLStreamConstants.SPACE ->
                        text.append(r.getText());
                case XMLStreamConstants.START_ELEMENT -> {
                    flush(text, children);
                    children.add(element(r));
                }
                case XMLStreamConstants.END_ELEMENT -> {
                    flush(text, children);
                    return new Elem(name, List.copyOf(params), List.copyOf(children));
                }
                default -> {}
            }
        }
    }

    /** Text between elements, unless it is only the layout's white space. */
    private static void flush(StringBuilder text, List<Node> children) {
        if (!text.toString().isBlank()) children.add(new Text(text.toString()));
        text.setLength(0);
    }

    private static String name(Node n) {
        return n instanceof Elem e ? e.name() : "xml_text";
    }

    private static List<Map.Entry<String, String>> params(Node n) {
        return n instanceof Elem e ? e.params() : List.of();
    }

    private static List<Node> children(Node n) {
        return n instanceof Elem e ? e.children() : List.of();
    }

    /** The node's text: itself, or its only child's; null for an empty or mixed element. */
    private static String text(Node n) {
        if (n instanceof Text t) return t.text();
        List<Node> c = children(n);
        return c.size() == 1 && c.getFirst() instanceof Text t ? t.text() : null;
    }

    /** A type as its base and methods: {@code string.{a: int}}, {@code {a: int}} on unit. */
    private record Split(TypeAnnotation base, List<TypeAnnotation.Method> methods) {}

    private static Split split(TypeAnnotation t) {
        return switch (t) {
            case TypeAnnotation.WithMethods w -> {
                Split inner = split(w.base());
                List<TypeAnnotation.Method> all = new ArrayList<>(inner.methods());
                all.addAll(w.methods());
                yield new Split(inner.base(), all);
            }
            case TypeAnnotation.RecordType r -> new Split(null, r.methods());
            default -> new Split(t, List.of());
        };
    }

    private static String label(TypeAnnotation.Method m) {
        return m.jsonName() != null ? m.jsonName() : m.name();
    }

    private static boolean nullable(TypeAnnotation.Method m) {
        return m.optional() || m.type() instanceof TypeAnnotation.Nullable;
    }

    private static TypeAnnotation unwrap(TypeAnnotation t) {
        return t instanceof TypeAnnotation.Nullable n ? n.of() : t;
    }

    private static Object read(Node n, TypeAnnotation type) {
        boolean nullable = type instanceof TypeAnnotation.Nullable;
        Split s = split(unwrap(type));
        TypeAnnotation base = s.base();
        if (base instanceof TypeAnnotation.Nullable inner) {
            nullable = true;
            base = inner.of();
        }
        try {
            return readAs(n, base, s.methods(), nullable);
        } catch (Mismatch | NumberFormatException e) {
            if (nullable) return null;
            throw e;
        }
    }

    private static Object readAs(
            Node n, TypeAnnotation base, List<TypeAnnotation.Method> methods, boolean nullable) {
        if (base == null) return recordOrNamed(n, methods);
        return switch (base) {
            case TypeAnnotation.Named named when named.name().equals("string") -> {
                String t = text(n);
                if (t == null && nullable) yield null;
                yield Rec.with(t == null ? "" : t, ground(n, methods));
            }
            case TypeAnnotation.Named named when named.name().equals("int") ->
                    Rec.with(Long.parseLong(required(n).strip()), ground(n, methods));
            case TypeAnnotation.Named named when named.name().equals("float") ->
                    Rec.with(Double.parseDouble(required(n).strip()), ground(n, methods));
            case TypeAnnotation.Named named when named.name().equals("bool") ->
                    Rec.with(bool(required(n)), ground(n, methods));
            case TypeAnnotation.Named named when named.name().equals("_") -> untyped(n);
            case TypeAnnotation.Tuple t when t.elements().size() == 2 && methods.isEmpty() ->
                    Tuple.of(name(n), props(n, split(unwrap(t.elements().get(1))).methods()));
            case TypeAnnotation.ListOf l -> {
                List<Object> out = new ArrayList<>();
                for (Node c : children(n)) out.add(read(c, l.of()));
                yield Collections.unmodifiableList(out);
            }
            default -> throw new Mismatch();
        };
    }

    private static String required(Node n) {
        String t = text(n);
        if (t == null) throw new Mismatch();
        return t;
    }

    private static boolean bool(String s) {
        return switch (s.strip()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new Mismatch();
        };
    }

    /** The xml_params and xml_text methods of a string, number or boolean. */
    private static Map<String, Object> ground(Node n, List<TypeAnnotation.Method> methods) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (TypeAnnotation.Method m : methods) {
            switch (label(m)) {
                case "xml_params" -> out.put(m.name(), params(params(n), m.type()));
                case "xml_text" -> {
                    String t = text(n);
                    out.put(m.name(), t != null ? t : nullable(m) ? null : "");
                }
                default -> {}
            }
        }
        return out;
    }

    /**
     * A record type read from an element: the record with the field named as the element, when the
     * type has one, else the element's children as the record's fields.
     */
    private static Object recordOrNamed(Node n, List<TypeAnnotation.Method> methods) {
        String name = name(n);
        for (TypeAnnotation.Method m : methods) {
            if (!label(m).equals(name)) continue;
            Split inner = split(m.type());
            Object content = inner.base() == null ? record(n, inner.methods()) : read(n, m.type());
            Map<String, Object> one = new LinkedHashMap<>();
            one.put(m.name(), content);
            return Rec.record(one);
        }
        return record(n, methods);
    }

    private static Object record(Node n, List<TypeAnnotation.Method> methods) {
        Map<String, List<Node>> byName = new LinkedHashMap<>();
        for (Node c : children(n)) byName.computeIfAbsent(name(c), k -> new ArrayList<>()).add(c);
        Map<String, Object> fields = new LinkedHashMap<>();
        for (TypeAnnotation.Method m : methods) {
            switch (label(m)) {
                case "xml_params" -> fields.put(m.name(), params(params(n), m.type()));
                case "xml_text" -> {
                    String t = text(n);
                    fields.put(m.name(), t != null ? t : nullable(m) ? null : "");
                }
                case "xml_children" -> fields.put(m.name(), childList(n, m.type()));
                default -> {
                    List<Node> found = byName.get(label(m));
                    if (found == null) {
                        if (!nullable(m)) throw new Mismatch();
                        fields.put(m.name(), null);
                    } else if (found.size() == 1) {
                        fields.put(m.name(), read(found.getFirst(), m.type()));
                    } else if (unwrap(m.type()) instanceof TypeAnnotation.Tuple t) {
                        Object[] items = new Object[found.size()];
                        for (int i = 0; i < items.length; i++) {
                            TypeAnnotation ti =
                                    i < t.elements().size() ? t.elements().get(i) : m.type();
                            items[i] = read(found.get(i), ti);
                        }
                        fields.put(m.name(), Tuple.of(items));
                    } else {
                        fields.put(m.name(), read(found.getFirst(), m.type()));
                    }
                }
            }
        }
        return Rec.record(fields);
    }

    private static Object childList(Node n, TypeAnnotation type) {
        TypeAnnotation t = unwrap(type);
        TypeAnnotation element = t instanceof TypeAnnotation.ListOf l ? l.of() : t;
        List<Object> out = new ArrayList<>();
        for (Node c : children(n)) out.add(read(c, element));
        return Collections.unmodifiableList(out);
    }

    /** {@code (name, {...})} of the tuple form: the methods the record asks for. */
    private static Object props(Node n, List<TypeAnnotation.Method> methods) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (TypeAnnotation.Method m : methods) {
            switch (label(m)) {
                case "xml_text" -> {
                    String t = text(n);
                    fields.put(m.name(), t != null ? t : nullable(m) ? null : "");
                }
                case "xml_params" -> fields.put(m.name(), params(params(n), m.type()));
                case "xml_children" -> fields.put(m.name(), childList(n, m.type()));
                default -> {}
            }
        }
        return Rec.record(fields);
    }

    /** Attributes: a list of pairs (with typed methods), or a record of typed values. */
    private static Object params(List<Map.Entry<String, String>> params, TypeAnnotation type) {
        Split s = split(unwrap(type));
        Map<String, String> byName = new LinkedHashMap<>();
        for (Map.Entry<String, String> p : params) byName.putIfAbsent(p.getKey(), p.getValue());
        Map<String, Object> typed = new LinkedHashMap<>();
        for (TypeAnnotation.Method m : s.methods()) {
            String v = byName.get(label(m));
            if (v != null) typed.put(m.name(), param(v, m.type()));
            else if (nullable(m)) typed.put(m.name(), null);
        }
        if (s.base() == null && !s.methods().isEmpty()) return Rec.record(typed);
        List<Object> pairs = new ArrayList<>();
        for (Map.Entry<String, String> p : params) pairs.add(Tuple.of(p.getKey(), p.getValue()));
        return Rec.with(Collections.unmodifiableList(pairs), typed);
    }

    private static Object param(String v, TypeAnnotation type) {
        if (unwrap(type) instanceof TypeAnnotation.Named n) {
            return switch (n.name()) {
                case "int" -> Long.parseLong(v.strip());
                case "float" -> Double.parseDouble(v.strip());
                case "bool" -> bool(v);
                default -> v;
            };
        }
        return v;
    }

    private static Object untyped(Node n) {
        if (n instanceof Text t) return t.text();
        Elem e = (Elem) n;
        List<Object> pairs = new ArrayList<>();
        for (Map.Entry<String, String> p : e.params())
            pairs.add(Tuple.of(p.getKey(), p.getValue()));
        List<Object> children = new ArrayList<>();
        for (Node c : e.children()) children.add(untyped(c));
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("xml_text", text(e));
        props.put("xml_params", Collections.unmodifiableList(pairs));
        props.put("xml_children", Collections.unmodifiableList(children));
        Object record = Rec.record(props);
        return Rec.with(Tuple.of(e.name(), record), e.name(), record);
    }
}
