import CarFitAPI
import CarFitCore
import CarFitServices

/// Every operation of the library, in the order of include/carfit.h's sections: visits,
/// calendar, employees and session, catalog and cart, transactions and insights, articles,
/// patterns, carousel and images, sources, auth, events.
///
/// The operation table that named exports and `carfit_call` dispatch through is built from this
/// list, and tests check it against the header's declarations, the built library's symbols and
/// the fuzzer's method list. A new operation is one entry here, its service function and its
/// one-line export in `Exports/`.
enum Manifest {
    static let operations: [Operation] = [
        // Visits
        Operation("visits.import", "carfit_visits_import", request: "the visits document: data[]", .streamed,
                  .bytes { core, bytes, _ throws(CarFitError) in try VisitsAPI.importVisits(core.visits, bytes, sources: core.sources) { core.progress("visits.import", total: $0) } }),
        Operation("visits.list", "carfit_visits_list", request: "dates[]?, employeeId?, hour24?", .serialized,
                  .written { core, request throws(CarFitError) in try VisitsAPI.list(core.visits, request, selected: core.calendarState.selectedDays) }),
        Operation("visits.refresh", "carfit_visits_refresh", request: "maxAgeSeconds?", .selfLocking,
                  .object { core, request throws(CarFitError) in try core.refresh(.visits, request) }),
        Operation("visits.plan", "carfit_visits_plan",
                  request: "date, employeeId?, start{latitude, longitude}?, startTime?, speedKmh?, detourFactor?", .serialized,
                  .object { core, request throws(CarFitError) in try VisitsAPI.plan(core.visits, request) }),
        Operation("visits.set_state", "carfit_visits_set_state", request: "key, state, reason?", .serialized,
                  .written { core, request throws(CarFitError) in try VisitsAPI.setState(core.visits, request) }),
        Operation("visits.acknowledge", "carfit_visits_acknowledge", request: "key", .serialized,
                  .written { core, request throws(CarFitError) in try VisitsAPI.acknowledge(core.visits, request) }),

        // Sync
        Operation("sync.push", "carfit_sync_push", request: "ifDue?", .selfLocking,
                  .object { core, request throws(CarFitError) in try SyncAPI.push(core.sync, request, lock: core) }),
        Operation("sync.status", "carfit_sync_status", request: "none", .serialized,
                  .object { core, _ throws(CarFitError) in try SyncAPI.status(core.sync) }),

        // Location
        Operation("location.report", "carfit_location_report", request: "latitude, longitude, accuracyMeters, at?", .serialized,
                  .object { core, request throws(CarFitError) in try LocationAPI.report(core.location, request, publish: core.events.publish) }),
        Operation("location.status", "carfit_location_status", request: "none", .serialized,
                  .object { core, _ throws(CarFitError) in try LocationAPI.status(core.location) }),
        // Attachments
        Operation("visits.attach", "carfit_visits_attach", request: "key, kind, file? or text?", .serialized,
                  .object { core, request throws(CarFitError) in try AttachmentsAPI.attach(core.attachments, request) }),
        Operation("visits.attachments", "carfit_visits_attachments", request: "key", .serialized,
                  .object { core, request throws(CarFitError) in try AttachmentsAPI.list(core.attachments, request) }),
        Operation("visits.detach", "carfit_visits_detach", request: "id", .serialized,
                  .object { core, request throws(CarFitError) in try AttachmentsAPI.detach(core.attachments, request) }),

        // Calendar
        Operation("calendar.get", "carfit_calendar_get", request: "none", .serialized,
                  .object { core, _ throws(CarFitError) in try CalendarAPI.get(core.calendar, core.calendarState) }),
        Operation("calendar.next", "carfit_calendar_next", request: "none", .serialized,
                  .object { core, _ throws(CarFitError) in try CalendarAPI.next(core.calendar, &core.calendarState) }),
        Operation("calendar.previous", "carfit_calendar_previous", request: "none", .serialized,
                  .object { core, _ throws(CarFitError) in try CalendarAPI.previous(core.calendar, &core.calendarState) }),
        Operation("calendar.select", "carfit_calendar_select", request: "date, mode?", .serialized,
                  .object { core, request throws(CarFitError) in try CalendarAPI.select(core.calendar, request, &core.calendarState) }),
        Operation("calendar.month", "carfit_calendar_month", request: "year, month", .serialized,
                  .object { core, request throws(CarFitError) in try CalendarAPI.month(core.calendar, request, core.calendarState) }),

        // Employees and session
        Operation("employees.create", "carfit_employees_create",
                  request: "pin, firstName, lastName, email?, hiredOn?", .serialized,
                  .object { core, request throws(CarFitError) in try EmployeesAPI.create(core.employees, request) }),
        Operation("employees.list", "carfit_employees_list", request: "none", .serialized,
                  .object { core, _ throws(CarFitError) in try EmployeesAPI.list(core.employees) }),
        Operation("employees.recover_pin", "carfit_employees_recover_pin", request: "email", .serialized,
                  .object { core, request throws(CarFitError) in try EmployeesAPI.recoverPIN(core.employees, request) }),
        Operation("session.login", "carfit_session_login", request: "pin", .serialized,
                  .object { core, request throws(CarFitError) in try EmployeesAPI.login(core.employees, request) }),
        Operation("session.logout", "carfit_session_logout", request: "none", .serialized,
                  .object { core, _ throws(CarFitError) in EmployeesAPI.logout(core.employees) }),
        Operation("session.get", "carfit_session_get", request: "none", .serialized,
                  .object { core, _ throws(CarFitError) in try EmployeesAPI.current(core.employees) }),

        // Catalog and cart
        Operation("catalog.import", "carfit_catalog_import", request: "Products.List[] or products[]", .streamed,
                  .bytes { core, bytes, check throws(CarFitError) in try CatalogAPI.importCatalog(core.catalog, sources: core.sources, bytes, check: check) }),
        Operation("catalog.refresh", "carfit_catalog_refresh", request: "maxAgeSeconds?", .selfLocking,
                  .object { core, request throws(CarFitError) in try core.refresh(.catalog, request) }),
        Operation("catalog.list", "carfit_catalog_list", request: "category?, sort?", .serialized,
                  .object { core, request throws(CarFitError) in try CatalogAPI.list(core.catalog, request) }),
        Operation("catalog.product", "carfit_catalog_product", request: "id", .serialized,
                  .object { core, request throws(CarFitError) in try CatalogAPI.product(core.catalog, request) }),
        Operation("cart.add", "carfit_cart_add", request: "productId, quantity?", .serialized,
                  .object { core, request throws(CarFitError) in try CatalogAPI.add(core.catalog, request) }),
        Operation("cart.update", "carfit_cart_update", request: "productId, quantity", .serialized,
                  .object { core, request throws(CarFitError) in try CatalogAPI.update(core.catalog, request) }),
        Operation("cart.remove", "carfit_cart_remove", request: "productId", .serialized,
                  .object { core, request throws(CarFitError) in try CatalogAPI.remove(core.catalog, request) }),
        Operation("cart.get", "carfit_cart_get", request: "none", .serialized,
                  .object { core, _ throws(CarFitError) in try CatalogAPI.cart(core.catalog) }),
        Operation("cart.checkout", "carfit_cart_checkout", request: "none", .serialized,
                  .object { core, _ throws(CarFitError) in try CatalogAPI.checkout(core.catalog) }),
        Operation("cart.orders", "carfit_cart_orders", request: "none", .serialized,
                  .object { core, _ throws(CarFitError) in try CatalogAPI.orders(core.catalog) }),

        // Transactions and insights
        Operation("transactions.import", "carfit_transactions_import", request: "transactions[]", .serialized,
                  .object { core, request throws(CarFitError) in try TransactionsAPI.importTransactions(core.transactions, request) }),
        Operation("transactions.list", "carfit_transactions_list", request: "category?", .serialized,
                  .object { core, request throws(CarFitError) in try TransactionsAPI.list(core.transactions, request) }),
        Operation("transactions.pin", "carfit_transactions_pin", request: "id, pinned", .serialized,
                  .object { core, request throws(CarFitError) in try TransactionsAPI.pin(core.transactions, request) }),
        Operation("insights.get", "carfit_insights_get", request: "none", .serialized,
                  .object { core, _ throws(CarFitError) in try TransactionsAPI.insights(core.transactions) }),

        // Articles
        Operation("articles.import", "carfit_articles_import", request: "status?, content[]", .streamed,
                  .bytes { core, bytes, check throws(CarFitError) in try ArticlesAPI.importArticles(core.articles, sources: core.sources, bytes, check: check) }),
        Operation("articles.refresh", "carfit_articles_refresh", request: "maxAgeSeconds?", .selfLocking,
                  .object { core, request throws(CarFitError) in try core.refresh(.articles, request) }),
        Operation("articles.list", "carfit_articles_list", request: "hour24?", .serialized,
                  .object { core, request throws(CarFitError) in try ArticlesAPI.list(core.articles, request) }),
        Operation("articles.format_date", "carfit_articles_format_date", request: "date, hour24?", .serialized,
                  .object { core, request throws(CarFitError) in try ArticlesAPI.formatDate(core.articles, request) }),

        // Patterns, carousel and images
        Operation("patterns.import", "carfit_patterns_import", request: "patterns[] or the colourlovers array", .streamed,
                  .bytes { core, bytes, _ throws(CarFitError) in try PatternsAPI.importPatterns(core.images, bytes) }),
        Operation("patterns.refresh", "carfit_patterns_refresh", request: "count?, maxAgeSeconds?", .selfLocking,
                  .object { core, request throws(CarFitError) in try core.refresh(.patterns, request) }),
        Operation("carousel.generate", "carfit_carousel_generate", request: "rows, columns, seed?", .serialized,
                  .object { core, request throws(CarFitError) in try ImagesAPI.generateCarousel(core.images, request) }),
        Operation(nil, "carfit_images_data", request: "url", .selfLocking,
                  .binary { core, request throws(CarFitError) in try ImagesAPI.load(core.images, request) }),
        Operation("images.prefetch", "carfit_images_prefetch", request: "urls[], priority?", .selfLocking,
                  .object { core, request throws(CarFitError) in try ImagesAPI.prefetch(core.images, request) }),
        Operation("images.cancel", "carfit_images_cancel", request: "urls[]", .selfLocking,
                  .object { core, request throws(CarFitError) in try ImagesAPI.cancel(core.images, request) }),
        Operation("images.stats", "carfit_images_stats", request: "none", .selfLocking,
                  .object { core, _ throws(CarFitError) in try ImagesAPI.stats(core.images) }),

        // Sources
        Operation("sources.status", "carfit_sources_status", request: "none", .serialized,
                  .object { core, _ throws(CarFitError) in try SourcesAPI.status(core.sources) }),

        // Auth
        Operation("auth.set", "carfit_auth_set", request: "token (string or null), scheme?", .serialized,
                  .object { core, request throws(CarFitError) in try AuthAPI.set(core.auth, request) }),
        Operation("auth.status", "carfit_auth_status", request: "none", .serialized,
                  .object { core, _ throws(CarFitError) in AuthAPI.status(core.auth) }),

        // Events
        Operation("events.wait", "carfit_events_wait", request: "after?, timeoutMs?", .selfLocking,
                  .object { core, request throws(CarFitError) in try EventsAPI.wait(core.feed, request) }),
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
