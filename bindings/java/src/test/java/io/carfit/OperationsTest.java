package io.carfit;

import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every typed method against the real library, on the example data. */
class OperationsTest {
    static HttpServer server;

    @BeforeAll
    static void serve() throws IOException {
        server = Fixtures.server();
    }

    @AfterAll
    static void stop() {
        server.stop(0);
    }

    static Core withSources() {
        JsonObject sources = new JsonObject();
        sources.addProperty("visits", Fixtures.url(server, "/visits"));
        sources.addProperty("articles", Fixtures.url(server, "/articles"));
        sources.addProperty("catalog", Fixtures.url(server, "/catalog"));
        sources.addProperty("patterns", Fixtures.url(server, "/patterns"));
        sources.addProperty("visitUpdates", Fixtures.url(server, "/updates"));
        JsonObject extra = new JsonObject();
        extra.add("sources", sources);
        return Core.open(Fixtures.config(extra));
    }

    static VisitsImportResponse importVisits(Core core) {
        return core.visitsImport(Core.GSON.fromJson(Fixtures.example("carfit.json"), VisitsImportRequest.class));
    }

    @Test
    void visitsOfTheExampleDay(@TempDir Path dir) {
        JsonObject extra = new JsonObject();
        extra.addProperty("database", dir.resolve("carfit.db").toString());
        try (Core core = Core.open(Fixtures.config(extra))) {
            VisitsImportResponse imported = importVisits(core);
            assertEquals(7, imported.imported());
            assertTrue(imported.rejected().isEmpty());

            VisitsListResponse list = core.visitsList(new VisitsListRequest(List.of("2020-09-10"), null, null));
            assertEquals(1, list.days().size());
            Day day = list.days().get(0);
            assertEquals("2020-09-10", day.date());
            assertEquals(day.visits().size(), day.summary().visits());
            assertFalse(day.visits().isEmpty());
            Card card = day.visits().stream().filter(c -> "Todo".equals(c.state())).findFirst().orElseThrow();
            assertNotNull(card.key());
            assertEquals("10:05", day.visits().get(0).startTime());  // 08:05 UTC in Copenhagen's summer (UTC+2)

            VisitsPlanResponse plan = core.visitsPlan(new VisitsPlanRequest("2020-09-10", null, null, null, null, null,
                    null, VisitsPlanRequest.Durations.LEARNED));
            assertNotNull(plan);

            VisitsSetStateResponse started = core.visitsSetState(
                    new VisitsSetStateRequest(card.key(), VisitsSetStateRequest.State.IN_PROGRESS, null));
            assertEquals("InProgress", started.visit().state());
            assertTrue(started.visit().pending());

            VisitsAttachResponse note = core.visitsAttach(
                    new VisitsAttachRequest(card.key(), VisitsAttachRequest.Kind.NOTE, null, "Gate code 1234"));
            assertEquals(Attachment.Kind.NOTE, note.attachment().kind());
            assertEquals(14, note.attachment().bytes());
            AttachmentData data = core.visitsAttachmentDataWithBytes(new VisitsAttachmentDataRequest(note.attachment().id()));
            assertArrayEquals("Gate code 1234".getBytes(java.nio.charset.StandardCharsets.UTF_8), data.bytes());
            assertEquals(14, core.visitsAttachmentData(new VisitsAttachmentDataRequest(note.attachment().id())).bytes());
            // Encrypted under a key, then plaintext again: the note reads back the same.
            assertTrue(core.storageRekey(new StorageRekeyRequest("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff")).encrypted());
            assertArrayEquals(data.bytes(),
                    core.visitsAttachmentDataWithBytes(new VisitsAttachmentDataRequest(note.attachment().id())).bytes());
            assertFalse(core.storageRekey(new StorageRekeyRequest(null)).encrypted());
            VisitsAttachmentsResponse attachments = core.visitsAttachments(new VisitsAttachmentsRequest(card.key()));
            assertEquals(1, attachments.attachments().size());
            VisitsDetachResponse detached = core.visitsDetach(new VisitsDetachRequest(note.attachment().id()));
            assertEquals(note.attachment().id(), detached.attachment().id());
            assertTrue(core.visitsAttachments(new VisitsAttachmentsRequest(card.key())).attachments().isEmpty());

            SyncStatusResponse sync = core.syncStatus(new SyncStatusRequest());
            assertTrue(sync.pending() >= 1);
            ConflictException noConflict = assertThrows(ConflictException.class,
                    () -> core.visitsAcknowledge(new VisitsAcknowledgeRequest(card.key())));
            assertEquals("key", noConflict.field());
            RemindersListResponse reminders = core.remindersList(new RemindersListRequest("2020-09-10"));
            assertEquals("2020-09-10", reminders.date());
            reminders.reminders().forEach(r -> assertEquals("leave:" + r.key(), r.id()));
            ReportDayResponse dayReport = core.reportDay(new ReportDayRequest("2020-09-10"));
            assertNotNull(dayReport.visits().stream().filter(v -> v.key().equals(card.key())).findFirst()
                    .orElseThrow().startedAt());
            assertTrue(core.reportDurations(new ReportDurationsRequest()).tasks().isEmpty());  // nothing finished yet
            LocationReportResponse report = core.locationReport(
                    new LocationReportRequest(55.6761, 12.5683, 10.0, null));
            assertNotNull(report);
            LocationStatusResponse location = core.locationStatus(new LocationStatusRequest());
            assertNotNull(location.position());
            assertEquals(55.6761, location.position().latitude(), 1e-9);
        }
    }

    @Test
    void refreshesPushAndSourcesOverHttp() {
        try (Core core = withSources()) {
            VisitsRefreshResponse visits = core.visitsRefresh(new VisitsRefreshRequest(null));
            assertEquals(7, visits.imported());
            ArticlesRefreshResponse articles = core.articlesRefresh(new ArticlesRefreshRequest(null));
            assertTrue(articles.imported() > 0);
            CatalogRefreshResponse catalog = core.catalogRefresh(new CatalogRefreshRequest(null));
            assertTrue(catalog.imported() > 0);
            PatternsRefreshResponse patterns = core.patternsRefresh(new PatternsRefreshRequest(null, null));
            assertNotNull(patterns);
            SourcesStatusResponse sources = core.sourcesStatus(new SourcesStatusRequest());
            assertTrue(sources.sources().containsKey("visits"), sources.toString());
            SyncPushResponse push = core.syncPush(new SyncPushRequest(null));
            assertEquals(0, push.pushed());
        }
    }

    @Test
    void calendar() {
        try (Core core = Fixtures.open()) {
            CalendarGetResponse now = core.calendarGet(new CalendarGetRequest());
            assertEquals(2020, now.year());
            assertEquals(9, now.month());
            CalendarNextResponse next = core.calendarNext(new CalendarNextRequest());
            assertEquals(10, next.month());
            CalendarPreviousResponse previous = core.calendarPrevious(new CalendarPreviousRequest());
            assertEquals(9, previous.month());
            CalendarMonthResponse month = core.calendarMonth(new CalendarMonthRequest(2021, 2));
            assertEquals(2, month.month());
            CalendarSelectResponse selected = core.calendarSelect(
                    new CalendarSelectRequest("2021-02-03", CalendarSelectRequest.Mode.SINGLE));
            assertEquals(List.of("2021-02-03"), selected.selected());
        }
    }

    @Test
    void employeesSessionAndShop() {
        try (Core core = Fixtures.open()) {
            EmployeesCreateResponse created = core.employeesCreate(
                    new EmployeesCreateRequest("4321", "Ada", "Lovelace", "ada@example.com", null));
            assertEquals("Ada", created.employee().firstName());
            assertEquals(1, core.employeesList(new EmployeesListRequest()).employees().size());
            EmployeesRecoverPinResponse pin = core.employeesRecoverPin(
                    new EmployeesRecoverPinRequest("ada@example.com"));
            assertNotNull(pin);
            SessionLoginResponse login = core.sessionLogin(new SessionLoginRequest("4321"));
            assertEquals("Lovelace", login.employee().lastName());
            assertEquals("Ada", core.sessionGet(new SessionGetRequest()).employee().firstName());

            CatalogImportResponse catalog = core.catalogImport(
                    Core.GSON.fromJson(Fixtures.example("catalog.json"), CatalogImportRequest.class));
            assertTrue(catalog.imported() > 0);
            CatalogListResponse products = core.catalogList(new CatalogListRequest(null, CatalogListRequest.Sort.NAME));
            assertEquals(catalog.imported(), products.products().size());
            JsonPrimitive id = new JsonPrimitive(101);
            assertEquals(101, core.catalogProduct(new CatalogProductRequest(id)).product().id().getAsLong());
            CartAddResponse added = core.cartAdd(new CartAddRequest(id, 2L));
            assertEquals(1, added.cart().lines().size());
            CartUpdateResponse updated = core.cartUpdate(new CartUpdateRequest(id, 3));
            assertEquals(3, updated.cart().lines().get(0).quantity());
            CartGetResponse cart = core.cartGet(new CartGetRequest());
            assertEquals(3, cart.cart().lines().get(0).quantity());
            CartCheckoutResponse order = core.cartCheckout(new CartCheckoutRequest());
            assertNotNull(order.order());
            assertEquals(1, core.cartOrders(new CartOrdersRequest()).orders().size());
            core.cartAdd(new CartAddRequest(id, null));
            CartRemoveResponse removed = core.cartRemove(new CartRemoveRequest(id));
            assertTrue(removed.cart().lines().isEmpty());
            core.sessionLogout(new SessionLogoutRequest());
            assertNull(core.sessionGet(new SessionGetRequest()).employee());
        }
    }

    @Test
    void transactionsArticlesPatternsAndCarousel() {
        try (Core core = Fixtures.open()) {
            TransactionsImportResponse imported = core.transactionsImport(
                    Core.GSON.fromJson(Fixtures.example("transactions.json"), TransactionsImportRequest.class));
            assertTrue(imported.imported() > 0);
            TransactionsListResponse list = core.transactionsList(new TransactionsListRequest(null));
            assertFalse(list.transactions().isEmpty());
            TransactionsPinResponse pinned = core.transactionsPin(new TransactionsPinRequest(new JsonPrimitive(1), true));
            assertNotNull(pinned);
            InsightsGetResponse insights = core.insightsGet(new InsightsGetRequest());
            assertNotNull(insights);

            ArticlesImportResponse articles = core.articlesImport(
                    Core.GSON.fromJson(Fixtures.example("articles.json"), ArticlesImportRequest.class));
            assertTrue(articles.imported() > 0);
            assertEquals(articles.imported(), core.articlesList(new ArticlesListRequest(null)).articles().size());
            ArticlesFormatDateResponse date = core.articlesFormatDate(
                    new ArticlesFormatDateRequest("2018-05-25T14:13:00Z", true));
            assertNotNull(date);

            PatternsImportResponse patterns = core.patternsImport(new PatternsImportRequest(
                    Core.GSON.fromJson(Fixtures.example("patterns.json"), JsonArrayList.class)));
            assertTrue(patterns.imported() > 0);
            CarouselGenerateResponse carousel = core.carouselGenerate(new CarouselGenerateRequest(2, 3, 7L));
            assertEquals(2, carousel.rows().size());
        }
    }

    /** A JSON array read as a list of elements. */
    static final class JsonArrayList extends java.util.ArrayList<com.google.gson.JsonElement> {
        private static final long serialVersionUID = 1L;
    }

    @Test
    void imagesAuthAndEvents() throws Exception {
        try (Core core = Fixtures.open()) {
            String url = Fixtures.url(server, "/image.png");
            ImageData image = core.imagesDataWithBytes(new ImagesDataRequest(url));
            assertArrayEquals(Fixtures.PNG, image.bytes());
            assertEquals(Fixtures.PNG.length, image.response().bytes());
            assertEquals(ImagesDataResponse.Source.NETWORK, image.response().source());
            assertEquals(ImagesDataResponse.ContentType.IMAGE_PNG, image.response().contentType());
            assertEquals(ImagesDataResponse.Source.MEMORY, core.imagesData(new ImagesDataRequest(url)).source());
            ImagesPrefetchResponse prefetch = core.imagesPrefetch(
                    new ImagesPrefetchRequest(List.of(Fixtures.url(server, "/image.png?2")), null));
            assertTrue(prefetch.queued() <= 1);
            ImagesCancelResponse cancel = core.imagesCancel(new ImagesCancelRequest(List.of(url)));
            assertNotNull(cancel);
            ImagesStatsResponse stats = core.imagesStats(new ImagesStatsRequest());
            assertNotNull(stats);

            AuthSetResponse set = core.authSet(new AuthSetRequest("s3cret-token", null));
            assertNotNull(set);
            assertTrue(core.authStatus(new AuthStatusRequest()).auth().token());
            core.authSet(new AuthSetRequest(null, null));  // null clears the token: written as null
            assertFalse(core.authStatus(new AuthStatusRequest()).auth().token());

            EventsWaitResponse events = core.eventsWait(new EventsWaitRequest(0L, 0L));
            assertTrue(events.last() >= 0);
        }
    }
}
