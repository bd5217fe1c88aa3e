package io.carfit;

import com.google.gson.JsonObject;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each status a host can provoke arrives as its own exception with the error document's members. */
class ErrorsTest {
    @Test
    void badJson() {
        try (Core core = Fixtures.open()) {
            BadJsonException e = assertThrows(BadJsonException.class, () -> core.call("visits.list", "{\"dates\": ["));
            assertEquals(Status.BAD_JSON, e.status());
            assertEquals("bad_json", e.code());
            assertTrue(e.errorJson().contains("\"line\""), e.errorJson());
        }
    }

    @Test
    void invalidNamesTheField() {
        try (Core core = Fixtures.open()) {
            InvalidException e = assertThrows(InvalidException.class,
                    () -> core.calendarMonth(new CalendarMonthRequest(2020, 13)));
            assertEquals(Status.INVALID, e.status());
            assertEquals("invalid", e.code());
            assertEquals("month", e.field());
            assertNotNull(e.getMessage());
            assertEquals(e.getMessage(), e.message());
            CarFitException asBase = e;
            assertEquals(2, asBase.status().value());
        }
    }

    @Test
    void invalidConfigAtOpen() {
        InvalidException e = assertThrows(InvalidException.class, () -> Core.open("{\"timezone\": \"UTC\"}"));
        assertEquals("timezone", e.field());
        assertTrue(e.getMessage().contains("timeZone"), e.getMessage());
    }

    @Test
    void notFound() {
        try (Core core = Fixtures.open()) {
            NotFoundException e = assertThrows(NotFoundException.class,
                    () -> core.employeesRecoverPin(new EmployeesRecoverPinRequest("nobody@example.com")));
            assertEquals("not_found", e.code());
            assertEquals(Status.NOT_FOUND, e.status());
        }
    }

    @Test
    void conflict() {
        try (Core core = Fixtures.open()) {
            core.employeesCreate(new EmployeesCreateRequest("1111", "A", "B", "a@example.com", null));
            ConflictException e = assertThrows(ConflictException.class,
                    () -> core.employeesCreate(new EmployeesCreateRequest("2222", "C", "D", "a@example.com", null)));
            assertEquals("conflict", e.code());
        }
    }

    @Test
    void unauthorized() {
        try (Core core = Fixtures.open()) {
            core.employeesCreate(new EmployeesCreateRequest("1111", "A", "B", null, null));
            UnauthorizedException e = assertThrows(UnauthorizedException.class,
                    () -> core.sessionLogin(new SessionLoginRequest("9999")));
            assertEquals(Status.UNAUTHORIZED, e.status());
        }
    }

    @Test
    void unauthorizedSourceCarriesTheHttpStatus() throws Exception {
        HttpServer server = Fixtures.server();
        try {
            JsonObject sources = new JsonObject();
            sources.addProperty("visits", Fixtures.url(server, "/refused"));
            JsonObject extra = new JsonObject();
            extra.add("sources", sources);
            try (Core core = Core.open(Fixtures.config(extra))) {
                UnauthorizedException e = assertThrows(UnauthorizedException.class,
                        () -> core.visitsRefresh(new VisitsRefreshRequest(null)));
                assertEquals(401, e.httpStatus());
                assertEquals(Fixtures.url(server, "/refused"), e.url());
            }
        } finally {
            server.stop(0);
        }
    }

    @Test
    void unavailableFromARefusedPort() {
        JsonObject sources = new JsonObject();
        String url = "http://127.0.0.1:" + Fixtures.refusedPort() + "/visits";
        sources.addProperty("visits", url);
        JsonObject extra = new JsonObject();
        extra.add("sources", sources);
        try (Core core = Core.open(Fixtures.config(extra))) {
            UnavailableException e = assertThrows(UnavailableException.class,
                    () -> core.visitsRefresh(new VisitsRefreshRequest(null)));
            assertEquals("unavailable", e.code());
            assertEquals("refused", e.reason());
            assertEquals(url, e.url());
        }
    }

    @Test
    void storage(@TempDir Path dir) {
        JsonObject config = new JsonObject();
        config.addProperty("database", dir.resolve("no/such/dir/carfit.db").toString());
        StorageException e = assertThrows(StorageException.class, () -> Core.open(config.toString()));
        assertEquals("database", e.field());
        assertEquals(Status.STORAGE, e.status());
    }

    @Test
    void misuseForAnUnknownMethodAndAClosedCore() {
        Core core = Fixtures.open();
        MisuseException unknown = assertThrows(MisuseException.class, () -> core.call("visits.nothing", "{}"));
        assertEquals("method", unknown.field());
        core.close();
        MisuseException closed = assertThrows(MisuseException.class,
                () -> core.visitsList(new VisitsListRequest(null, null, null)));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
    }

    @Test
    void everyStatusOfTheHeaderHasItsException() {
        for (Status status : Status.values()) {
            if (status == Status.OK) {
                continue;
            }
            CarFitException e = CarFitException.of(status.value(),
                    "{\"error\": {\"code\": \"" + status.code() + "\", \"message\": \"m\"}}");
            assertEquals(status, e.status());
            assertEquals(status.code(), e.code());
            assertEquals(status.code().replace("_", "") + "exception", e.getClass().getSimpleName().toLowerCase());
            assertTrue(e.getClass().getSuperclass() == CarFitException.class);
        }
    }
}
