/// Which areas of the library each stored table feeds: the change feed's `changed` event names
/// the areas of the tables a commit wrote. One map for every table of the schema (a test fails
/// when a migration adds a table that is not here); a table missing all the same counts as
/// every area ("all").
public enum StoredAreas {
    /// The areas a `changed` event can name, in the order events list them.
    public static let areas = ["visits", "calendar", "articles", "catalog", "cart", "orders", "employees", "session",
                               "transactions", "insights", "patterns", "sources", "outbox", "location", "attachments",
                               "push"]

    /// Table name -> the areas whose documents read it.
    public static let byTable: [String: [String]] = [
        // Key/value facts: the articles' last update time and the sources' attempt counter.
        "meta": ["articles", "sources"],
        // The day list and the calendar's visit counts.
        "visits": ["visits", "calendar"],
        "transactions": ["transactions", "insights"],
        "employees": ["employees"],
        // The login lock-out answers session.login.
        "login_guard": ["session"],
        // Cart documents show the products' names and prices.
        "products": ["catalog", "cart"],
        "cart_lines": ["cart"],
        "orders": ["orders"],
        "order_lines": ["orders"],
        "articles": ["articles"],
        "article_blocks": ["articles"],
        "article_tags": ["articles"],
        "patterns": ["patterns"],
        // Each source's last attempt, success, error and validators (sources.status).
        "source_state": ["sources"],
        // The washer's changes waiting to be pushed: the outbox, and each card's pending marker.
        "local_changes": ["outbox", "visits"],
        // A changed visit's state as its card shows it (the calendar's counts do not follow it).
        "visit_local": ["visits"],
        // The push's bookkeeping and the changes the server refused (sync.status).
        "sync_state": ["outbox"],
        "sync_rejected": ["outbox"],
        // The trail and the position (location.status); arrivals and departures show on cards.
        "road_points": ["location"],
        "road_state": ["location"],
        "road_dwell": ["location"],
        "road_arrivals": ["visits", "location"],
        // Attachments, their upload queue, and each card's attachment counts.
        "attachments": ["attachments", "visits"],
        // That a visits snapshot was stored (the next one's changes are told).
        "visit_snapshots": ["visits"],
        // The pushes received, the highest seq and the device's registration (push.status).
        "push_received": ["push"],
        "push_state": ["push"],
        // The washer's facts (starts, finishes, rejections) and their planned tasks: the day's
        // time report, the learned durations and learned plans read them with the visits.
        "visit_facts": ["visits"],
        "visit_fact_tasks": ["visits"],
        // A rejected change shown on its card until acknowledged; a removed visit kept on its day
        // while it has work.
        "visit_conflicts": ["visits", "outbox"],
        "visits_removed": ["visits"],
    ]

    /// The areas of the written `tables`, in `areas` order; `["all"]` when a table is not mapped.
    public static func areas(of tables: some Sequence<String>) -> [String] {
        var named = Set<String>()
        for table in tables {
            guard let areas = byTable[table] else { return ["all"] }
            named.formUnion(areas)
        }
        return areas.filter(named.contains)
    }
}
