package io.carfit;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Opening, closing, threads. */
class LifecycleTest {
    @Test
    void tryWithResourcesClosesTheCore() {
        Core kept;
        try (Core core = Fixtures.open()) {
            kept = core;
            assertEquals(":memory:", core.database());
            assertEquals(Core.libraryVersion(), core.version());
            assertFalse(core.isClosed());
        }
        assertTrue(kept.isClosed());
        MisuseException e = assertThrows(MisuseException.class, () -> kept.call("calendar.get", "{}"));
        assertEquals(Status.MISUSE, e.status());
        assertTrue(e.getMessage().contains("closed"));
        kept.close();  // again: nothing
        assertThrows(MisuseException.class, kept::events);
    }

    @Test
    void theLibraryVersionMatchesTheHeader() throws Exception {
        String header = java.nio.file.Files.readString(Fixtures.root().resolve("include/carfit.h"));
        assertTrue(header.contains("#define CARFIT_VERSION \"" + Core.libraryVersion() + "\""));
    }

    @Test
    void eightThreadsCallAtOnce() throws Exception {
        try (Core core = Fixtures.open()) {
            OperationsTest.importVisits(core);
            int cards = core.visitsList(new VisitsListRequest(List.of("2020-09-10"), null, null)).days().get(0)
                    .visits().size();
            assertTrue(cards > 0);
            ExecutorService pool = Executors.newFixedThreadPool(8);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                final int thread = t;
                results.add(pool.submit(() -> {
                    start.await();
                    int ok = 0;
                    for (int i = 0; i < 50; i++) {
                        switch ((thread + i) % 4) {
                            case 0 -> ok += core.visitsList(new VisitsListRequest(List.of("2020-09-10"), null, null))
                                    .days().get(0).visits().size() == cards ? 1 : 0;
                            case 1 -> ok += core.calendarGet(new CalendarGetRequest()).year() == 2020 ? 1 : 0;
                            case 2 -> ok += core.call("sync.status", "{}").contains("\"pending\"") ? 1 : 0;
                            default -> {
                                try {
                                    core.calendarMonth(new CalendarMonthRequest(2020, 0));
                                } catch (InvalidException expected) {
                                    ok += "month".equals(expected.field()) ? 1 : 0;
                                }
                            }
                        }
                    }
                    return ok;
                }));
            }
            start.countDown();
            int total = 0;
            for (Future<Integer> result : results) {
                total += result.get(60, TimeUnit.SECONDS);
            }
            pool.shutdown();
            assertEquals(8 * 50, total);
        }
    }

    @Test
    void callsRacingCloseEitherRunOrThrowMisuse() throws Exception {
        for (int round = 0; round < 20; round++) {
            Core core = Fixtures.open();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger refused = new AtomicInteger();
            AtomicInteger other = new AtomicInteger();
            CountDownLatch start = new CountDownLatch(1);
            for (int t = 0; t < 8; t++) {
                pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 20; i++) {
                        try {
                            core.calendarGet(new CalendarGetRequest());
                            ran.incrementAndGet();
                        } catch (MisuseException closed) {
                            refused.incrementAndGet();
                        } catch (RuntimeException unexpected) {
                            other.incrementAndGet();
                        }
                    }
                    return null;
                });
            }
            start.countDown();
            Thread.sleep(round % 3);
            core.close();
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
            assertEquals(160, ran.get() + refused.get());
            assertEquals(0, other.get());
            assertThrows(MisuseException.class, () -> core.calendarGet(new CalendarGetRequest()));
        }
    }
}
