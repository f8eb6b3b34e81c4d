//! Stored guest identities, looked up by the hash of their token.

use sqlx::Row;
use warroom_protocol::{Identity, IdentityId};

use super::{Store, now_ms};

impl Store {
    /// Stores a new identity with the hash of its token.
    pub async fn create_identity(&self, identity: &Identity, token_hash: &str) -> sqlx::Result<()> {
        sqlx::query(
            "INSERT INTO identities (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(identity.id.to_string())
        .bind(identity.name.clone())
        .bind(token_hash.to_owned())
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The identity whose token hashes to `token_hash`.
    pub async fn identity_by_token_hash(&self, token_hash: &str) -> sqlx::Result<Option<Identity>> {
        let row = sqlx::query("SELECT id, name FROM identities WHERE token_hash = $1")
            .bind(token_hash.to_owned())
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| identity_from(&row, "id", "name")).transpose()
    }
}

/// Decodes an identity from two columns of a row.
pub(super) fn identity_from(
    row: &sqlx::any::AnyRow,
    id_column: &str,
    name_column: &str,
) -> sqlx::Result<Identity> {
    let id: String = row.try_get(id_column)?;
    Ok(Identity {
        id: parse_column(id_column, &id)?,
        name: row.try_get(name_column)?,
    })
}

/// Parses a stored text column, turning garbage into a decode error instead of a panic.
pub(super) fn parse_column<T: std::str::FromStr>(column: &str, text: &str) -> sqlx::Result<T>
where
    T::Err: std::fmt::Display,
{
    text.parse()
        .map_err(|error: T::Err| sqlx::Error::ColumnDecode {
            index: column.to_owned(),
            source: error.to_string().into(),
        })
}

/// Reads an id newtype column.
pub(super) fn id_column(row: &sqlx::any::AnyRow, column: &str) -> sqlx::Result<IdentityId> {
    let text: String = row.try_get(column)?;
    parse_column(column, &text)
}
