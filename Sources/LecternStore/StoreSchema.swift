// StoreSchema.swift: the database schema and its migrations, versioned by `PRAGMA user_version`.

/// The SQLite schema of the store, as a list of migrations.
///
/// `PRAGMA user_version` holds the number of migrations applied: 0 is a new,
/// empty file. Opening a database runs the missing migrations in one
/// transaction; a database with a version above ``currentVersion`` was written
/// by a newer Lectern and is refused rather than misread. To change the
/// schema, append a migration; never edit one that has shipped.
enum StoreSchema {
    /// Migration *i* takes the database from version *i* to *i* + 1.
    static let migrations: [String] = [
        """
        CREATE TABLE documents (
            id TEXT NOT NULL PRIMARY KEY,
            text BLOB NOT NULL,
            language TEXT,
            segmentation TEXT NOT NULL,
            revision INTEGER NOT NULL,
            updated_at_ms INTEGER NOT NULL
        );
        CREATE TABLE attachments (
            document_id TEXT NOT NULL REFERENCES documents (id),
            position INTEGER NOT NULL,
            name TEXT NOT NULL,
            utf16_offset INTEGER NOT NULL,
            width REAL NOT NULL,
            height REAL NOT NULL,
            baseline REAL NOT NULL,
            follows_end INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (document_id, position),
            UNIQUE (document_id, name)
        ) WITHOUT ROWID;
        CREATE TABLE store_state (
            singleton INTEGER NOT NULL PRIMARY KEY CHECK (singleton = 0),
            last_revision INTEGER NOT NULL
        );
        INSERT INTO store_state (singleton, last_revision) VALUES (0, 0);
        """
    ]

    /// The schema version this build writes and reads.
    static var currentVersion: Int { migrations.count }
}
