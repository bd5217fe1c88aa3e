package io.carfit;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;

import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * An open libcarfit core: its database, clock, calendar and session. Open one with {@link #open},
 * call operations by name ({@link #call}) or through the typed methods of {@link Operations}
 * ({@code visitsList(new VisitsListRequest(null, null, null))}), and close it (try-with-resources).
 *
 * <p>Thread-safe: any number of threads may call at once (the library runs one call on a core at a
 * time; {@link EventStream#next} waits beside them). {@link #close} waits for the calls in progress,
 * then closes the core; every call after it, and a call racing it that did not start first, throws
 * {@link MisuseException} ("This core is closed"). The library is never handed a closed core.
 *
 * <p>The library is the file the environment variable {@code CARFIT_LIBRARY} names, else
 * {@code libcarfit.so} found on {@code jna.library.path} and the system's library path.
 */
public final class Core extends Operations implements AutoCloseable {
    static final Gson GSON = Json.gson();

    private final Native library;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private Pointer handle;  // guarded by lock; null once closed
    private volatile boolean closing;
    private final String database;
    private final String version;

    private Core(Native library, Pointer handle, String answer) {
        this.library = library;
        this.handle = handle;
        String db = null;
        String v = null;
        try {
            JsonObject object = GSON.fromJson(answer, JsonObject.class);
            db = object.has("database") ? object.get("database").getAsString() : null;
            v = object.has("version") ? object.get("version").getAsString() : null;
        } catch (RuntimeException ignored) {
            // the answer's members are informative only
        }
        this.database = db;
        this.version = v;
    }

    /**
     * Opens a core with a config JSON object text (null for the defaults: an in-memory database
     * is {@code {"database": ":memory:"}}).
     *
     * @throws CarFitException the status's subclass: BadJsonException, InvalidException (field the
     *         config member), StorageException (the database cannot be opened)
     * @throws UnsatisfiedLinkError the library cannot be loaded
     */
    public static Core open(String configJson) {
        Native library = Native.library();
        PointerByReference core = new PointerByReference();
        PointerByReference response = new PointerByReference();
        int status = library.carfit_open(configJson, core, response);
        String answer = Native.take(library, response.getValue());
        if (status != 0 || core.getValue() == null) {
            if (core.getValue() != null) {
                library.carfit_close(core.getValue());
            }
            throw CarFitException.of(status == 0 ? Status.INTERNAL.value() : status, answer);
        }
        return new Core(library, core.getValue(), answer);
    }

    /** The version of the loaded library ("1.4.0"). */
    public static String libraryVersion() {
        return Native.library().carfit_version();
    }

    /** The database file this core opened (":memory:" for none). */
    public String database() {
        return database;
    }

    /** The library's version as carfit_open answered it. */
    public String version() {
        return version;
    }

    /**
     * Runs an operation by its method name ("visits.list") with a request JSON object text (null
     * is {@code {}}).
     *
     * @return the answer's JSON text
     * @throws CarFitException the subclass of the failure's status
     */
    public String call(String method, String requestJson) {
        if (method == null) {
            throw CarFitException.of(Status.MISUSE.value(), document("misuse", "The method is null.", "method"));
        }
        ReentrantReadWriteLock.ReadLock read = lock.readLock();
        read.lock();
        try {
            Pointer core = openHandle();
            PointerByReference response = new PointerByReference();
            int status = library.carfit_call(core, method, requestJson == null ? "{}" : requestJson, response);
            String answer = Native.take(library, response.getValue());
            if (status != 0) {
                throw CarFitException.of(status, answer);
            }
            return answer;
        } finally {
            read.unlock();
        }
    }

    /**
     * The events published from now on: the stream starts after the events the core already
     * published. Close it when done; closing the core ends it too.
     */
    public EventStream events() {
        long after = 0;
        while (true) {
            EventsWaitResponse answer = eventsWait(new EventsWaitRequest(after, 0L));
            if (answer.events() == null || answer.events().isEmpty()) {
                return new EventStream(this, answer.last());
            }
            after = answer.last();
        }
    }

    /** Whether {@link #close} was called. */
    public boolean isClosed() {
        return closing;
    }

    /**
     * Closes the core: waits for the calls in progress (an {@link EventStream#next} waits at most
     * about 250 ms more), then closes it in the library. Closing again does nothing.
     */
    @Override
    public void close() {
        closing = true;
        ReentrantReadWriteLock.WriteLock write = lock.writeLock();
        write.lock();
        try {
            if (handle != null) {
                library.carfit_close(handle);
                handle = null;
            }
        } finally {
            write.unlock();
        }
    }

    @Override
    <T> T invoke(String method, Object request, Class<T> response) {
        String answer = call(method, GSON.toJson(request == null ? new JsonObject() : request));
        try {
            T value = GSON.fromJson(answer, response);
            if (value == null) {
                throw new JsonParseException("empty answer");
            }
            return value;
        } catch (JsonParseException | IllegalArgumentException | IllegalStateException wrong) {
            throw CarFitException.of(Status.INTERNAL.value(),
                    document("internal", "The answer of " + method + " does not match "
                            + response.getSimpleName() + ": " + wrong.getMessage(), null));
        }
    }

    @Override
    ImageData invokeImage(String method, Object request) {
        if (!"images.data".equals(method)) {
            throw CarFitException.of(Status.MISUSE.value(), document("misuse", "No operation " + method + ".", "method"));
        }
        Answered answered = invokeBytes(request, false);
        return new ImageData(GSON.fromJson(answered.answer(), ImagesDataResponse.class), answered.bytes());
    }

    @Override
    AttachmentData invokeAttachment(String method, Object request) {
        if (!"visits.attachment_data".equals(method)) {
            throw CarFitException.of(Status.MISUSE.value(), document("misuse", "No operation " + method + ".", "method"));
        }
        Answered answered = invokeBytes(request, true);
        return new AttachmentData(GSON.fromJson(answered.answer(), VisitsAttachmentDataResponse.class), answered.bytes());
    }

    /** An answer text and the bytes that came with it. */
    private record Answered(String answer, byte[] bytes) {
    }

    /** Calls carfit_images_data, or carfit_visits_attachment_data when {@code attachment}. */
    private Answered invokeBytes(Object request, boolean attachment) {
        ReentrantReadWriteLock.ReadLock read = lock.readLock();
        read.lock();
        try {
            Pointer core = openHandle();
            PointerByReference bytes = new PointerByReference();
            com.sun.jna.Memory length = new com.sun.jna.Memory(com.sun.jna.Native.SIZE_T_SIZE);
            length.clear();
            PointerByReference response = new PointerByReference();
            String text = GSON.toJson(request == null ? new JsonObject() : request);
            int status = attachment
                    ? library.carfit_visits_attachment_data(core, text, bytes, length, response)
                    : library.carfit_images_data(core, text, bytes, length, response);
            String answer = Native.take(library, response.getValue());
            Pointer data = bytes.getValue();
            byte[] out;
            try {
                long size = com.sun.jna.Native.SIZE_T_SIZE == 8 ? length.getLong(0) : length.getInt(0) & 0xFFFFFFFFL;
                if (status != 0) {
                    throw CarFitException.of(status, answer);
                }
                if (size > Integer.MAX_VALUE - 8) {
                    throw CarFitException.of(Status.INTERNAL.value(), null);
                }
                out = data == null ? new byte[0] : data.getByteArray(0, (int) size);
            } finally {
                if (data != null) {
                    library.carfit_free(data);
                }
            }
            return new Answered(answer, out);
        } finally {
            read.unlock();
        }
    }

    /**
     * Waits on the change feed for one slice (at most {@code timeoutMs}); throws MisuseException
     * once the core is closed or closing, so a stream never waits on a closed core.
     */
    EventsWaitResponse waitSlice(long after, long timeoutMs) {
        return eventsWait(new EventsWaitRequest(after, timeoutMs));
    }

    /** The open handle; the caller holds the read lock. */
    private Pointer openHandle() {
        if (closing || handle == null) {
            throw CarFitException.of(Status.MISUSE.value(),
                    document("misuse", "This core is closed: open another with Core.open.", null));
        }
        return handle;
    }

    private static String document(String code, String message, String field) {
        JsonObject error = new JsonObject();
        error.addProperty("code", code);
        error.addProperty("message", message);
        if (field != null) {
            error.addProperty("field", field);
        }
        JsonObject document = new JsonObject();
        document.add("error", error);
        return document.toString();
    }
}
