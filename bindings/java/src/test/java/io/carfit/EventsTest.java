package io.carfit;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The change feed through EventStream. */
class EventsTest {
    @Test
    void aStreamStartsAfterThePublishedEventsAndSeesTheNextCommit() {
        try (Core core = Fixtures.open()) {
            OperationsTest.importVisits(core);  // published before the stream: not seen
            try (EventStream events = core.events()) {
                assertNull(events.next(Duration.ofMillis(50)));
                core.employeesCreate(new EmployeesCreateRequest("1234", "A", "B", null, null));
                Event event = events.next(Duration.ofSeconds(5));
                Event.Changed changed = assertInstanceOf(Event.Changed.class, event);
                assertEquals("changed", changed.kind());
                assertTrue(changed.areas().contains("employees"), changed.areas().toString());
                assertTrue(changed.seq() > 1);
                assertEquals(changed.seq(), events.position());
                assertNull(events.next(Duration.ZERO));
            }
        }
    }

    @Test
    void timeRunsOutWithNull() {
        try (Core core = Fixtures.open(); EventStream events = core.events()) {
            long start = System.nanoTime();
            assertNull(events.next(Duration.ofMillis(600)));
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(ms >= 550 && ms < 3000, ms + " ms");
        }
    }

    @Test
    void closeFromAnotherThreadEndsAWaitingNextWithinASecond() throws Exception {
        try (Core core = Fixtures.open()) {
            EventStream events = core.events();
            CompletableFuture<Long> waited = CompletableFuture.supplyAsync(() -> {
                long start = System.nanoTime();
                Event event = events.next(Duration.ofSeconds(30));
                assertNull(event);
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            });
            Thread.sleep(300);
            long closedAt = System.nanoTime();
            events.close();
            waited.get(5, TimeUnit.SECONDS);
            long after = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closedAt);
            assertTrue(after < 1000, "next returned " + after + " ms after close");
            assertNull(events.next(Duration.ofSeconds(5)));  // at once
        }
    }

    @Test
    void closingTheCoreEndsAWaitingNextWithAClearException() throws Exception {
        Core core = Fixtures.open();
        EventStream events = core.events();
        CompletableFuture<RuntimeException> waited = CompletableFuture.supplyAsync(() -> {
            try {
                events.next(Duration.ofSeconds(30));
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
        Thread.sleep(300);
        long closedAt = System.nanoTime();
        core.close();
        RuntimeException thrown = waited.get(5, TimeUnit.SECONDS);
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closedAt) < 1000);
        assertInstanceOf(MisuseException.class, thrown);
        assertThrows(MisuseException.class, () -> events.next(Duration.ZERO));
    }

    @Test
    void anEventOfAnUnknownKindIsKept() {
        EventsWaitResponse answer = Core.GSON.fromJson(
                "{\"events\": [{\"seq\": 3, \"kind\": \"future\", \"x\": 1}, {\"seq\": 4, \"kind\": \"gap\"}],"
                        + " \"last\": 4, \"unknown\": true}", EventsWaitResponse.class);
        Event.Other other = assertInstanceOf(Event.Other.class, answer.events().get(0));
        assertEquals(3, other.seq());
        assertEquals("future", other.kind());
        assertEquals(1, other.json().get("x").getAsInt());
        assertInstanceOf(Event.Gap.class, answer.events().get(1));
        assertEquals(List.of(3L, 4L), answer.events().stream().map(Event::seq).toList());
    }
}
