package org.groovecast.liquidsoap.types;

import java.util.Set;

/**
 * What a type variable must become (Liquidsoap's constraints): a number type ({@code +}), an
 * orderable type ({@code <}, {@code ==}), and the kinds of tracks that sources carry. A constraint
 * is checked when its variable is linked: a free variable inside the type takes the constraint on.
 */
enum Constraint {
    NUM("a number type", null),
    ORD("an orderable type", null),
    RECORD("a record type", null),
    /** what {@code source(...)} makes a source of */
    MUXED_TRACKS("a set of tracks to be muxed into a source", null),
    INTERNAL_TRACKS("a set of internal tracks", null),
    TRACK("a track", null),
    INTERNAL_TRACK("a track of type: pcm, pcm_s16, pcm_f32, canvas, metadata or track_marks", null),
    PCM_AUDIO("a track of type: pcm, pcm_s16 or pcm_f32", "pcm*");

    private static final Set<String> PCM = Set.of("pcm", "pcm_s16", "pcm_f32");
    private static final Set<String> INTERNAL =
            Set.of("pcm", "pcm_s16", "pcm_f32", "canvas", "metadata", "track_marks");

    /** Thrown when a type cannot satisfy a constraint. */
    static final class Unsatisfied extends RuntimeException {
        Unsatisfied() {
            super(null, null, false, false);
        }
    }

    private final String description;
    private final String shortForm;

    Constraint(String description, String shortForm) {
        this.description = description;
        this.shortForm = shortForm;
    }

    /** As Liquidsoap says it: {@code 'a is a number type}. */
    String description() {
        return description;
    }

    /** How a variable with only this constraint prints ({@code pcm*}), or null. */
    String shortForm() {
        return shortForm;
    }

    /** The constraint by its description or its short name, or null. */
    static Constraint named(String text) {
        for (Constraint c : values()) {
            if (c.description.equals(text) || text.equals(c.shortForm)) return c;
        }
        return switch (text) {
            case "num", "a number" -> NUM;
            case "ord", "orderable" -> ORD;
            default -> null;
        };
    }

    /**
     * Checks that {@code t} (not a free variable) satisfies this constraint; the free variables
     * inside it that must satisfy it too get it through {@code inner}.
     */
    void check(Type t, Subtyping inner) {
        switch (this) {
            case NUM -> {
                Type b = Type.demeth(t);
                if (b instanceof TypeVar) {
                    inner.satisfy(b, this);
                } else if (!(b.equals(Type.INT) || b.equals(Type.FLOAT) || b.equals(Type.NEVER))) {
                    throw new Unsatisfied();
                }
            }
            case ORD -> checkOrd(t, inner);
            case RECORD -> {
                Methods.Split s = Methods.split(t);
                if (s.base() instanceof TypeVar) {
                    inner.satisfy(s.base(), this);
                } else if (!(s.base() instanceof Type.TupleType tuple
                        && tuple.elements().isEmpty()
                        && !s.methods().isEmpty())) {
                    throw new Unsatisfied();
                }
            }
            case MUXED_TRACKS, INTERNAL_TRACKS -> {
                Methods.Split s = Methods.split(t);
                Type base = Type.demeth(s.base());
                if (base instanceof TypeVar) {
                    inner.satisfy(base, this);
                } else if (!(base instanceof Type.TupleType tuple && tuple.elements().isEmpty())) {
                    throw new Unsatisfied();
                }
                Constraint each = this == MUXED_TRACKS ? TRACK : INTERNAL_TRACK;
                for (Type.Meth m : s.methods()) {
                    Type field = Type.demeth(m.scheme().type());
                    if (field instanceof TypeVar) {
                        inner.satisfy(field, each);
                    } else {
                        each.check(field, inner);
                    }
                }
            }
            case TRACK -> {
                Type b = Type.demeth(t);
                if (b instanceof TypeVar) {
                    inner.satisfy(b, this);
                } else if (!(b.equals(Type.NEVER)
                        || b instanceof Type.TrackKind
                        || b instanceof Type.TrackFormat)) {
                    throw new Unsatisfied();
                }
            }
            case INTERNAL_TRACK, PCM_AUDIO -> {
                Set<String> kinds = this == PCM_AUDIO ? PCM : INTERNAL;
                Type b = Type.demeth(t);
                if (b instanceof TypeVar) {
                    inner.satisfy(b, this);
                } else if (b instanceof Type.TrackKind k) {
                    if (!kinds.contains(k.kind())) throw new Unsatisfied();
                } else if (b instanceof Type.TrackFormat f) {
                    if (!kinds.contains(f.kind())) throw new Unsatisfied();
                } else if (!b.equals(Type.NEVER)) {
                    throw new Unsatisfied();
                }
            }
        }
    }

    private void checkOrd(Type t, Subtyping inner) {
        Methods.Split s = Methods.split(t);
        Type b = s.base();
        switch (b) {
            case TypeVar v -> inner.satisfy(v, this);
            case Type.Ground g -> {}
            case Type.TrackKind k -> {}
            case Type.TrackFormat f -> {}
            case Type.Constr c -> {
                for (Type.Param p : c.params()) inner.satisfy(p.type(), this);
            }
            case Type.TupleType tuple when tuple.elements().isEmpty() -> {
                // a record: every field must be orderable
                for (Type.Meth m : s.methods()) {
                    if (!m.scheme().generalized().isEmpty()) throw new Unsatisfied();
                    inner.satisfy(m.scheme().type(), this);
                }
            }
            case Type.TupleType tuple -> {
                for (Type e : tuple.elements()) inner.satisfy(e, this);
            }
            case Type.ListType l -> inner.satisfy(l.element(), this);
            case Type.Nullable n -> inner.satisfy(n.of(), this);
            default -> throw new Unsatisfied();
        }
    }
}
