//! Where the SQL of the two databases differs, and only that. Both schemas have the same tables
//! and columns, but PostgreSQL's use its own types (`uuid`, `jsonb`, `timestamptz`, `boolean`;
//! migration 0006) where SQLite keeps TEXT and BIGINT. The server's queries are written once, with
//! these helpers at the places a value crosses one of those columns:
//!
//! - a bound parameter (always text or an integer on the Rust side) is cast to the column's type:
//!   [`Dialect::uuid`], [`Dialect::json`], [`Dialect::time`];
//! - a column read back is turned into what the `Any` driver decodes and the store parses (text,
//!   Unix milliseconds, 0/1): [`Dialect::text`], [`Dialect::ms`], [`Dialect::flag`].
//!
//! - many rows bound as one parameter (a JSON array; the `Any` driver binds no arrays) are read as
//!   a table by [`Dialect::json_rows`] (`jsonb_to_recordset` / `json_each`), and its id columns
//!   cast with [`Dialect::as_uuid`]: the writer's one `INSERT` per batch. Its JSON columns
//!   ([`SqlType::Json`]) are JSON values inside the rows on PostgreSQL, read once with the
//!   parameter straight into `jsonb`, and strings on SQLite, stored as the text they carry.
//!
//! On SQLite every helper is the plain parameter or column. Booleans are compared with `TRUE` and
//! `FALSE`, which both databases accept; binding a Rust `bool` stores 0/1 in SQLite.

/// Which database a pool talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// TEXT ids and JSON, BIGINT Unix milliseconds and 0/1 flags.
    Sqlite,
    /// `uuid`, `jsonb`, `timestamptz`, `boolean`.
    Postgres,
}

/// The type of a column of [`Dialect::json_rows`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SqlType {
    /// Text (ids and JSON are cast where they are used).
    Text,
    /// A 64-bit integer.
    BigInt,
    /// JSON: on PostgreSQL a JSON value inside the row, read as `jsonb` (no second parse); on
    /// SQLite a string holding the JSON text ([`Dialect::embeds_json`]).
    Json,
}

impl SqlType {
    fn postgres(self) -> &'static str {
        match self {
            SqlType::Text => "text",
            SqlType::BigInt => "bigint",
            SqlType::Json => "jsonb",
        }
    }
}

impl Dialect {
    /// The dialect of a database URL (`sqlite:…`, else PostgreSQL).
    pub fn of_url(url: &str) -> Dialect {
        if url.starts_with("sqlite:") {
            Dialect::Sqlite
        } else {
            Dialect::Postgres
        }
    }

    /// Parameter `$n`, a UUID as text, as an id column's value.
    pub fn uuid(self, n: u8) -> String {
        match self {
            Dialect::Sqlite => format!("${n}"),
            Dialect::Postgres => format!("${n}::uuid"),
        }
    }

    /// Parameter `$n`, JSON text, as a JSON column's value.
    pub fn json(self, n: u8) -> String {
        match self {
            Dialect::Sqlite => format!("${n}"),
            Dialect::Postgres => format!("${n}::jsonb"),
        }
    }

    /// Parameter `$n`, Unix milliseconds, as a time column's value.
    pub fn time(self, n: u8) -> String {
        match self {
            Dialect::Sqlite => format!("${n}"),
            // Exact to the microsecond: the product stays far below 2^53 microseconds.
            Dialect::Postgres => format!("('epoch'::timestamptz + ${n} * interval '1 ms')"),
        }
    }

    /// An expression (text on the Rust side) as an id column's value.
    pub fn as_uuid(self, expr: &str) -> String {
        match self {
            Dialect::Sqlite => expr.to_owned(),
            Dialect::Postgres => format!("{expr}::uuid"),
        }
    }

    /// Whether the rows of [`Dialect::json_rows`] carry their [`SqlType::Json`] columns as JSON
    /// values (PostgreSQL) rather than as strings of JSON text (SQLite).
    pub fn embeds_json(self) -> bool {
        self == Dialect::Postgres
    }

    /// The rows of parameter `$n`, a JSON array of objects, as a table named `alias` with these
    /// columns (each a key of the objects, read as its [`SqlType`]): many rows in one bound
    /// parameter, so one statement writes a whole batch (the `Any` driver binds no arrays).
    pub fn json_rows(self, n: u8, alias: &str, columns: &[(&str, SqlType)]) -> String {
        match self {
            Dialect::Sqlite => {
                let picked = columns
                    .iter()
                    .map(|(name, _)| format!("value ->> '{name}' AS {name}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!("(SELECT {picked} FROM json_each(${n})) AS {alias}")
            }
            Dialect::Postgres => {
                let typed = columns
                    .iter()
                    .map(|(name, kind)| format!("{name} {}", kind.postgres()))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!("jsonb_to_recordset(${n}::jsonb) AS {alias}({typed})")
            }
        }
    }

    /// An id or JSON column read as text, named `alias`.
    pub fn text(self, column: &str, alias: &str) -> String {
        match self {
            Dialect::Sqlite => format!("{column} AS {alias}"),
            Dialect::Postgres => format!("{column}::text AS {alias}"),
        }
    }

    /// A time column read as Unix milliseconds, named `alias` (NULL stays NULL).
    pub fn ms(self, column: &str, alias: &str) -> String {
        match self {
            Dialect::Sqlite => format!("{column} AS {alias}"),
            // `extract` gives a numeric (exact) since PostgreSQL 14, and the microseconds of a
            // time stored from milliseconds are whole thousands.
            Dialect::Postgres => {
                format!("(extract(epoch FROM {column}) * 1000)::bigint AS {alias}")
            }
        }
    }

    /// A flag column read as 0 or 1, named `alias`.
    pub fn flag(self, column: &str, alias: &str) -> String {
        match self {
            Dialect::Sqlite => format!("{column} AS {alias}"),
            Dialect::Postgres => format!("{column}::int AS {alias}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Dialect, SqlType};

    /// SQLite takes plain parameters and columns; PostgreSQL casts to and from its native types.
    #[test]
    fn each_dialect_writes_its_parameters_and_columns() {
        let written = |d: Dialect| {
            [
                d.uuid(1),
                d.json(2),
                d.time(3),
                d.text("m.id", "id"),
                d.ms("m.started_at", "started_at"),
                d.flag("private", "private"),
            ]
        };
        // Each fragment as SQLite, then as PostgreSQL writes it.
        let expected = [
            ("$1", "$1::uuid"),
            ("$2", "$2::jsonb"),
            ("$3", "('epoch'::timestamptz + $3 * interval '1 ms')"),
            ("m.id AS id", "m.id::text AS id"),
            (
                "m.started_at AS started_at",
                "(extract(epoch FROM m.started_at) * 1000)::bigint AS started_at",
            ),
            ("private AS private", "private::int AS private"),
        ];
        let sqlite = written(Dialect::Sqlite);
        let postgres = written(Dialect::Postgres);
        for ((sqlite, postgres), expected) in sqlite.iter().zip(&postgres).zip(expected) {
            assert_eq!((sqlite.as_str(), postgres.as_str()), expected);
        }
    }

    #[test]
    fn json_rows_read_an_array_parameter_as_a_table() {
        let columns = [("id", SqlType::Text), ("seq", SqlType::BigInt)];
        assert_eq!(
            Dialect::Sqlite.json_rows(1, "r", &columns),
            "(SELECT value ->> 'id' AS id, value ->> 'seq' AS seq FROM json_each($1)) AS r"
        );
        assert_eq!(
            Dialect::Postgres.json_rows(1, "r", &columns),
            "jsonb_to_recordset($1::jsonb) AS r(id text, seq bigint)"
        );
        assert_eq!(Dialect::Postgres.as_uuid("r.id"), "r.id::uuid");
    }

    #[test]
    fn the_url_names_the_dialect() {
        assert_eq!(Dialect::of_url("sqlite://x.db?mode=rwc"), Dialect::Sqlite);
        assert_eq!(Dialect::of_url("sqlite::memory:"), Dialect::Sqlite);
        assert_eq!(Dialect::of_url("postgres://u@h/db"), Dialect::Postgres);
    }
}
