package org.groovecast.liquidsoap.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** json() objects list their keys in the order Liquidsoap's OCaml Hashtbl gives. */
class HashtblOrderTest {
    @Test
    void keysComeInLiquidsoapsOrder() {
        // The order Liquidsoap 2.4.5's own json.liq and yaml.liq expect for these keys.
        assertEquals(
                "\"{\\\"record\\\":{\\\"a\\\":1},\\\"key_with_methods\\\":\\\"value\\\",\\\"bla\\\":\\\"bar\\\",\\\"baz\\\":3.14}\"",
                Liq.value(
                        """
                        j = json.object()
                        j.add("foo", 1)
                        j.add("bla", "bar")
                        j.add("baz", 3.14)
                        j.add("key_with_methods", "value")
                        j.add("record", {a=1})
                        j.remove("foo")
                        json.stringify(compact=true, j)
                        """));
        // OCaml's Hashtbl.hash "foo" and "a" land in bucket 1 of 16, "record" in 13.
        assertEquals(1, HashtblOrder.hash("foo".getBytes()) & 15);
        assertEquals(13, HashtblOrder.hash("record".getBytes()) & 15);
    }

    @Test
    void aGrowingTableKeepsEveryKeyOnce() {
        HashtblOrder order = new HashtblOrder();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            keys.add("k" + i);
            order.add("k" + i);
        }
        order.add("k5");
        order.remove("k7");
        keys.remove("k7");
        assertEquals(99, order.keys().size());
        assertEquals(new HashSet<>(keys), new HashSet<>(order.keys()));
    }
}
