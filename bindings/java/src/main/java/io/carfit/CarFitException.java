package io.carfit;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

/**
 * A call that failed: its status and the members of its error document ({@code {"error": {"code",
 * "message", "field", "reason", "url", "httpStatus", ...}}}). Each status has its subclass
 * ({@link InvalidException}, {@link NotFoundException}, ...), so a host catches the ones it handles.
 * Unchecked, like the failures of any call into the library.
 */
public class CarFitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What an error document says. */
    record Details(String code, String message, String field, String reason, Integer httpStatus, String url,
                   String json) {
        /** The details of an error document's text (a text that is none still gives a message). */
        static Details parse(int status, String text) {
            try {
                JsonElement root = text == null ? null : JsonParser.parseString(text);
                JsonObject error = root != null && root.isJsonObject() && root.getAsJsonObject().get("error") instanceof
                        JsonObject inner ? inner : null;
                if (error != null) {
                    Integer http = error.get("httpStatus") != null && error.get("httpStatus").isJsonPrimitive()
                            ? error.get("httpStatus").getAsInt() : null;
                    return new Details(string(error, "code"), string(error, "message"), string(error, "field"),
                            string(error, "reason"), http, string(error, "url"), text);
                }
            } catch (RuntimeException malformed) {
                // fall through: the status alone
            }
            Status known = Status.of(status);
            String code = known != null ? known.code() : "unknown";
            return new Details(code, "libcarfit failed with status " + status + " (" + code + ")", null, null, null,
                    null, text);
        }

        private static String string(JsonObject object, String member) {
            JsonElement value = object.get(member);
            return value != null && value.isJsonPrimitive() ? value.getAsString() : null;
        }
    }

    private final Status status;
    private final transient Details details;

    CarFitException(Status status, Details details) {
        super(details.message() != null ? details.message() : details.code());
        this.status = status;
        this.details = details;
    }

    /** The exception of a failed call's status and error document text. */
    static CarFitException of(int status, String errorJson) {
        Details details = Details.parse(status, errorJson);
        Status known = Status.of(status);
        return known != null && known != Status.OK ? known.exception(details)
                : new InternalException(new Details("internal", "libcarfit answered the unknown status " + status,
                        null, null, null, null, errorJson));
    }

    /** The status of the failed call. */
    public Status status() {
        return status;
    }

    /** The error document's code: the status name ("not_found"). */
    public String code() {
        return details.code();
    }

    /** The error document's message: one sentence a user could act on. */
    public String message() {
        return details.message();
    }

    /** The offending request member as a dotted path ("data[3].houseOwnerLatitude"), or null. */
    public String field() {
        return details.field();
    }

    /** Why a network operation failed ("refused", "timeout", "http_status", ...), or null. */
    public String reason() {
        return details.reason();
    }

    /** The non-2xx status a server answered, or null. */
    public Integer httpStatus() {
        return details.httpStatus();
    }

    /** The URL of a failed fetch or push, or null. */
    public String url() {
        return details.url();
    }

    /** The whole error document as the library wrote it (its other members: rejected, line, ...), or null. */
    public String errorJson() {
        return details.json();
    }
}
