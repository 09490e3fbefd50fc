package org.groovecast.liquidsoap.types;

import java.util.ArrayList;
import java.util.List;

/**
 * A type variable: unknown while free, then linked to the type it was found to be. Its level is the
 * number of enclosing definitions it was made under; a definition generalizes the free variables of
 * a level above its own (let-polymorphism). Its constraints ({@code 'a} is a number type,
 * orderable...) are checked against what it is linked to.
 */
final class TypeVar implements Type {
    static final int ANY_LEVEL = Integer.MAX_VALUE;

    private Type link;
    private Variance variance = Variance.INVARIANT;
    private int level;
    private List<Constraint> constraints;

    TypeVar(int level, List<Constraint> constraints) {
        this.level = level;
        this.constraints = constraints.isEmpty() ? List.of() : new ArrayList<>(constraints);
    }

    TypeVar(int level) {
        this(level, List.of());
    }

    Type link() {
        return link;
    }

    Variance variance() {
        return variance;
    }

    boolean isFree() {
        return link == null;
    }

    void link(Variance variance, Type to) {
        this.variance = variance;
        this.link = to;
    }

    /** A covariant link may still be widened; once used where it must be exact, it may not. */
    void makeInvariant() {
        variance = Variance.INVARIANT;
    }

    int level() {
        return level;
    }

    void lowerLevel(int to) {
        if (to < level) level = to;
    }

    List<Constraint> constraints() {
        return constraints;
    }

    void addConstraint(Constraint c) {
        if (constraints.contains(c)) return;
        if (constraints.isEmpty()) constraints = new ArrayList<>(2);
        constraints.add(c);
    }

    @Override
    public String toString() {
        return link == null
                ? "'_" + Integer.toHexString(System.identityHashCode(this))
                : "->" + link;
    }
}
