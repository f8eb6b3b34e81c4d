//! Stored guest identities: looked up by the hash of one of their tokens, by id or by name;
//! renamed under the unique case-folded name key; recovered on another device by the hash of
//! their recovery code.

use sqlx::Row;
use warroom_protocol::{Identity, IdentityId};

use super::{Store, now_ms};
use crate::identity::name_key;

/// An identity with what only its page and its owner see.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdentityRecord {
    /// Id and name.
    pub identity: Identity,
    /// Unix milliseconds.
    pub created_at: i64,
    /// When its recovery code was made (Unix milliseconds), if it has one.
    pub recovery_created_at: Option<i64>,
}

impl Store {
    /// The columns [`identity_record_from`] reads.
    fn identity_columns(&self) -> String {
        let d = self.dialect;
        format!(
            "{}, name, {}, {}",
            d.text("id", "id"),
            d.ms("created_at", "created_at"),
            d.ms("recovery_created_at", "recovery_created_at")
        )
    }

    /// Stores a new identity with the hash of its token and of the address it was created from
    /// (`ClientIp::hashed`). A name another identity has (in any case) fails with a unique
    /// violation ([`is_unique_violation`]).
    pub async fn create_identity(
        &self,
        identity: &Identity,
        token_hash: &str,
        created_address: Option<&str>,
    ) -> sqlx::Result<()> {
        let (id, created_at) = (self.dialect.uuid(1), self.dialect.time(5));
        sqlx::query(&format!(
            "INSERT INTO identities (id, name, name_key, token_hash, created_at, created_address) \
             VALUES ({id}, $2, $3, $4, {created_at}, $6)"
        ))
        .bind(identity.id.to_string())
        .bind(identity.name.clone())
        .bind(name_key(&identity.name))
        .bind(token_hash.to_owned())
        .bind(now_ms())
        .bind(created_address.map(str::to_owned))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The identity holding a token that hashes to `token_hash` (its first device's token, or
    /// one issued by recovery).
    pub async fn identity_by_token_hash(&self, token_hash: &str) -> sqlx::Result<Option<Identity>> {
        let (id, i_id) = (
            self.dialect.text("id", "id"),
            self.dialect.text("i.id", "id"),
        );
        let row = sqlx::query(&format!(
            "SELECT {id}, name FROM identities WHERE token_hash = $1 \
             UNION ALL SELECT {i_id}, i.name FROM identity_tokens t \
             JOIN identities i ON i.id = t.identity_id WHERE t.token_hash = $1"
        ))
        .bind(token_hash.to_owned())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| identity_from(&row, "id", "name")).transpose()
    }

    /// One identity by id.
    pub async fn identity(&self, id: IdentityId) -> sqlx::Result<Option<IdentityRecord>> {
        let row = sqlx::query(&format!(
            "SELECT {} FROM identities WHERE id = {}",
            self.identity_columns(),
            self.dialect.uuid(1)
        ))
        .bind(id.to_string())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| identity_record_from(&row)).transpose()
    }

    /// The identity with this name (in any case).
    pub async fn identity_by_name(&self, name: &str) -> sqlx::Result<Option<IdentityRecord>> {
        let row = sqlx::query(&format!(
            "SELECT {} FROM identities WHERE name_key = $1",
            self.identity_columns()
        ))
        .bind(name_key(name.trim()))
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| identity_record_from(&row)).transpose()
    }

    /// Gives `id` a new (already validated) name. A name another identity has fails with a
    /// unique violation; a change of case only is allowed.
    pub async fn rename_identity(&self, id: IdentityId, name: &str) -> sqlx::Result<()> {
        sqlx::query(&format!(
            "UPDATE identities SET name = $1, name_key = $2 WHERE id = {}",
            self.dialect.uuid(3)
        ))
        .bind(name.to_owned())
        .bind(name_key(name))
        .bind(id.to_string())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Replaces the identity's recovery code (by its hash); the earlier code stops working.
    pub async fn set_recovery(&self, id: IdentityId, hash: &str, at: i64) -> sqlx::Result<()> {
        sqlx::query(&format!(
            "UPDATE identities SET recovery_hash = $1, recovery_created_at = {} WHERE id = {}",
            self.dialect.time(2),
            self.dialect.uuid(3)
        ))
        .bind(hash.to_owned())
        .bind(at)
        .bind(id.to_string())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The identity whose recovery code hashes to `hash`.
    pub async fn identity_by_recovery_hash(&self, hash: &str) -> sqlx::Result<Option<Identity>> {
        let row = sqlx::query(&format!(
            "SELECT {}, name FROM identities WHERE recovery_hash = $1",
            self.dialect.text("id", "id")
        ))
        .bind(hash.to_owned())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| identity_from(&row, "id", "name")).transpose()
    }

    /// Adds a token (by its hash) for another device of `id`.
    pub async fn add_token(&self, id: IdentityId, token_hash: &str) -> sqlx::Result<()> {
        sqlx::query(&format!(
            "INSERT INTO identity_tokens (token_hash, identity_id, created_at) VALUES ($1, {}, {})",
            self.dialect.uuid(2),
            self.dialect.time(3)
        ))
        .bind(token_hash.to_owned())
        .bind(id.to_string())
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Gives every identity made before names were unique its name key, oldest first; a later
    /// holder of a name already taken gets a suffix from its id. Returns how many were renamed.
    pub async fn key_unkeyed_names(&self) -> sqlx::Result<usize> {
        let rows = sqlx::query(&format!(
            "SELECT {}, name FROM identities i WHERE name_key IS NULL \
             ORDER BY i.created_at, i.id",
            self.dialect.text("i.id", "id")
        ))
        .fetch_all(&self.pool)
        .await?;
        let mut renamed = 0;
        for row in rows {
            let identity = identity_from(&row, "id", "name")?;
            let mut name = identity.name.clone();
            let mut attempt = 0;
            loop {
                let taken = sqlx::query("SELECT 1 AS one FROM identities WHERE name_key = $1")
                    .bind(name_key(&name))
                    .fetch_optional(&self.pool)
                    .await?
                    .is_some();
                // Nine ever longer suffixes of a random id: a tenth clash is not going to happen,
                // and if it did the unique index would refuse the name rather than loop.
                if !taken || attempt == 9 {
                    break;
                }
                attempt += 1;
                let id = identity.id.0.simple().to_string();
                let suffix = &id[..4 + attempt];
                let stem: String = identity.name.chars().take(24 - 1 - suffix.len()).collect();
                name = format!("{stem}-{suffix}");
            }
            if name != identity.name {
                renamed += 1;
            }
            self.rename_identity(identity.id, &name).await?;
        }
        Ok(renamed)
    }
}

/// True when `error` is the database refusing a duplicate of a unique column.
pub fn is_unique_violation(error: &sqlx::Error) -> bool {
    matches!(error, sqlx::Error::Database(e) if e.is_unique_violation())
}

fn identity_record_from(row: &sqlx::any::AnyRow) -> sqlx::Result<IdentityRecord> {
    Ok(IdentityRecord {
        identity: identity_from(row, "id", "name")?,
        created_at: row.try_get("created_at")?,
        recovery_created_at: row.try_get("recovery_created_at")?,
    })
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

/// Decodes a JSON text column into `T`.
pub(super) fn json_column<T: serde::de::DeserializeOwned>(
    column: &str,
    text: &str,
) -> sqlx::Result<T> {
    serde_json::from_str(text).map_err(|error| sqlx::Error::ColumnDecode {
        index: column.to_owned(),
        source: Box::new(error),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh SQLite store in a file of its own (an in-memory database would be one per pooled
    /// connection).
    async fn temp_store() -> (Store, std::path::PathBuf) {
        let path = std::env::temp_dir().join(format!("warroom-names-{}.db", uuid::Uuid::new_v4()));
        let store = Store::connect(
            &format!("sqlite://{}?mode=rwc", path.display()),
            std::time::Duration::from_secs(10),
        )
        .await
        .unwrap();
        (store, path)
    }

    #[tokio::test]
    async fn names_from_before_unique_names_are_keyed_and_clashes_get_a_suffix() {
        let (store, path) = temp_store().await;
        let old = [("Ada", 1), ("ADA", 2), ("Bob", 3)];
        let mut ids = Vec::new();
        for (name, created_at) in old {
            let id = IdentityId::random();
            sqlx::query(
                "INSERT INTO identities (id, name, token_hash, created_at) VALUES ($1, $2, $3, $4)",
            )
            .bind(id.to_string())
            .bind(name)
            .bind(format!("hash-{name}"))
            .bind(created_at)
            .execute(&store.pool)
            .await
            .unwrap();
            ids.push(id);
        }
        assert_eq!(store.key_unkeyed_names().await.unwrap(), 1);
        let name_of = async |id| store.identity(id).await.unwrap().unwrap().identity.name;
        assert_eq!(name_of(ids[0]).await, "Ada", "the oldest keeps the name");
        let renamed = name_of(ids[1]).await;
        assert!(renamed.starts_with("ADA-"), "{renamed}");
        assert!(crate::identity::validate_name(&renamed).is_ok());
        assert_eq!(name_of(ids[2]).await, "Bob");
        let found = store.identity_by_name("ada").await.unwrap().unwrap();
        assert_eq!(found.identity.id, ids[0]);
        assert_eq!(store.key_unkeyed_names().await.unwrap(), 0, "done once");
        store.close().await;
        let _ = std::fs::remove_file(path);
    }
}
