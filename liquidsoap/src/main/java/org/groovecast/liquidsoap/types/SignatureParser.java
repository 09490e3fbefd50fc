package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a type written as Liquidsoap prints it, the form a registry of builtins gives: {@code (('a)
 * -> 'b, ['a]) -> ['b]}, {@code (?id : string?, {float}, source('a)) -> source('a)}, {@code ('a,
 * 'a) -> bool where 'a is an orderable type}. It is the annotation syntax of scripts (which {@code
 * TypeParser} reads into the syntax tree) plus what only printed types have: variables {@code 'a}
 * (the same name is the same variable), getters {@code {t}}, {@code format(...)}, {@code ref(t)},
 * polymorphic fields {@code map : 'a.'b.(...) -> ...}, a source's unnamed rest {@code
 * source(audio=pcm, 'a)}, {@code pcm*} and a {@code where} clause of constraints. Every variable is
 * generalized. A type that cannot be read is an {@link IllegalArgumentException} naming the text: a
 * registry's mistake, not a script's.
 */
final class SignatureParser {
    private final String text;
    private int pos;
    private final Map<String, TypeVar> vars = new HashMap<>();
    private TypeVar pcmStar;

    private SignatureParser(String text) {
        this.text = text;
    }

    static Type.Scheme parse(String text) {
        SignatureParser p = new SignatureParser(text);
        Type t = p.type();
        p.skip();
        if (p.lookingAt("where")) p.where();
        p.skip();
        if (p.pos < text.length()) throw p.error("unexpected `" + p.rest() + "`");
        return Generalization.generalize(-1, t);
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(
                "cannot read the type `" + text + "` at " + pos + ": " + what);
    }

    private String rest() {
        return text.substring(pos, Math.min(text.length(), pos + 20));
    }

    private void skip() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) pos++;
    }

    private boolean at(String s) {
        skip();
        return text.startsWith(s, pos);
    }

    private boolean accept(String s) {
        if (!at(s)) return false;
        pos += s.length();
        return true;
    }

    private void expect(String s) {
        if (!accept(s)) throw error("expected `" + s + "`");
    }

    private boolean lookingAt(String word) {
        skip();
        return text.startsWith(word, pos)
                && (pos + word.length() == text.length()
                        || !isNameChar(text.charAt(pos + word.length())));
    }

    private static boolean isNameChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    private String name() {
        skip();
        int start = pos;
        while (pos < text.length() && isNameChar(text.charAt(pos))) pos++;
        if (start == pos) throw error("expected a name");
        return text.substring(start, pos);
    }

    /** {@code a * b * c}, or a single type. */
    private Type type() {
        Type first = postfixed();
        if (!at("*")) return first;
        List<Type> elements = new ArrayList<>(List.of(first));
        while (accept("*")) elements.add(postfixed());
        return new Type.TupleType(elements);
    }

    private Type postfixed() {
        Type t = primary();
        while (true) {
            if (at("?.{")) {
                pos += 2;
                t = fields(new Type.Nullable(t));
            } else if (at("?") && !at("?:")) {
                pos++;
                t = Type.nullable(t);
            } else if (at(".{")) {
                pos++;
                t = fields(t);
            } else if (at(".") && pos + 1 < text.length() && isNameChar(text.charAt(pos + 1))) {
                pos++;
                String field = name();
                Type.Meth m = Methods.find(t, field);
                if (m == null) throw error("no field " + field);
                t = m.scheme().type();
            } else {
                return t;
            }
        }
    }

    private Type primary() {
        skip();
        if (pos >= text.length()) throw error("expected a type");
        char c = text.charAt(pos);
        if (c == '\'') return variable();
        if (c == '[') {
            pos++;
            Type element = type();
            expect("]");
            if (lookingAt("as")) {
                name();
                expect("json");
                expect(".");
                expect("object");
                return new Type.ListType(element, true);
            }
            return new Type.ListType(element, false);
        }
        if (c == '(') return parenthesized();
        if (c == '{') {
            pos++;
            if (accept("}")) return Type.UNIT;
            int save = pos;
            if (isFieldStart()) {
                pos = save;
                return fieldsAfterBrace(Type.UNIT);
            }
            pos = save;
            Type of = type();
            expect("}");
            return new Type.Getter(of);
        }
        if (c == '_' && (pos + 1 == text.length() || !isNameChar(text.charAt(pos + 1)))) {
            pos++;
            return new TypeVar(TypeVar.ANY_LEVEL);
        }
        String name = name();
        // a dotted name is one type: ffmpeg.copy, ffmpeg.filter.graph
        while (at(".") && pos + 1 < text.length() && isNameChar(text.charAt(pos + 1))) {
            pos++;
            name = name + "." + name();
        }
        if (at("*") && name.equals("pcm")) {
            pos++;
            return pcmStar();
        }
        if (at("(")) {
            pos++;
            return constructor(name);
        }
        return named(name);
    }

    /** Whether a brace opens a record ({@code {a : t}}) rather than a getter ({@code {t}}). */
    private boolean isFieldStart() {
        skip();
        if (at("\"")) return true;
        int save = pos;
        try {
            if (pos >= text.length() || !isNameChar(text.charAt(pos))) return false;
            name();
            accept("?");
            return at(":");
        } catch (IllegalArgumentException e) {
            return false;
        } finally {
            pos = save;
        }
    }

    private TypeVar variable() {
        pos++;
        String name = name();
        return vars.computeIfAbsent(name, n -> new TypeVar(TypeVar.ANY_LEVEL));
    }

    private TypeVar pcmStar() {
        if (pcmStar == null) {
            pcmStar = new TypeVar(TypeVar.ANY_LEVEL, List.of(Constraint.PCM_AUDIO));
        }
        return pcmStar;
    }

    private Type named(String name) {
        return switch (name) {
            case "unit" -> Type.UNIT;
            case "int" -> Type.INT;
            case "float" -> Type.FLOAT;
            case "string" -> Type.STRING;
            case "bool" -> Type.BOOL;
            case "never", "none" -> Type.NEVER;
            case "source" -> Tracks.source(new TypeVar(TypeVar.ANY_LEVEL));
            case "ref" -> Type.reference(new TypeVar(TypeVar.ANY_LEVEL));
            default -> {
                String kind = Tracks.kind(name);
                if (kind != null) yield Tracks.kind(kind, TypeVar.ANY_LEVEL);
                yield new Type.Ground(name);
            }
        };
    }

    /** After {@code name(}: source, format, ref, or a content kind's parameters. */
    private Type constructor(String name) {
        switch (name) {
            case "source", "format" -> {
                Type tracks = tracks();
                return name.equals("source") ? Tracks.source(tracks) : Tracks.format(tracks);
            }
            case "ref" -> {
                Type of = type();
                expect(")");
                return Type.reference(of);
            }
            default -> {}
        }
        String kind = Tracks.kind(name);
        if (kind == null) {
            // another constructor: kept as is
            List<Type.Param> params = new ArrayList<>();
            if (!accept(")")) {
                do {
                    params.add(new Type.Param(Type.Variance.INVARIANT, type()));
                } while (accept(","));
                expect(")");
            }
            return new Type.Constr(name, params);
        }
        if (at("'") || at("_")) {
            Type format = type();
            expect(")");
            return new Type.TrackKind(kind, format);
        }
        List<String[]> written = new ArrayList<>();
        if (!accept(")")) {
            do {
                skip();
                String label = "";
                String value = word();
                if (accept("=")) {
                    label = value;
                    value = word();
                }
                written.add(new String[] {label, value});
            } while (accept(","));
            expect(")");
        }
        Map<String, String> params = Tracks.params(kind, written);
        if (params == null) throw error("invalid parameters for " + kind);
        return Tracks.format(kind, params);
    }

    /** A content parameter: a name, a number ({@code 5.1}) or a string. */
    private String word() {
        skip();
        if (at("\"")) {
            int end = text.indexOf('"', pos + 1);
            if (end < 0) throw error("unclosed string");
            String s = text.substring(pos + 1, end);
            pos = end + 1;
            return s;
        }
        int start = pos;
        while (pos < text.length() && (isNameChar(text.charAt(pos)) || text.charAt(pos) == '.')) {
            pos++;
        }
        if (start == pos) throw error("expected a value");
        return text.substring(start, pos);
    }

    /** After {@code source(}: {@code audio=pcm(stereo), ?video=canvas, 'a}, then {@code )}. */
    private Type tracks() {
        Map<String, Type> tracks = new LinkedHashMap<>();
        Type base = Type.UNIT;
        if (!accept(")")) {
            do {
                skip();
                if (accept("...")) {
                    base = new TypeVar(TypeVar.ANY_LEVEL);
                    continue;
                }
                int save = pos;
                boolean optional = accept("?");
                if (pos < text.length() && isNameChar(text.charAt(pos))) {
                    String label = name();
                    if (accept("=")) {
                        Type content = content();
                        tracks.put(label, optional ? new Type.Nullable(content) : content);
                        continue;
                    }
                }
                pos = save;
                base = type();
            } while (accept(","));
            expect(")");
        }
        return Tracks.record(tracks, base);
    }

    /** A track's content: {@code pcm}, {@code pcm(stereo)}, {@code none}, {@code 'a}. */
    private Type content() {
        skip();
        if (lookingAt("any")) {
            name();
            return new TypeVar(TypeVar.ANY_LEVEL);
        }
        return type();
    }

    /** After {@code (}: a function type, a tuple, or a type in parentheses. */
    private Type parenthesized() {
        pos++;
        List<Type.Arg> args = new ArrayList<>();
        List<Type> plain = new ArrayList<>();
        boolean labelled = false;
        if (!accept(")")) {
            do {
                skip();
                boolean optional = accept("?");
                String label = "";
                int save = pos;
                if (pos < text.length() && isNameChar(text.charAt(pos))) {
                    String n = name();
                    if (accept(":")) {
                        label = n;
                    } else {
                        pos = save;
                    }
                }
                if (optional || !label.isEmpty()) labelled = true;
                Type t = type();
                args.add(new Type.Arg(optional, label, t));
                plain.add(t);
            } while (accept(","));
            expect(")");
        }
        if (accept("->")) return new Type.Arrow(args, type());
        if (labelled || plain.size() != 1) throw error("expected `->`");
        return plain.getFirst();
    }

    /** After {@code {} or {@code .{}: the fields, then {@code }}, around base. */
    private Type fields(Type base) {
        expect("{");
        return fieldsAfterBrace(base);
    }

    private Type fieldsAfterBrace(Type base) {
        Type t = base;
        if (accept("}")) return t;
        do {
            skip();
            String jsonName = null;
            if (at("\"")) {
                jsonName = word();
                if (!lookingAt("as")) throw error("expected `as`");
                name();
            }
            String name = name();
            boolean optional = accept("?");
            expect(":");
            List<TypeVar> generalized = new ArrayList<>();
            while (true) {
                int save = pos;
                skip();
                if (at("'")) {
                    TypeVar v = variable();
                    if (accept(".") && !at("{")) {
                        generalized.add(v);
                        continue;
                    }
                }
                pos = save;
                break;
            }
            Type type = type();
            t = new Type.Meth(name, optional, new Type.Scheme(generalized, type), jsonName, t);
        } while (accept(","));
        expect("}");
        return t;
    }

    /** {@code where 'a is a number type, 'b, 'c is an orderable type}. */
    private void where() {
        name();
        while (true) {
            List<TypeVar> constrained = new ArrayList<>();
            do {
                skip();
                if (!at("'")) throw error("expected a variable");
                constrained.add(variable());
            } while (accept(","));
            if (!lookingAt("is")) throw error("expected `is`");
            name();
            do {
                Constraint c = constraint();
                for (TypeVar v : constrained) v.addConstraint(c);
            } while (lookingAt("and") && name() != null);
            if (!accept(",")) return;
        }
    }

    /** The longest description of a constraint at this point. */
    private Constraint constraint() {
        skip();
        Constraint best = null;
        int bestLength = 0;
        for (Constraint c : Constraint.values()) {
            String d = c.description();
            if (text.startsWith(d, pos) && d.length() > bestLength) {
                best = c;
                bestLength = d.length();
            }
        }
        if (best == null) {
            int start = pos;
            while (pos < text.length() && isNameChar(text.charAt(pos))) pos++;
            best = Constraint.named(text.substring(start, pos));
            if (best == null) throw error("unknown constraint");
            return best;
        }
        pos += bestLength;
        return best;
    }
}
