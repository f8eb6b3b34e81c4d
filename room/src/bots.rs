//! The computer players' identities: a seat a bot plays is held by one of these (inserted by
//! migration 0004, one per level), so rooms, matches and records treat it like any seat.

use warroom_engine::BotLevel;
use warroom_protocol::{Identity, IdentityId};

/// The identity of the bots of `level`.
pub fn bot_identity(level: BotLevel) -> Identity {
    let (n, name) = match level {
        BotLevel::Easy => (1, "Computer (easy)"),
        BotLevel::Normal => (2, "Computer (normal)"),
        BotLevel::Hard => (3, "Computer (hard)"),
    };
    Identity {
        id: IdentityId(uuid::Uuid::from_u128(
            0xb070_0000_0000_4000_8000_0000_0000_0000 | n,
        )),
        name: name.to_owned(),
    }
}

/// The level of the bot this identity is, if it is one.
pub fn bot_level(identity: IdentityId) -> Option<BotLevel> {
    [BotLevel::Easy, BotLevel::Normal, BotLevel::Hard]
        .into_iter()
        .find(|&level| bot_identity(level).id == identity)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_identities_are_the_ones_migration_0004_inserts() {
        for (level, id) in [
            (BotLevel::Easy, "b0700000-0000-4000-8000-000000000001"),
            (BotLevel::Normal, "b0700000-0000-4000-8000-000000000002"),
            (BotLevel::Hard, "b0700000-0000-4000-8000-000000000003"),
        ] {
            assert_eq!(bot_identity(level).id.to_string(), id);
            assert_eq!(bot_level(bot_identity(level).id), Some(level));
            for migration in [
                include_str!("../../migrations/sqlite/0004_clocks.sql"),
                include_str!("../../migrations/postgres/0004_clocks.sql"),
            ] {
                assert!(migration.contains(&format!("('{id}', '{}'", bot_identity(level).name)));
            }
        }
        assert_eq!(bot_level(IdentityId(uuid::Uuid::nil())), None);
    }
}
