/// The store's tables, one step per version; each step is statements separated by `;`, in SQL
/// both SQLite and PostgreSQL take. Instants are milliseconds since the epoch.
enum Schema {
    static let steps: [String] = [
        """
        CREATE TABLE IF NOT EXISTS washers (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            token_hash TEXT NOT NULL UNIQUE,
            created_ms BIGINT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS clients (
            client_id TEXT PRIMARY KEY,
            washer_id TEXT NOT NULL REFERENCES washers(id)
        );
        CREATE TABLE IF NOT EXISTS visits (
            visit_id TEXT NOT NULL,
            start_ms BIGINT NOT NULL,
            washer_id TEXT NOT NULL REFERENCES washers(id),
            record TEXT NOT NULL,
            state TEXT NOT NULL,
            time_used BIGINT,
            cancelled BIGINT NOT NULL DEFAULT 0,
            started_ms BIGINT,
            finished_ms BIGINT,
            rejected_ms BIGINT,
            reason TEXT,
            updated_ms BIGINT NOT NULL,
            PRIMARY KEY (visit_id, start_ms)
        );
        CREATE INDEX IF NOT EXISTS visits_by_washer ON visits (washer_id, start_ms);
        CREATE INDEX IF NOT EXISTS visits_by_finish ON visits (finished_ms);
        CREATE TABLE IF NOT EXISTS mutations (
            client_id TEXT NOT NULL,
            mutation_id TEXT NOT NULL,
            applied BIGINT NOT NULL,
            reason TEXT,
            at_ms BIGINT NOT NULL,
            PRIMARY KEY (client_id, mutation_id)
        );
        CREATE TABLE IF NOT EXISTS points (
            client_id TEXT NOT NULL,
            id TEXT NOT NULL,
            washer_id TEXT NOT NULL,
            latitude DOUBLE PRECISION NOT NULL,
            longitude DOUBLE PRECISION NOT NULL,
            accuracy DOUBLE PRECISION NOT NULL,
            at_ms BIGINT NOT NULL,
            PRIMARY KEY (client_id, id)
        );
        CREATE INDEX IF NOT EXISTS points_by_washer ON points (washer_id, at_ms);
        CREATE TABLE IF NOT EXISTS attachments (
            id TEXT PRIMARY KEY,
            washer_id TEXT NOT NULL,
            visit_id TEXT NOT NULL,
            start_ms BIGINT NOT NULL,
            kind TEXT NOT NULL,
            content_type TEXT NOT NULL,
            bytes BIGINT NOT NULL,
            sha256 TEXT NOT NULL,
            file TEXT NOT NULL,
            created_ms BIGINT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS attachments_by_visit ON attachments (visit_id, start_ms);
        CREATE TABLE IF NOT EXISTS devices (
            client_id TEXT PRIMARY KEY,
            washer_id TEXT NOT NULL,
            platform TEXT,
            token TEXT,
            last_seq BIGINT NOT NULL DEFAULT 0,
            updated_ms BIGINT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS devices_by_washer ON devices (washer_id);
        CREATE TABLE IF NOT EXISTS pushes (
            id TEXT PRIMARY KEY,
            client_id TEXT NOT NULL,
            washer_id TEXT NOT NULL,
            platform TEXT NOT NULL,
            seq BIGINT NOT NULL,
            state TEXT NOT NULL,
            attempts BIGINT NOT NULL DEFAULT 0,
            not_before_ms BIGINT NOT NULL,
            lease_until_ms BIGINT NOT NULL DEFAULT 0,
            last_error TEXT,
            created_ms BIGINT NOT NULL,
            UNIQUE (client_id, seq)
        );
        CREATE INDEX IF NOT EXISTS pushes_queued ON pushes (state, client_id, seq);
        CREATE INDEX IF NOT EXISTS pushes_by_washer ON pushes (washer_id, created_ms)
        """,
    ]
}
