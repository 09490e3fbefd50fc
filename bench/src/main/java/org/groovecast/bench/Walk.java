package org.groovecast.bench;

import java.lang.reflect.RecordComponent;
import java.util.function.Consumer;

/** Visits every record of a Liquidsoap syntax tree, parents first (the syntax is all records). */
final class Walk {
    private Walk() {}

    static void each(Object node, Consumer<Object> visit) {
        if (node == null) return;
        if (node instanceof Iterable<?> list) {
            for (Object o : list) each(o, visit);
            return;
        }
        if (!(node instanceof Record record)) return;
        visit.accept(record);
        for (RecordComponent c : record.getClass().getRecordComponents()) {
            try {
                each(c.getAccessor().invoke(record), visit);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
