package io.carfit;

import com.google.gson.JsonObject;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The planner's pushes through the typed methods: a message push, its repetition, the device. */
class PushTest {
    static JsonObject payload(String id, String kind) {
        JsonObject carfit = new JsonObject();
        carfit.addProperty("v", 1);
        carfit.addProperty("id", id);
        carfit.addProperty("kind", kind);
        carfit.addProperty("seq", 1);
        carfit.addProperty("title", "Lunch");
        carfit.addProperty("body", "At noon");
        JsonObject payload = new JsonObject();
        payload.addProperty("carfit", carfit.toString());   // FCM: a string holding the object
        return payload;
    }

    @Test
    void aMessagePushOnceAndTheDevice() {
        try (Core core = Core.open(Fixtures.config(new JsonObject()))) {
            PushReceiveResponse first = core.pushReceive(new PushReceiveRequest(payload("m1", "message"), false));
            assertFalse(first.duplicate());
            assertNull(first.refreshError());
            assertEquals(1, first.notifications().size());
            assertEquals("message:m1", first.notifications().get(0).id());
            assertTrue(core.pushReceive(new PushReceiveRequest(payload("m1", "message"), false)).duplicate());
            assertThrows(InvalidException.class,
                    () -> core.pushReceive(new PushReceiveRequest(payload("m2", "other"), false)));

            PushRegisterResponse registered = core.pushRegister(
                    new PushRegisterRequest(PushRegisterRequest.Platform.FCM, "token-1"));
            assertTrue(registered.device().pending());
            PushStatusResponse status = core.pushStatus(new PushStatusRequest());
            assertEquals(1L, status.lastSeq());
            assertEquals(1, status.received());
            assertFalse(status.device().registered());
        }
    }
}
