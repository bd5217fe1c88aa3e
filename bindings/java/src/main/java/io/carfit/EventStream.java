package io.carfit;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The change feed of a core from a place on: {@link #next} gives its events one at a time, oldest
 * first ({@link Event.Changed}, {@link Event.Progress}, ..., {@link Event.Gap} when events were
 * missed: read everything again). Nothing is consumed: every stream of a core sees every event.
 * It waits on carfit_events_wait in slices of at most 250 ms, so {@link #close} from another thread
 * ends a waiting {@link #next} within about a quarter of a second. Thread-safe.
 */
public final class EventStream implements AutoCloseable {
    /** The longest one wait in the library lasts. */
    static final long SLICE_MS = 250;

    private final Core core;
    private final ReentrantLock reading = new ReentrantLock();
    private final ArrayDeque<Event> pending = new ArrayDeque<>();
    private long after;
    private volatile boolean closed;

    EventStream(Core core, long after) {
        this.core = core;
        this.after = after;
    }

    /** The seq of the last event this stream took from the core. */
    public long position() {
        reading.lock();
        try {
            return after;
        } finally {
            reading.unlock();
        }
    }

    /**
     * The next event, waiting for one at most {@code timeout} (zero: only one already published).
     *
     * @return the event; null when the time ran out or the stream was closed
     * @throws MisuseException the core is closed
     */
    public Event next(Duration timeout) {
        long deadline = System.nanoTime() + Math.max(0, timeout == null ? 0 : timeout.toNanos());
        try {
            if (!reading.tryLock(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return null;
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return null;
        }
        try {
            while (!closed) {
                Event event = pending.poll();
                if (event != null) {
                    return event;
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                EventsWaitResponse answer = core.waitSlice(after, Math.max(0, Math.min(SLICE_MS, left)));
                if (answer.events() != null) {
                    pending.addAll(answer.events());
                }
                after = Math.max(after, answer.last());
                if (pending.isEmpty() && (left <= 0 || Thread.currentThread().isInterrupted())) {
                    return null;
                }
            }
            return null;
        } finally {
            reading.unlock();
        }
    }

    /** Ends the stream: a waiting {@link #next} returns null within about 250 ms, later ones at once. */
    @Override
    public void close() {
        closed = true;
    }

    /** Whether {@link #close} was called. */
    public boolean isClosed() {
        return closed;
    }
}
