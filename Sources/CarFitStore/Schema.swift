import CarFitCore

/// The database schema, versioned with `PRAGMA user_version`: migration N (1-based) brings a
/// database from version N-1 to N. The migrations a database lacks run together in one
/// transaction, so a failure leaves it at its old version. Add features by appending a
/// migration; never edit the SQL of one that has shipped. The migrations are the only place
/// that writes the schema's DDL: code that needs an index's definition again reads it back
/// from the database (`indexes(on:_:)`).
enum Schema {
    static let migrations: [String] = [
        // 1: key/value facts of the core, and the visits snapshot.
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE visits (
            seq INTEGER PRIMARY KEY,          -- position in the snapshot
            visit_id TEXT,
            employee_id TEXT,
            start_ms INTEGER NOT NULL,        -- startTimeUtc, ms since the epoch
            name TEXT NOT NULL,
            state TEXT,
            expected_time TEXT,
            tasks TEXT NOT NULL,
            task_minutes INTEGER NOT NULL,
            address TEXT NOT NULL,
            phone TEXT,
            latitude REAL,
            longitude REAL
        );
        CREATE INDEX visits_by_start ON visits (start_ms, seq);
        """,
        // Transactions, upserted by id. `id` has no declared type on purpose: an integer id and
        // a text id are stored as given and stay distinct (1 is not '1').
        """
        CREATE TABLE transactions (
            id NOT NULL PRIMARY KEY CHECK (typeof(id) IN ('integer', 'text')),
            name TEXT,
            category TEXT NOT NULL,           -- trimmed, lower-case
            amount_cents INTEGER NOT NULL,    -- exact minor units
            date TEXT NOT NULL,               -- YYYY-MM-DD
            account_name TEXT,
            provider TEXT,
            pinned INTEGER NOT NULL CHECK (pinned IN (0, 1))
        );
        CREATE INDEX transactions_by_category ON transactions (category, date DESC, id);
        """,
        // Employees, the login lock-out, the catalog, carts and orders.
        """
        CREATE TABLE employees (
            id INTEGER PRIMARY KEY,
            pin TEXT NOT NULL UNIQUE,
            first_name TEXT NOT NULL,
            last_name TEXT NOT NULL,
            last_name_key TEXT NOT NULL UNIQUE,   -- lower-cased last name
            email TEXT UNIQUE,                    -- lower-case; NULL when none
            hired_on TEXT NOT NULL                -- YYYY-MM-DD
        );
        CREATE TABLE login_guard (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            failures INTEGER NOT NULL,            -- wrong PINs in a row
            locked_until_ms INTEGER               -- end of the lock, ms since the epoch
        );
        CREATE TABLE products (
            id TEXT PRIMARY KEY,                  -- decimal text of an integer id, or the string id
            id_is_int INTEGER NOT NULL,
            seq INTEGER NOT NULL UNIQUE,          -- import order
            name TEXT NOT NULL,
            category TEXT,
            description TEXT,
            image_url TEXT,
            price_cents INTEGER NOT NULL
        );
        CREATE TABLE cart_lines (
            employee_id INTEGER NOT NULL REFERENCES employees (id),
            position INTEGER NOT NULL,            -- order of first addition
            product_id TEXT NOT NULL REFERENCES products (id),
            quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 999),
            PRIMARY KEY (employee_id, product_id)
        );
        CREATE TABLE orders (
            id INTEGER PRIMARY KEY,
            employee_id INTEGER NOT NULL REFERENCES employees (id),
            placed_at_ms INTEGER NOT NULL,
            total_quantity INTEGER NOT NULL
        );
        CREATE INDEX orders_by_employee ON orders (employee_id, id);
        CREATE TABLE order_lines (
            order_id INTEGER NOT NULL REFERENCES orders (id),
            position INTEGER NOT NULL,
            product_id TEXT NOT NULL,
            product_id_is_int INTEGER NOT NULL,
            name TEXT NOT NULL,
            image_url TEXT,
            quantity INTEGER NOT NULL,
            price_cents INTEGER NOT NULL,         -- unit price when the order was placed
            PRIMARY KEY (order_id, position)
        );
        """,
        // Articles: the snapshot of the Cars feed, the offline cache.
        """
        CREATE TABLE articles (
            seq INTEGER PRIMARY KEY,          -- position in the snapshot
            article_id NOT NULL,              -- as given: INTEGER or TEXT (no type affinity)
            title TEXT NOT NULL,
            ingress TEXT,
            image_url TEXT,
            published_ms INTEGER NOT NULL,    -- dateTime, ms since the epoch
            tags TEXT NOT NULL,               -- JSON array, as given
            content TEXT NOT NULL             -- JSON array of {"type", "subject", "description"}
        );
        CREATE INDEX articles_by_published ON articles (published_ms DESC, seq);
        """,
        // The carousel's pattern pool, in import order; one row per image URL.
        """
        CREATE TABLE patterns (
            seq INTEGER PRIMARY KEY,          -- first import order (round robin order)
            image_url TEXT NOT NULL UNIQUE,
            title TEXT,
            colors TEXT NOT NULL              -- "RRGGBB" values joined with ","
        );
        """,
        // A day's visits with every column the day query reads, in start order: the query reads
        // these index pages alone instead of one table page per visit. It starts with
        // visits_by_start's columns and replaces it.
        """
        DROP INDEX visits_by_start;
        CREATE INDEX visits_by_day ON visits (start_ms, seq, visit_id, employee_id, name, state, expected_time, tasks,
                                              task_minutes, address, phone, latitude, longitude);
        """,
        // Each source's refresh state: the validators of its last stored 200 (for the URL they
        // came from), its last attempt, success and error, and where those fall in the order of
        // every source's attempts (`seq`), from which the offline flag is read.
        """
        CREATE TABLE source_state (
            name TEXT PRIMARY KEY,                -- visits, articles, catalog, patterns
            validators_url TEXT,                  -- the URL etag and last_modified answer for
            etag TEXT,
            last_modified TEXT,
            last_attempt_ms INTEGER,
            last_success_ms INTEGER,
            not_modified INTEGER NOT NULL DEFAULT 0 CHECK (not_modified IN (0, 1)),
            consecutive_failures INTEGER NOT NULL DEFAULT 0,
            error_reason TEXT,                    -- NULL: the last attempt succeeded (or none)
            error_message TEXT,
            error_ms INTEGER,
            error_status INTEGER,
            success_seq INTEGER,                  -- attempt order of the last success
            network_failure_seq INTEGER           -- attempt order of the last network failure
        );
        """,
        // The washer's updates. Each visit keeps its repetition (its place among the snapshot's
        // records of its (visit_id, start_ms) pair: the key's third part) and the source's time
        // used. `local_changes` is the outbox and the applied changes still shown (seq = outbox
        // order); `visit_local` is each changed visit's overlay as the day query shows it;
        // `sync_state` is the one row of the push's bookkeeping, with the database's client id,
        // made here once; `sync_rejected` keeps the last rejected changes.
        """
        ALTER TABLE visits ADD COLUMN repetition INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE visits ADD COLUMN time_used INTEGER;
        UPDATE visits SET repetition = (SELECT count(*) FROM visits AS o
                                        WHERE o.start_ms = visits.start_ms AND o.visit_id IS visits.visit_id
                                          AND o.seq < visits.seq);
        DROP INDEX visits_by_day;
        CREATE INDEX visits_by_day ON visits (start_ms, seq, visit_id, employee_id, name, state, expected_time, tasks,
                                              task_minutes, address, phone, latitude, longitude, repetition, time_used);
        CREATE UNIQUE INDEX visits_by_key ON visits (visit_id, start_ms, repetition);
        CREATE TABLE local_changes (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            mutation_id TEXT NOT NULL UNIQUE,
            visit_key TEXT NOT NULL,
            visit_id TEXT,
            start_ms INTEGER NOT NULL,
            state TEXT NOT NULL,
            at_ms INTEGER NOT NULL,               -- the core's clock when the washer made it
            time_used INTEGER,
            reason TEXT,
            status TEXT NOT NULL CHECK (status IN ('pending', 'applied'))
        );
        CREATE INDEX local_changes_by_key ON local_changes (visit_key, seq);
        CREATE INDEX local_changes_pending ON local_changes (seq) WHERE status = 'pending';
        CREATE TABLE visit_local (
            visit_key TEXT PRIMARY KEY,
            visit_id TEXT,
            start_ms INTEGER NOT NULL,
            repetition INTEGER NOT NULL,
            base_started_ms INTEGER,              -- the start a later Done measures from
            shown_state TEXT,                     -- the last change's state; NULL: the snapshot's
            pending INTEGER NOT NULL CHECK (pending IN (0, 1)),
            time_used INTEGER                     -- the last change's time used; NULL: the snapshot's
        );
        CREATE INDEX visit_local_by_start ON visit_local (start_ms);
        CREATE TABLE sync_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            client_id TEXT NOT NULL,
            last_attempt_ms INTEGER,
            last_success_ms INTEGER,
            last_error TEXT,                      -- JSON {"reason", "message", "at", "httpStatus"}
            consecutive_failures INTEGER NOT NULL,
            next_attempt_ms INTEGER
        );
        INSERT INTO sync_state (id, client_id, consecutive_failures) VALUES (1,
            lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2)
            || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2)
            || '-' || lower(hex(randomblob(6))), 0);
        CREATE TABLE sync_rejected (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            mutation_id TEXT NOT NULL,
            visit_id TEXT,
            start_ms INTEGER NOT NULL,
            state TEXT NOT NULL,
            reason TEXT NOT NULL,
            at_ms INTEGER NOT NULL
        );
        """,
        // The washer on the road: the trail of positions (each point waits in the location
        // outbox until the planner applied it), each visit's arrival and departure, the run of
        // reports within each visit's radius, and the last position.
        """
        CREATE TABLE road_points (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,              -- a UUID, made once
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            accuracy REAL NOT NULL,               -- metres
            at_ms INTEGER NOT NULL,
            pushed INTEGER NOT NULL DEFAULT 0 CHECK (pushed IN (0, 1))
        );
        CREATE INDEX road_points_pending ON road_points (pushed, seq);
        CREATE TABLE road_arrivals (
            visit_key TEXT PRIMARY KEY,
            start_ms INTEGER NOT NULL,
            arrived_ms INTEGER NOT NULL,
            departed_ms INTEGER
        );
        CREATE INDEX road_arrivals_by_start ON road_arrivals (start_ms);
        CREATE TABLE road_dwell (
            visit_key TEXT PRIMARY KEY,
            inside_since_ms INTEGER NOT NULL
        );
        CREATE TABLE road_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            newest_ms INTEGER,                    -- the newest accepted report
            latitude REAL, longitude REAL, accuracy REAL, at_ms INTEGER,   -- the position
            stored_latitude REAL, stored_longitude REAL, stored_ms INTEGER, -- the last stored point
            last_push_ms INTEGER
        );
        INSERT INTO road_state (id) VALUES (1);
        """,
        // Proof of work: photos, signatures and notes attached to visits, in the order attached
        // (seq: also the upload order). `file` is the copy's name in the attachments directory,
        // NULL once evicted; `status` pending until the upload server took it (uploaded) or
        // refused it for good (failed, with `failure`).
        """
        CREATE TABLE attachments (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id TEXT NOT NULL UNIQUE,
            visit_key TEXT NOT NULL,
            visit_id TEXT,
            start_ms INTEGER NOT NULL,
            repetition INTEGER NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('photo', 'signature', 'note')),
            content_type TEXT NOT NULL,
            bytes INTEGER NOT NULL,
            sha256 TEXT NOT NULL,
            at_ms INTEGER NOT NULL,
            file TEXT,
            status TEXT NOT NULL CHECK (status IN ('pending', 'uploaded', 'failed')),
            failure TEXT
        );
        CREATE INDEX attachments_by_visit ON attachments (visit_key, seq);
        CREATE INDEX attachments_by_start ON attachments (start_ms);
        CREATE INDEX attachments_pending ON attachments (seq) WHERE status = 'pending';
        """,
        // The visits snapshot written once instead of twice: one table in day order (start,
        // then snapshot order), each visit's key and employee as columns and the rest of its
        // card as one blob (`VisitCard`, made here by the `visit_card` function), replacing the
        // table, its covering day index and its key index. A key is found by its start.
        """
        CREATE TABLE visits_new (
            start_ms INTEGER NOT NULL,        -- startTimeUtc, ms since the epoch
            seq INTEGER NOT NULL,             -- position in the snapshot
            visit_id TEXT,
            repetition INTEGER NOT NULL,      -- place among the snapshot's records of (visit_id, start_ms)
            employee_id TEXT,
            card BLOB NOT NULL,               -- name, state, expected time, tasks, minutes, address, phone, position, time used
            PRIMARY KEY (start_ms, seq)
        ) WITHOUT ROWID;
        INSERT INTO visits_new (start_ms, seq, visit_id, repetition, employee_id, card)
            SELECT start_ms, seq, visit_id, repetition, employee_id,
                   visit_card(name, state, expected_time, tasks, task_minutes, address, phone, latitude, longitude, time_used)
            FROM visits ORDER BY start_ms, seq;
        DROP TABLE visits;
        ALTER TABLE visits_new RENAME TO visits;
        """,
        // Articles' content blocks and tags, and the push's last failure, in columns instead of
        // JSON text: each block a row of `article_blocks`; each tag value a row of
        // `article_tags` (the tags' array is node 0; nested values name their parent; the kinds
        // and node numbers are those of SQLite's json_tree, which converts the stored text); the
        // failure's reason, message, instant (UTC text) and HTTP status as columns of
        // `sync_state`. A text that is not the JSON it should be converts to nothing (no tags,
        // no blocks, no failure).
        """
        CREATE TABLE article_blocks (
            article_seq INTEGER NOT NULL,     -- the article's seq
            position INTEGER NOT NULL,        -- place in its content
            type TEXT,
            subject TEXT,
            description TEXT,
            PRIMARY KEY (article_seq, position)
        ) WITHOUT ROWID;
        CREATE TABLE article_tags (
            article_seq INTEGER NOT NULL,     -- the article's seq
            node INTEGER NOT NULL,            -- document order
            parent INTEGER,                   -- the array or object it is in; NULL: the tags' array
            member TEXT,                      -- its name in an object
            kind TEXT NOT NULL CHECK (kind IN ('null', 'true', 'false', 'integer', 'real', 'text', 'array', 'object')),
            value,                            -- integer, real or text
            PRIMARY KEY (article_seq, node)
        ) WITHOUT ROWID;
        INSERT INTO article_blocks (article_seq, position, type, subject, description)
            SELECT a.seq, j.key, json_extract(j.value, '$.type'), json_extract(j.value, '$.subject'),
                   json_extract(j.value, '$.description')
            FROM articles AS a, json_each(a.content) AS j
            WHERE json_valid(a.content) AND json_type(a.content) = 'array' AND j.type = 'object';
        INSERT INTO article_tags (article_seq, node, parent, member, kind, value)
            SELECT a.seq, t.id, t.parent, CASE WHEN typeof(t.key) = 'text' THEN t.key END, t.type,
                   CASE WHEN t.type IN ('integer', 'real', 'text') THEN t.atom END
            FROM articles AS a, json_tree(a.tags) AS t
            WHERE json_valid(a.tags) AND json_type(a.tags) = 'array';
        INSERT INTO article_tags (article_seq, node, parent, member, kind, value)
            SELECT seq, 0, NULL, NULL, 'array', NULL FROM articles
            WHERE NOT (json_valid(tags) AND json_type(tags) = 'array');
        CREATE TABLE articles_new (
            seq INTEGER PRIMARY KEY,          -- position in the snapshot
            article_id NOT NULL,              -- as given: INTEGER or TEXT (no type affinity)
            title TEXT NOT NULL,
            ingress TEXT,
            image_url TEXT,
            published_ms INTEGER NOT NULL     -- dateTime, ms since the epoch
        );
        INSERT INTO articles_new (seq, article_id, title, ingress, image_url, published_ms)
            SELECT seq, article_id, title, ingress, image_url, published_ms FROM articles;
        DROP TABLE articles;
        ALTER TABLE articles_new RENAME TO articles;
        CREATE INDEX articles_by_published ON articles (published_ms DESC, seq);
        CREATE TABLE sync_state_new (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            client_id TEXT NOT NULL,
            last_attempt_ms INTEGER,
            last_success_ms INTEGER,
            consecutive_failures INTEGER NOT NULL,
            next_attempt_ms INTEGER,
            last_error_reason TEXT,               -- the last failure: NULL when there is none
            last_error_message TEXT,
            last_error_at TEXT,                   -- UTC, ISO 8601
            last_error_http_status INTEGER
        );
        INSERT INTO sync_state_new (id, client_id, last_attempt_ms, last_success_ms, consecutive_failures,
                                    next_attempt_ms, last_error_reason, last_error_message, last_error_at,
                                    last_error_http_status)
            SELECT id, client_id, last_attempt_ms, last_success_ms, consecutive_failures, next_attempt_ms,
                   json_extract(last_error, '$.reason'), json_extract(last_error, '$.message'),
                   json_extract(last_error, '$.at'),
                   CASE WHEN json_type(last_error, '$.httpStatus') = 'integer' THEN json_extract(last_error, '$.httpStatus') END
            FROM sync_state
            WHERE json_valid(last_error) AND json_type(last_error) = 'object'
              AND json_type(last_error, '$.reason') = 'text' AND json_type(last_error, '$.message') = 'text'
              AND json_type(last_error, '$.at') = 'text';
        INSERT INTO sync_state_new (id, client_id, last_attempt_ms, last_success_ms, consecutive_failures, next_attempt_ms)
            SELECT id, client_id, last_attempt_ms, last_success_ms, consecutive_failures, next_attempt_ms
            FROM sync_state WHERE id NOT IN (SELECT id FROM sync_state_new);
        DROP TABLE sync_state;
        ALTER TABLE sync_state_new RENAME TO sync_state;
        """,
        // The planner's changes by push: that a visits snapshot was stored (the first one
        // yields no changes), the ids of the last pushes received, the highest seq, and the
        // device's registration with the revision the devices server acknowledged.
        """
        CREATE TABLE visit_snapshots (id INTEGER PRIMARY KEY CHECK (id = 1));
        CREATE TABLE push_received (
            seq INTEGER PRIMARY KEY,          -- arrival order
            id TEXT NOT NULL UNIQUE
        );
        CREATE TABLE push_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            last_seq INTEGER,
            platform TEXT,                    -- apns or fcm; the last one after an unregistration
            token TEXT,                       -- NULL: unregistered (or never registered)
            revision INTEGER NOT NULL,        -- counts the record's changes
            acknowledged INTEGER NOT NULL     -- the revision the devices server took
        );
        """,
        // The washer's facts of each visit occurrence (its card key): the last start, the finish
        // and the rejection the washer recorded, kept apart from the outbox and the snapshots so
        // that neither a server's answer nor a later snapshot changes them; with the occurrence's
        // planned tasks as they were at its last fact (what its time on the job is shared among).
        """
        CREATE TABLE visit_facts (
            visit_key TEXT PRIMARY KEY,
            start_ms INTEGER NOT NULL,
            started_ms INTEGER,
            finished_ms INTEGER,
            rejected_ms INTEGER
        );
        CREATE INDEX visit_facts_by_start ON visit_facts (start_ms);
        CREATE TABLE visit_fact_tasks (
            visit_key TEXT NOT NULL,
            position INTEGER NOT NULL,
            title TEXT NOT NULL,
            minutes INTEGER NOT NULL,
            PRIMARY KEY (visit_key, position)
        ) WITHOUT ROWID;
        """,
        // Nothing the washer did is lost to the planner's changes. `visit_conflicts` keeps each
        // visit's last rejected change until the washer acknowledges it; `visits_removed` keeps
        // the last stored row of a visit a snapshot no longer lists while it still has work (an
        // outbox entry, a pending attachment or a conflict); `sync_rejected` also keeps the
        // rejected change's time used.
        """
        CREATE TABLE visit_conflicts (
            visit_key TEXT PRIMARY KEY,
            start_ms INTEGER NOT NULL,
            mutation_id TEXT NOT NULL,
            state TEXT NOT NULL,                  -- what the washer set
            reason TEXT NOT NULL,                 -- the server's
            at_ms INTEGER NOT NULL,               -- when the washer made the change
            time_used INTEGER
        );
        CREATE INDEX visit_conflicts_by_start ON visit_conflicts (start_ms);
        CREATE TABLE visits_removed (
            visit_key TEXT PRIMARY KEY,
            start_ms INTEGER NOT NULL,
            seq INTEGER NOT NULL,                 -- its position in the snapshot that last listed it
            visit_id TEXT,
            repetition INTEGER NOT NULL,
            employee_id TEXT,
            card BLOB NOT NULL                    -- as `visits.card`
        );
        CREATE INDEX visits_removed_by_start ON visits_removed (start_ms, seq);
        ALTER TABLE sync_rejected ADD COLUMN time_used INTEGER;
        """,
    ]

    /// The indexes of `table` as the migrations left them in the database: each name with its
    /// `CREATE INDEX` text, in name order (automatic indexes of constraints excluded). Dropping
    /// them and running the texts again restores exactly what the migrations made.
    static func indexes(on table: String, _ db: Database) throws(CarFitError) -> [(name: String, sql: String)] {
        let rows = try db.query("""
            SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1 AND sql IS NOT NULL
            ORDER BY name
            """, [.text(table)])
        return rows.compactMap { row in
            guard row.count == 2, case .text(let name) = row[0], case .text(let sql) = row[1] else { return nil }
            return (name, sql)
        }
    }

    static var currentVersion: Int64 { Int64(migrations.count) }

    static func migrate(_ db: Database) throws(CarFitError) {
        let version = try db.scalarInt("PRAGMA user_version") ?? 0
        if version < 0 {
            throw CarFitError(.storage, "its version mark (\(version)) is not one libcarfit writes: it belongs to another program. Choose another path.")
        }
        if version > currentVersion {
            throw CarFitError(.storage, "it was written by a newer libcarfit (database version \(version); this one knows up to \(currentVersion)). Use that newer libcarfit, or choose another path.")
        }
        if version == currentVersion { return }
        try db.transaction { () throws(CarFitError) in
            // Re-read inside the write lock: another process may have migrated meanwhile.
            let now = try db.scalarInt("PRAGMA user_version") ?? 0
            guard now < currentVersion else { return }
            for (i, sql) in migrations.enumerated() where Int64(i) >= now {
                try db.execute(sql)
            }
            try db.execute("PRAGMA user_version = \(currentVersion)")
        }
    }
}
