package org.groovecast.liquidsoap.prelude;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.groovecast.liquidsoap.eval.Args;
import org.groovecast.liquidsoap.eval.Builtin;
import org.groovecast.liquidsoap.eval.Errors;
import org.groovecast.liquidsoap.eval.Fn;
import org.groovecast.liquidsoap.eval.Tuple;
import org.groovecast.liquidsoap.eval.Values;

/**
 * The {@code list} module, and association lists ({@code [(key, value)]}) in {@code list.assoc}.
 */
final class ListFunctions {
    private ListFunctions() {}

    static void register(Library lib) {
        lib.function(
                "list.length",
                "(['a]) -> int",
                "The number of elements.",
                a -> (long) a.list(0).size());
        lib.function(
                "list.is_empty",
                "(['a]) -> bool",
                "Whether a list is empty.",
                a -> a.list(0).isEmpty());
        lib.function(
                "list.hd",
                "(?default : 'a?, ['a]) -> 'a",
                "The first element; the default (or error not_found) for an empty list.",
                a ->
                        a.list(1).isEmpty()
                                ? orNotFound(a, 0, "no default value for list.hd")
                                : a.list(1).getFirst());
        lib.function(
                "list.tl",
                "(['a]) -> ['a]",
                "All but the first element ([] for []).",
                a -> a.list(0).isEmpty() ? List.of() : of(a.list(0).subList(1, a.list(0).size())));
        lib.function(
                "list.last",
                "(?default : 'a?, ['a]) -> 'a",
                "The last element; the default (or error not_found) for an empty list.",
                a ->
                        a.list(1).isEmpty()
                                ? orNotFound(a, 0, "no default value for list.last")
                                : a.list(1).getLast());
        lib.function(
                "list.nth",
                "(?default : 'a?, ['a], int) -> 'a",
                "The element at a position from 0; the default (or error not_found) past the end.",
                a -> {
                    List<Object> l = a.list(1);
                    long n = a.integer(2);
                    if (n >= 0 && n < l.size()) return l.get((int) n);
                    return orNotFound(a, 0, "no default value for list.nth");
                });
        lib.function(
                "list.cons",
                "('a, ['a]) -> ['a]",
                "An element before a list.",
                a -> prepend(a.get(0), a.list(1)));
        lib.function(
                "list.add",
                "('a, ['a]) -> ['a]",
                "An element before a list.",
                a -> prepend(a.get(0), a.list(1)));
        lib.function(
                "list.append",
                "(['a], ['a]) -> ['a]",
                "Two lists one after the other.",
                a -> {
                    List<Object> out = new ArrayList<>(a.list(0));
                    out.addAll(a.list(1));
                    return of(out);
                });
        lib.function(
                "list.rev",
                "(['a]) -> ['a]",
                "A list backwards.",
                a -> {
                    List<Object> out = new ArrayList<>(a.list(0));
                    Collections.reverse(out);
                    return of(out);
                });
        lib.function(
                "list.make",
                "(int, 'a) -> ['a]",
                "A list of n times the same element.",
                a ->
                        of(
                                new ArrayList<>(
                                        Collections.nCopies(
                                                (int) Math.max(0, a.integer(0)), a.get(1)))));
        lib.function(
                "list.init",
                "(int, (int) -> 'a) -> ['a]",
                "The list of f(0), ..., f(n-1).",
                a -> {
                    List<Object> out = new ArrayList<>();
                    for (long i = 0; i < a.integer(0); i++) out.add(a.fn(1).call(i));
                    return of(out);
                });
        lib.function(
                "list.map",
                "(('a) -> 'b, ['a]) -> ['b]",
                "Applies a function to every element.",
                a -> {
                    List<Object> out = new ArrayList<>();
                    for (Object x : a.list(1)) out.add(a.fn(0).call(x));
                    return of(out);
                });
        lib.function(
                "list.map.right",
                "(('a) -> 'b, ['a]) -> ['b]",
                "list.map, from the last element.",
                a -> {
                    List<Object> l = a.list(1);
                    Object[] out = new Object[l.size()];
                    for (int i = l.size() - 1; i >= 0; i--) out[i] = a.fn(0).call(l.get(i));
                    return of(java.util.Arrays.asList(out));
                });
        lib.function(
                "list.mapi",
                "((int, 'a) -> 'b, ['a]) -> ['b]",
                "Applies a function to every position and element.",
                a -> {
                    List<Object> out = new ArrayList<>();
                    List<Object> l = a.list(1);
                    for (int i = 0; i < l.size(); i++) out.add(a.fn(0).call((long) i, l.get(i)));
                    return of(out);
                });
        lib.function(
                "list.iter",
                "(('a) -> unit, ['a]) -> unit",
                "Calls a function on every element.",
                a -> {
                    for (Object x : a.list(1)) a.fn(0).call(x);
                    return Tuple.UNIT;
                });
        lib.function(
                "list.iteri",
                "((int, 'a) -> unit, ['a]) -> unit",
                "Calls a function on every position and element.",
                a -> {
                    List<Object> l = a.list(1);
                    for (int i = 0; i < l.size(); i++) a.fn(0).call((long) i, l.get(i));
                    return Tuple.UNIT;
                });
        lib.function(
                "list.indexed",
                "(['a]) -> [int * 'a]",
                "Every element with its position.",
                a -> {
                    List<Object> out = new ArrayList<>();
                    List<Object> l = a.list(0);
                    for (int i = 0; i < l.size(); i++) out.add(Tuple.of((long) i, l.get(i)));
                    return of(out);
                });
        lib.function(
                "list.filter",
                "(?remove : ('a) -> unit, ('a) -> bool, ['a]) -> ['a]",
                "The elements for which the predicate holds; remove is called with the others.",
                a -> {
                    List<Object> out = new ArrayList<>();
                    for (Object x : a.list(2)) {
                        if (truth(a.fn(1).call(x))) out.add(x);
                        else if (a.given(0)) a.fn(0).call(x);
                    }
                    return of(out);
                });
        lib.function(
                "list.filter_map",
                "(('a) -> 'b?, ['a]) -> ['b]",
                "The images that are not null.",
                a -> {
                    List<Object> out = new ArrayList<>();
                    for (Object x : a.list(1)) {
                        Object y = a.fn(0).call(x);
                        if (y != null) out.add(y);
                    }
                    return of(out);
                });
        lib.function(
                "list.fold",
                "(('a, 'b) -> 'a, 'a, ['b]) -> 'a",
                "Folds from the first element: f(f(x, l1), l2)...",
                a -> {
                    Object acc = a.get(1);
                    for (Object x : a.list(2)) acc = a.fn(0).call(acc, x);
                    return acc;
                });
        lib.function(
                "list.fold.right",
                "(('a, 'b) -> 'b, 'b, ['a]) -> 'b",
                "Folds from the last element: f(l1, f(l2, x))...",
                a -> {
                    Object acc = a.get(1);
                    List<Object> l = a.list(2);
                    for (int i = l.size() - 1; i >= 0; i--) acc = a.fn(0).call(l.get(i), acc);
                    return acc;
                });
        lib.function(
                "list.flatten",
                "([['a]]) -> ['a]",
                "A list of lists as one list.",
                a -> {
                    List<Object> out = new ArrayList<>();
                    for (Object x : a.list(0)) out.addAll((List<?>) Values.base(x));
                    return of(out);
                });
        lib.function(
                "list.mem",
                "('a, ['a]) -> bool where 'a is an orderable type",
                "Whether an element is in the list.",
                a -> a.list(1).stream().anyMatch(x -> Values.equal(x, a.get(0))));
        lib.function(
                "list.exists",
                "(('a) -> bool, ['a]) -> bool",
                "Whether the predicate holds for some element.",
                a -> a.list(1).stream().anyMatch(x -> truth(a.fn(0).call(x))));
        lib.function(
                "list.for_all",
                "(('a) -> bool, ['a]) -> bool",
                "Whether the predicate holds for every element.",
                a -> a.list(1).stream().allMatch(x -> truth(a.fn(0).call(x))));
        lib.function(
                "list.find",
                "(?default : 'a?, ('a) -> bool, ['a]) -> 'a",
                "The first element for which the predicate holds; the default or error not_found.",
                a -> {
                    for (Object x : a.list(2)) if (truth(a.fn(1).call(x))) return x;
                    return orNotFound(a, 0, "no default value for list.find");
                });
        lib.function(
                "list.index",
                "(('a) -> bool, ['a]) -> int",
                "The position of the first element for which the predicate holds, the length when none.",
                a -> {
                    List<Object> l = a.list(1);
                    for (int i = 0; i < l.size(); i++)
                        if (truth(a.fn(0).call(l.get(i)))) return (long) i;
                    return (long) l.size();
                });
        lib.function(
                "list.remove",
                "('a, ['a]) -> ['a]",
                "The list without the first occurrence of an element.",
                a -> {
                    List<Object> out = new ArrayList<>(a.list(1));
                    for (int i = 0; i < out.size(); i++) {
                        if (Values.equal(out.get(i), a.get(0))) {
                            out.remove(i);
                            break;
                        }
                    }
                    return of(out);
                });
        lib.function(
                "list.insert",
                "(int, 'a, ['a]) -> ['a]",
                "An element inserted at a position.",
                a -> {
                    List<Object> out = new ArrayList<>(a.list(2));
                    int i = (int) a.integer(0);
                    if (i < 0 || i > out.size())
                        throw Errors.notFound("List should have at least " + i + " elemments");
                    out.add(i, a.get(1));
                    return of(out);
                });
        lib.function(
                "list.prefix",
                "(int, ['a]) -> ['a]",
                "The first n elements.",
                a ->
                        of(
                                new ArrayList<>(
                                        a.list(1)
                                                .subList(
                                                        0,
                                                        (int)
                                                                Math.max(
                                                                        0,
                                                                        Math.min(
                                                                                a.integer(0),
                                                                                a.list(1)
                                                                                        .size()))))));
        lib.function(
                "list.slice",
                "(?offset : int, ?length : int?, ['a]) -> ['a]",
                "The elements from offset, length of them (all with null).",
                Map.of("offset", 0L),
                a -> {
                    List<Object> l = a.list(2);
                    int start = (int) Math.max(0, Math.min(a.integer(0), l.size()));
                    int stop =
                            a.isNull(1) ? l.size() : (int) Math.min(l.size(), start + a.integer(1));
                    return of(new ArrayList<>(l.subList(start, Math.max(start, stop))));
                });
        lib.function(
                "list.sort",
                "(('a, 'a) -> int, ['a]) -> ['a]",
                "Sorted by a comparison function (negative, 0, positive).",
                a -> {
                    List<Object> out = new ArrayList<>(a.list(1));
                    Fn cmp = a.fn(0);
                    out.sort(
                            (x, y) ->
                                    (int)
                                            Math.signum(
                                                    ((Number) Values.base(cmp.call(x, y)))
                                                            .doubleValue()));
                    return of(out);
                });
        lib.function(
                "list.sort.natural",
                "(['a]) -> ['a] where 'a is an orderable type",
                "Sorted in the natural order.",
                a -> {
                    List<Object> out = new ArrayList<>(a.list(0));
                    out.sort(Values::compare);
                    return of(out);
                });
        lib.function(
                "list.shuffle",
                "(['a]) -> ['a]",
                "The elements in a random order.",
                a -> {
                    List<Object> out = new ArrayList<>(a.list(0));
                    Collections.shuffle(out);
                    return of(out);
                });
        lib.function(
                "list.pick",
                "(?default : 'a?, ['a]) -> 'a",
                "An element at random.",
                a ->
                        a.list(1).isEmpty()
                                ? orNotFound(a, 0, "no default value for list.pick")
                                : a.list(1)
                                        .get(
                                                java.util.concurrent.ThreadLocalRandom.current()
                                                        .nextInt(a.list(1).size())));
        lib.function(
                "list.case",
                "(['a], 'b, ('a, ['a]) -> 'b) -> 'b",
                "Case analysis: the value for [], or f(head, tail).",
                a ->
                        a.list(0).isEmpty()
                                ? a.get(1)
                                : a.fn(2)
                                        .call(
                                                a.list(0).getFirst(),
                                                of(a.list(0).subList(1, a.list(0).size()))));
        lib.function(
                "list.dcase",
                "(['a], () -> 'b, ('a, ['a]) -> 'b) -> 'b",
                "Case analysis with a delayed value for [].",
                a ->
                        a.list(0).isEmpty()
                                ? a.fn(1).call()
                                : a.fn(2)
                                        .call(
                                                a.list(0).getFirst(),
                                                of(a.list(0).subList(1, a.list(0).size()))));
        lib.function(
                "list.ind",
                "(['a], 'b, ('a, ['a], 'b) -> 'b) -> 'b",
                "Induction on a list.",
                a -> {
                    List<Object> l = a.list(0);
                    Object acc = a.get(1);
                    for (int i = l.size() - 1; i >= 0; i--)
                        acc = a.fn(2).call(l.get(i), of(l.subList(i + 1, l.size())), acc);
                    return acc;
                });
        lib.function(
                "list.iterator",
                "(['a]) -> () -> 'a?",
                "A function answering the elements one by one, then null.",
                a -> {
                    List<Object> l = a.list(0);
                    AtomicInteger next = new AtomicInteger();
                    return Builtin.of(
                            "list.iterator",
                            List.of(),
                            x -> {
                                int i = next.getAndIncrement();
                                return i < l.size() ? l.get(i) : null;
                            });
                });
        lib.function(
                "list.split",
                "([('a * 'b)]) -> ['a] * ['b]",
                "A list of pairs as a pair of lists.",
                a -> {
                    List<Object> xs = new ArrayList<>();
                    List<Object> ys = new ArrayList<>();
                    for (Object p : a.list(0)) {
                        Tuple t = (Tuple) Values.base(p);
                        xs.add(t.get(0));
                        ys.add(t.get(1));
                    }
                    return Tuple.of(of(xs), of(ys));
                });
        assoc(lib);
    }

    private static void assoc(Library lib) {
        lib.function(
                "list.assoc",
                "(?default : 'a?, 'b, [('b * 'a)]) -> 'a where 'b is an orderable type",
                "The value of the first pair whose key is the one given; the default or error not_found.",
                a -> {
                    for (Object p : a.list(2)) {
                        Tuple t = pair(p);
                        if (Values.equal(t.get(0), a.get(1))) return t.get(1);
                    }
                    return orNotFound(a, 0, "no default value for list.assoc");
                });
        lib.function(
                "list.assoc.mem",
                "('a, [('a * 'b)]) -> bool where 'a is an orderable type",
                "Whether a key is in the list.",
                a -> a.list(1).stream().anyMatch(p -> Values.equal(pair(p).get(0), a.get(0))));
        lib.function(
                "list.assoc.nullable",
                "('a, [('a * 'b)]) -> 'b? where 'a is an orderable type",
                "A key's value, null when absent.",
                a -> {
                    for (Object p : a.list(1))
                        if (Values.equal(pair(p).get(0), a.get(0))) return pair(p).get(1);
                    return null;
                });
        lib.function(
                "list.assoc.remove",
                "('a, [('a * 'b)]) -> [('a * 'b)] where 'a is an orderable type",
                "The list without the first pair of a key.",
                a -> {
                    List<Object> out = new ArrayList<>(a.list(1));
                    for (int i = 0; i < out.size(); i++) {
                        if (Values.equal(pair(out.get(i)).get(0), a.get(0))) {
                            out.remove(i);
                            break;
                        }
                    }
                    return of(out);
                });
        lib.function(
                "list.assoc.remove.all",
                "('a, [('a * 'b)]) -> [('a * 'b)] where 'a is an orderable type",
                "The list without any pair of a key.",
                a -> {
                    List<Object> out = new ArrayList<>();
                    for (Object p : a.list(1))
                        if (!Values.equal(pair(p).get(0), a.get(0))) out.add(p);
                    return of(out);
                });
        lib.function(
                "list.assoc.filter",
                "(('a, 'b) -> bool, [('a * 'b)]) -> [('a * 'b)]",
                "The pairs for which the predicate of key and value holds.",
                a -> {
                    List<Object> out = new ArrayList<>();
                    for (Object p : a.list(1)) {
                        Tuple t = pair(p);
                        if (truth(a.fn(0).call(t.get(0), t.get(1)))) out.add(p);
                    }
                    return of(out);
                });
        lib.function(
                "list.assoc.filter_map",
                "(('a, 'b) -> 'c?, [('a * 'b)]) -> ['c]",
                "The images of key and value that are not null.",
                a -> {
                    List<Object> out = new ArrayList<>();
                    for (Object p : a.list(1)) {
                        Tuple t = pair(p);
                        Object y = a.fn(0).call(t.get(0), t.get(1));
                        if (y != null) out.add(y);
                    }
                    return of(out);
                });
        lib.function(
                "list.assoc.map",
                "(('a, 'b) -> 'c, [('a * 'b)]) -> [('a * 'c)]",
                "Applies a function to every value.",
                a -> {
                    List<Object> out = new ArrayList<>();
                    for (Object p : a.list(1)) {
                        Tuple t = pair(p);
                        out.add(Tuple.of(t.get(0), a.fn(0).call(t.get(0), t.get(1))));
                    }
                    return of(out);
                });
    }

    private static Tuple pair(Object p) {
        if (Values.base(p) instanceof Tuple t && t.size() == 2) return t;
        throw Errors.invalid("expected a pair, got " + Values.describe(p));
    }

    private static Object orNotFound(Args a, int defaultIndex, String message) {
        if (!a.isNull(defaultIndex)) return a.get(defaultIndex);
        throw Errors.notFound(message);
    }

    static boolean truth(Object v) {
        return Values.base(v) instanceof Boolean b && b;
    }

    static List<Object> prepend(Object x, List<Object> l) {
        List<Object> out = new ArrayList<>(l.size() + 1);
        out.add(x);
        out.addAll(l);
        return of(out);
    }

    static List<Object> of(List<?> l) {
        @SuppressWarnings("unchecked")
        List<Object> objects = (List<Object>) Collections.unmodifiableList(new ArrayList<>(l));
        return objects;
    }

    static Comparator<Object> natural() {
        return Values::compare;
    }
}
