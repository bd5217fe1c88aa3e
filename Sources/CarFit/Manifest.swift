import CarFitAPI
import CarFitCore
import CarFitServices

/// Every operation of the library, in the order of include/carfit.h's sections: visits,
/// calendar, employees and session, catalog and cart, transactions and insights, articles,
/// patterns, carousel and images, sources, auth, events.
///
/// The operation table that named exports and `carfit_call` dispatch through is built from this
/// list, and tests check it against the header's declarations, the built library's symbols and
/// the fuzzer's method list. An entry is the method name, the C symbol, the locking and the body
/// (one call of the area's API): what the request takes and how it is checked come from the
/// schema (`Generated/RequestTypes.swift`, `Generated/RequestDescriptions.swift`), never from here.
/// A new operation is its schema entry (then `scripts/gen-schema`), one entry here of the form
/// `Operation("area.verb", "carfit_area_verb", .serialized, .object { core, request throws(CarFitError) in
/// try AreaAPI.verb(core.area, request) })` (no request text: `Operation.request` is generated), its
/// API and service functions and its one-line export in `Exports/`.
enum Manifest {
    static let operations: [Operation] = [
        // Visits
        Operation("visits.import", "carfit_visits_import", .streamed,
                  .bytes { core, bytes, check throws(CarFitError) in try VisitsAPI.importVisits(core.visits, bytes, sources: core.sources, check: check) { core.progress("visits.import", total: $0) } }),
        Operation("visits.list", "carfit_visits_list", .serialized,
                  .written { core, request throws(CarFitError) in try VisitsAPI.list(core.visits, request, selected: core.calendarState.selectedDays) }),
        Operation("visits.refresh", "carfit_visits_refresh", .selfLocking,
                  .object { core, request throws(CarFitError) in try core.refresh(.visits, request) }),
        Operation("visits.plan", "carfit_visits_plan", .serialized,
                  .object { core, request throws(CarFitError) in try VisitsAPI.plan(core.visits, request) }),
        Operation("visits.set_state", "carfit_visits_set_state", .serialized,
                  .written { core, request throws(CarFitError) in try VisitsAPI.setState(core.visits, request) }),
        Operation("visits.acknowledge", "carfit_visits_acknowledge", .serialized,
                  .written { core, request throws(CarFitError) in try VisitsAPI.acknowledge(core.visits, request) }),

        // Sync
        Operation("sync.push", "carfit_sync_push", .selfLocking,
                  .object { core, request throws(CarFitError) in try SyncAPI.push(core.sync, request, lock: core) }),
        Operation("sync.status", "carfit_sync_status", .serialized,
                  .object { core, _ throws(CarFitError) in try SyncAPI.status(core.sync) }),

        // Location
        Operation("location.report", "carfit_location_report", .serialized,
                  .object { core, request throws(CarFitError) in try LocationAPI.report(core.location, request, publish: core.events.publish) }),
        Operation("location.status", "carfit_location_status", .serialized,
                  .object { core, _ throws(CarFitError) in try LocationAPI.status(core.location) }),

        // Push
        Operation("push.receive", "carfit_push_receive", .selfLocking,
                  .object { core, request throws(CarFitError) in try PushAPI.receive(core.push, request, lock: core, refreshVisits: core.refreshVisitsForPush) }),
        Operation("push.register", "carfit_push_register", .serialized,
                  .object { core, request throws(CarFitError) in try PushAPI.register(core.push, request) }),
        Operation("push.status", "carfit_push_status", .serialized,
                  .object { core, _ throws(CarFitError) in try PushAPI.status(core.push) }),
        // Attachments
        Operation("visits.attach", "carfit_visits_attach", .serialized,
                  .object { core, request throws(CarFitError) in try AttachmentsAPI.attach(core.attachments, request) }),
        Operation("visits.attachments", "carfit_visits_attachments", .serialized,
                  .object { core, request throws(CarFitError) in try AttachmentsAPI.list(core.attachments, request) }),
        Operation("visits.detach", "carfit_visits_detach", .serialized,
                  .object { core, request throws(CarFitError) in try AttachmentsAPI.detach(core.attachments, request) }),
        Operation(nil, "carfit_visits_attachment_data", .selfLocking,
                  .binary { core, request throws(CarFitError) in try AttachmentsAPI.data(core.attachments, request, lock: core) }),

        // Reminders
        Operation("reminders.list", "carfit_reminders_list", .serialized,
                  .object { core, request throws(CarFitError) in try RemindersAPI.list(core.reminders, request) }),

        // Report
        Operation("report.day", "carfit_report_day", .serialized,
                  .object { core, request throws(CarFitError) in try ReportAPI.day(core.report, request) }),
        Operation("report.durations", "carfit_report_durations", .serialized,
                  .object { core, _ throws(CarFitError) in try ReportAPI.durations(core.report) }),

        // Calendar
        Operation("calendar.get", "carfit_calendar_get", .serialized,
                  .object { core, _ throws(CarFitError) in try CalendarAPI.get(core.calendar, core.calendarState) }),
        Operation("calendar.next", "carfit_calendar_next", .serialized,
                  .object { core, _ throws(CarFitError) in try CalendarAPI.next(core.calendar, &core.calendarState) }),
        Operation("calendar.previous", "carfit_calendar_previous", .serialized,
                  .object { core, _ throws(CarFitError) in try CalendarAPI.previous(core.calendar, &core.calendarState) }),
        Operation("calendar.select", "carfit_calendar_select", .serialized,
                  .object { core, request throws(CarFitError) in try CalendarAPI.select(core.calendar, request, &core.calendarState) }),
        Operation("calendar.month", "carfit_calendar_month", .serialized,
                  .object { core, request throws(CarFitError) in try CalendarAPI.month(core.calendar, request, core.calendarState) }),

        // Employees and session
        Operation("employees.create", "carfit_employees_create", .serialized,
                  .object { core, request throws(CarFitError) in try EmployeesAPI.create(core.employees, request) }),
        Operation("employees.list", "carfit_employees_list", .serialized,
                  .object { core, _ throws(CarFitError) in try EmployeesAPI.list(core.employees) }),
        Operation("employees.recover_pin", "carfit_employees_recover_pin", .serialized,
                  .object { core, request throws(CarFitError) in try EmployeesAPI.recoverPIN(core.employees, request) }),
        Operation("session.login", "carfit_session_login", .serialized,
                  .object { core, request throws(CarFitError) in try EmployeesAPI.login(core.employees, request) }),
        Operation("session.logout", "carfit_session_logout", .serialized,
                  .object { core, _ throws(CarFitError) in EmployeesAPI.logout(core.employees) }),
        Operation("session.get", "carfit_session_get", .serialized,
                  .object { core, _ throws(CarFitError) in try EmployeesAPI.current(core.employees) }),

        // Catalog and cart
        Operation("catalog.import", "carfit_catalog_import", .streamed,
                  .bytes { core, bytes, check throws(CarFitError) in try CatalogAPI.importCatalog(core.catalog, sources: core.sources, bytes, check: check) }),
        Operation("catalog.refresh", "carfit_catalog_refresh", .selfLocking,
                  .object { core, request throws(CarFitError) in try core.refresh(.catalog, request) }),
        Operation("catalog.list", "carfit_catalog_list", .serialized,
                  .object { core, request throws(CarFitError) in try CatalogAPI.list(core.catalog, request) }),
        Operation("catalog.product", "carfit_catalog_product", .serialized,
                  .object { core, request throws(CarFitError) in try CatalogAPI.product(core.catalog, request) }),
        Operation("cart.add", "carfit_cart_add", .serialized,
                  .object { core, request throws(CarFitError) in try CatalogAPI.add(core.catalog, request) }),
        Operation("cart.update", "carfit_cart_update", .serialized,
                  .object { core, request throws(CarFitError) in try CatalogAPI.update(core.catalog, request) }),
        Operation("cart.remove", "carfit_cart_remove", .serialized,
                  .object { core, request throws(CarFitError) in try CatalogAPI.remove(core.catalog, request) }),
        Operation("cart.get", "carfit_cart_get", .serialized,
                  .object { core, _ throws(CarFitError) in try CatalogAPI.cart(core.catalog) }),
        Operation("cart.checkout", "carfit_cart_checkout", .serialized,
                  .object { core, _ throws(CarFitError) in try CatalogAPI.checkout(core.catalog) }),
        Operation("cart.orders", "carfit_cart_orders", .serialized,
                  .object { core, _ throws(CarFitError) in try CatalogAPI.orders(core.catalog) }),

        // Transactions and insights
        Operation("transactions.import", "carfit_transactions_import", .serialized,
                  .object { core, request throws(CarFitError) in try TransactionsAPI.importTransactions(core.transactions, request) }),
        Operation("transactions.list", "carfit_transactions_list", .serialized,
                  .object { core, request throws(CarFitError) in try TransactionsAPI.list(core.transactions, request) }),
        Operation("transactions.pin", "carfit_transactions_pin", .serialized,
                  .object { core, request throws(CarFitError) in try TransactionsAPI.pin(core.transactions, request) }),
        Operation("insights.get", "carfit_insights_get", .serialized,
                  .object { core, _ throws(CarFitError) in try TransactionsAPI.insights(core.transactions) }),

        // Articles
        Operation("articles.import", "carfit_articles_import", .streamed,
                  .bytes { core, bytes, check throws(CarFitError) in try ArticlesAPI.importArticles(core.articles, sources: core.sources, bytes, check: check) }),
        Operation("articles.refresh", "carfit_articles_refresh", .selfLocking,
                  .object { core, request throws(CarFitError) in try core.refresh(.articles, request) }),
        Operation("articles.list", "carfit_articles_list", .serialized,
                  .object { core, request throws(CarFitError) in try ArticlesAPI.list(core.articles, request) }),
        Operation("articles.format_date", "carfit_articles_format_date", .serialized,
                  .object { core, request throws(CarFitError) in try ArticlesAPI.formatDate(core.articles, request) }),

        // Patterns, carousel and images
        Operation("patterns.import", "carfit_patterns_import", .streamed,
                  .bytes { core, bytes, _ throws(CarFitError) in try PatternsAPI.importPatterns(core.images, bytes) }),
        Operation("patterns.refresh", "carfit_patterns_refresh", .selfLocking,
                  .object { core, request throws(CarFitError) in try core.refresh(.patterns, request) }),
        Operation("carousel.generate", "carfit_carousel_generate", .serialized,
                  .object { core, request throws(CarFitError) in try ImagesAPI.generateCarousel(core.images, request) }),
        Operation(nil, "carfit_images_data", .selfLocking,
                  .binary { core, request throws(CarFitError) in try ImagesAPI.load(core.images, request) }),
        Operation("images.prefetch", "carfit_images_prefetch", .selfLocking,
                  .object { core, request throws(CarFitError) in try ImagesAPI.prefetch(core.images, request) }),
        Operation("images.cancel", "carfit_images_cancel", .selfLocking,
                  .object { core, request throws(CarFitError) in try ImagesAPI.cancel(core.images, request) }),
        Operation("images.stats", "carfit_images_stats", .selfLocking,
                  .object { core, _ throws(CarFitError) in try ImagesAPI.stats(core.images) }),

        // Sources
        Operation("sources.status", "carfit_sources_status", .serialized,
                  .object { core, _ throws(CarFitError) in try SourcesAPI.status(core.sources) }),

        // Auth
        Operation("auth.set", "carfit_auth_set", .serialized,
                  .object { core, request throws(CarFitError) in try AuthAPI.set(core.auth, request) }),
        Operation("auth.status", "carfit_auth_status", .serialized,
                  .object { core, _ throws(CarFitError) in AuthAPI.status(core.auth) }),

        // Events
        Operation("events.wait", "carfit_events_wait", .selfLocking,
                  .object { core, request throws(CarFitError) in try EventsAPI.wait(core.feed, request) }),

        // Storage
        Operation("storage.rekey", "carfit_storage_rekey", .serialized,
                  .object { core, request throws(CarFitError) in try StorageAPI.rekey(core.rekey, request) }),
    ]

    /// The operations `carfit_call` reaches, by method name.
    static let table: [String: Operation] = {
        var table: [String: Operation] = [:]
        for operation in operations {
            if let method = operation.method { table[method] = operation }
        }
        return table
    }()

    /// The operations by C symbol.
    static let bySymbol: [String: Operation] = {
        var table: [String: Operation] = [:]
        for operation in operations { table[operation.symbol] = operation }
        return table
    }()
}
