import CarFitKit
import Foundation
import Testing

/// Every typed method, called once against the built library; then the operations of the loaded
/// library's schema are compared with those called here, so an operation added to the contract
/// without a call in this test fails it by name.
@Suite struct OperationsTests {
    @Test func everyOperationOfTheSchemaIsCalled() async throws {
        let server = try FileServer()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let core = try Core(configJSON: dayConfig(database: directory.appendingPathComponent("day.db").path,
                                                  sources: ["visits": server.url("visits.json")]))
        let visitsFile = try resource("carfit.json", as: VisitsImportRequest.self)
        let catalogFile = try resource("catalog.json", as: CatalogImportRequest.self)
        let transactionsFile = try resource("transactions.json", as: TransactionsImportRequest.self)
        let articlesFile = try resource("articles.json", as: ArticlesImportRequest.self)
        let patternsFile = PatternsImportRequest(patterns: try resource("patterns.json", as: [JSONValue].self))
        var called: Set<String> = []
        /// A call that must succeed.
        func ok<T>(_ method: String, _ work: () async throws -> T) async throws -> T {
            called.insert(method)
            do {
                return try await work()
            } catch {
                Issue.record("\(method) failed: \(error)")
                throw error
            }
        }
        /// A call whose outcome depends on a network source this test does not give: it must
        /// succeed or fail with one of `statuses`.
        func either(_ method: String, _ statuses: Set<CarFitStatus>, _ work: () async throws -> Void) async {
            called.insert(method)
            if let error = await failure(work) {
                #expect(statuses.contains(error.status), "\(method): \(error)")
            }
        }

        // Visits
        let imported = try await ok("visits.import") {
            try await core.visitsImport(visitsFile)
        }
        #expect(imported.imported == 7)
        let list = try await ok("visits.list") { try await core.visitsList(VisitsListRequest(dates: ["2020-09-10"])) }
        let cards = list.days.first?.visits ?? []
        #expect(cards.count > 0)
        let key = try #require(cards.first { !["Done", "InProgress", "Rejected"].contains($0.state ?? "") }?.key)
        let refreshed = try await ok("visits.refresh") { try await core.visitsRefresh(VisitsRefreshRequest()) }
        #expect(refreshed.imported == 7 || refreshed.notModified == true)
        let plan = try await ok("visits.plan") { try await core.visitsPlan(VisitsPlanRequest(date: "2020-09-10")) }
        #expect(plan.date == "2020-09-10")
        let started = try await ok("visits.set_state") {
            try await core.visitsSetState(VisitsSetStateRequest(key: key, state: .inProgress))
        }
        #expect(started.visit.state == "InProgress")
        #expect(started.visit.nextStates == [.todo, .done, .rejected])
        await either("sync.push", [.unavailable, .invalid]) { _ = try await core.syncPush(SyncPushRequest()) }
        let sync = try await ok("sync.status") { try await core.syncStatus(SyncStatusRequest()) }
        #expect(sync.pending >= 1)
        called.insert("visits.acknowledge")
        let unacknowledged = await failure { try await core.visitsAcknowledge(VisitsAcknowledgeRequest(key: key)) }
        #expect(unacknowledged?.status == .conflict && unacknowledged?.field == "key")
        let reminders = try await ok("reminders.list") { try await core.remindersList(RemindersListRequest(date: "2020-09-10")) }
        #expect(reminders.date == "2020-09-10")
        #expect(reminders.reminders.allSatisfy { $0.title == "Time to leave" && $0.id == "leave:" + $0.key })
        let day = try await ok("report.day") { try await core.reportDay(ReportDayRequest(date: "2020-09-10")) }
        #expect(day.visits.first { $0.key == key }?.startedAt != nil)
        let durations = try await ok("report.durations") { try await core.reportDurations(ReportDurationsRequest()) }
        #expect(durations.tasks.isEmpty)  // nothing finished yet
        let message: [String: JSONValue] = ["carfit": .string(#"{"v": 1, "id": "m1", "kind": "message", "title": "Lunch", "body": "At noon"}"#)]
        let pushed = try await ok("push.receive") { try await core.pushReceive(PushReceiveRequest(payload: message, refresh: false)) }
        #expect(!pushed.duplicate && pushed.notifications.first?.id == "message:m1")
        let registered = try await ok("push.register") {
            try await core.pushRegister(PushRegisterRequest(platform: .fcm, token: "device-token-1"))
        }
        #expect(registered.device?.pending == true)
        let pushStatus = try await ok("push.status") { try await core.pushStatus(PushStatusRequest()) }
        #expect(pushStatus.received == 1 && pushStatus.device?.platform == .fcm)
        let report = try await ok("location.report") {
            try await core.locationReport(LocationReportRequest(latitude: 55.77883, longitude: 12.52124, accuracyMeters: 10))
        }
        #expect(report.stored)
        _ = try await ok("location.status") { try await core.locationStatus(LocationStatusRequest()) }
        let attached = try await ok("visits.attach") {
            try await core.visitsAttach(VisitsAttachRequest(key: key, kind: .note, text: "Gate code 1234"))
        }
        let listed = try await ok("visits.attachments") { try await core.visitsAttachments(VisitsAttachmentsRequest(key: key)) }
        #expect(listed.attachments.count == 1)
        let data = try await ok("visits.attachment_data") {
            try await core.visitsAttachmentDataWithBytes(VisitsAttachmentDataRequest(id: attached.attachment.id))
        }
        #expect(data.bytes == Data("Gate code 1234".utf8))
        // The core is in memory: there are no files to encrypt.
        await either("storage.rekey", [.invalid]) { _ = try await core.storageRekey(StorageRekeyRequest(key: nil)) }
        _ = try await ok("visits.detach") { try await core.visitsDetach(VisitsDetachRequest(id: attached.attachment.id)) }

        // Calendar
        let month = try await ok("calendar.get") { try await core.calendarGet(CalendarGetRequest()) }
        #expect(month.today == "2020-09-10")
        let next = try await ok("calendar.next") { try await core.calendarNext(CalendarNextRequest()) }
        #expect(next.month == 10)
        let previous = try await ok("calendar.previous") { try await core.calendarPrevious(CalendarPreviousRequest()) }
        #expect(previous.month == 9)
        let selected = try await ok("calendar.select") { try await core.calendarSelect(CalendarSelectRequest(date: "2020-09-11")) }
        #expect(selected.selected == ["2020-09-11"])
        let may = try await ok("calendar.month") { try await core.calendarMonth(CalendarMonthRequest(year: 2021, month: 5)) }
        #expect(may.year == 2021 && may.month == 5)

        // Employees and session
        let employee = try await ok("employees.create") {
            try await core.employeesCreate(EmployeesCreateRequest(pin: "1234", firstName: "Ada", lastName: "Lund",
                                                                   email: "ada@example.com"))
        }
        #expect(employee.employee.firstName == "Ada")
        let employees = try await ok("employees.list") { try await core.employeesList(EmployeesListRequest()) }
        #expect(employees.employees.count == 1)
        let recovered = try await ok("employees.recover_pin") {
            try await core.employeesRecoverPin(EmployeesRecoverPinRequest(email: "ada@example.com"))
        }
        #expect(recovered.pin == "1234")
        _ = try await ok("session.login") { try await core.sessionLogin(SessionLoginRequest(pin: "1234")) }
        let session = try await ok("session.get") { try await core.sessionGet(SessionGetRequest()) }
        #expect(session.employee?.firstName == "Ada")

        // Catalog and cart
        let catalog = try await ok("catalog.import") {
            try await core.catalogImport(catalogFile)
        }
        #expect(catalog.imported > 0)
        await either("catalog.refresh", [.unavailable, .invalid]) { _ = try await core.catalogRefresh(CatalogRefreshRequest()) }
        let products = try await ok("catalog.list") { try await core.catalogList(CatalogListRequest()) }
        let product = try #require(products.products.first)
        let detail = try await ok("catalog.product") { try await core.catalogProduct(CatalogProductRequest(id: product.id)) }
        #expect(detail.product.name == product.name)
        _ = try await ok("cart.add") { try await core.cartAdd(CartAddRequest(productId: product.id)) }
        _ = try await ok("cart.update") { try await core.cartUpdate(CartUpdateRequest(productId: product.id, quantity: 3)) }
        let cart = try await ok("cart.get") { try await core.cartGet(CartGetRequest()) }
        #expect(cart.cart.lines.first?.quantity == 3)
        let checkout = try await ok("cart.checkout") { try await core.cartCheckout(CartCheckoutRequest()) }
        #expect(checkout.cart.lines.isEmpty)
        _ = try await ok("cart.add") { try await core.cartAdd(CartAddRequest(productId: product.id, quantity: 2)) }
        let removed = try await ok("cart.remove") { try await core.cartRemove(CartRemoveRequest(productId: product.id)) }
        #expect(removed.cart.lines.isEmpty)
        let orders = try await ok("cart.orders") { try await core.cartOrders(CartOrdersRequest()) }
        #expect(orders.orders.count == 1)
        _ = try await ok("session.logout") { try await core.sessionLogout(SessionLogoutRequest()) }

        // Transactions and insights
        let transactions = try await ok("transactions.import") {
            try await core.transactionsImport(transactionsFile)
        }
        #expect(transactions.imported > 0)
        let listedTransactions = try await ok("transactions.list") { try await core.transactionsList(TransactionsListRequest()) }
        let transaction = try #require(listedTransactions.transactions.first)
        let pinned = try await ok("transactions.pin") {
            try await core.transactionsPin(TransactionsPinRequest(id: transaction.id, pinned: true))
        }
        #expect(pinned.transaction.pinned)
        let insights = try await ok("insights.get") { try await core.insightsGet(InsightsGetRequest()) }
        #expect(!insights.categories.isEmpty)

        // Articles, patterns, carousel
        let articles = try await ok("articles.import") {
            try await core.articlesImport(articlesFile)
        }
        #expect(articles.imported > 0)
        await either("articles.refresh", [.unavailable, .invalid]) { _ = try await core.articlesRefresh(ArticlesRefreshRequest()) }
        let articleList = try await ok("articles.list") { try await core.articlesList(ArticlesListRequest()) }
        #expect(!articleList.articles.isEmpty)
        let formatted = try await ok("articles.format_date") {
            try await core.articlesFormatDate(ArticlesFormatDateRequest(date: "2020-09-10T08:05:00Z"))
        }
        #expect(!formatted.text.isEmpty)
        let patterns = try await ok("patterns.import") {
            try await core.patternsImport(patternsFile)
        }
        #expect(patterns.imported > 0)
        await either("patterns.refresh", [.unavailable, .invalid]) { _ = try await core.patternsRefresh(PatternsRefreshRequest()) }
        let carousel = try await ok("carousel.generate") {
            try await core.carouselGenerate(CarouselGenerateRequest(rows: 2, columns: 3, seed: 7))
        }
        #expect(carousel.rows.count == 2)

        // Images
        let image = try await ok("images.data") { try await core.imagesDataWithBytes(ImagesDataRequest(url: server.url("dot.png"))) }
        #expect(image.bytes == pngBytes)
        #expect(image.response.contentType == .imagePng)
        _ = try await ok("images.data") { try await core.imagesData(ImagesDataRequest(url: server.url("dot.png"))) }
        let queued = try await ok("images.prefetch") {
            try await core.imagesPrefetch(ImagesPrefetchRequest(urls: [server.url("missing.png")], priority: .low))
        }
        #expect(queued.queued <= 1)
        _ = try await ok("images.cancel") { try await core.imagesCancel(ImagesCancelRequest(urls: [server.url("missing.png")])) }
        let stats = try await ok("images.stats") { try await core.imagesStats(ImagesStatsRequest()) }
        #expect(stats.memory.count >= 1)

        // Sources, auth, events
        let sources = try await ok("sources.status") { try await core.sourcesStatus(SourcesStatusRequest()) }
        #expect(sources.sources["visits"] != nil)
        _ = try await ok("auth.set") { try await core.authSet(AuthSetRequest(token: "secret-token")) }
        _ = try await ok("auth.set") { try await core.authSet(AuthSetRequest(token: nil)) }
        _ = try await ok("auth.status") { try await core.authStatus(AuthStatusRequest()) }
        let events = try await ok("events.wait") { try await core.eventsWait(EventsWaitRequest(after: 0, timeoutMs: 0)) }
        #expect(events.events.first?.kind == "changed")

        // Every operation of the loaded library's contract was called above.
        let schema = try JSONSerialization.jsonObject(with: Data(Core.schemaText.utf8)) as? [String: Any]
        let operations = Set((schema?["operations"] as? [String: Any] ?? [:]).keys)
        #expect(operations.count >= 52)
        let untested = operations.subtracting(called).sorted()
        #expect(untested.isEmpty, "operations without a call in OperationsTests: \(untested)")
        #expect(Set(Operations.all.map { $0.method }) == operations, "the generated code is not of the loaded library's schema")
    }
}
