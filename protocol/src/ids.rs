//! Newtype ids for rooms, matches and identities, so one cannot be passed for another. On the
//! wire each is a UUID string.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A string that is not a UUID.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdParseError;

impl fmt::Display for IdParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an id is a UUID")
    }
}

impl std::error::Error for IdParseError {}

macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[cfg_attr(test, derive(ts_rs::TS))]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        #[serde(transparent)]
        pub struct $name(pub Uuid);

        impl $name {
            /// A fresh random id.
            pub fn random() -> Self {
                $name(Uuid::new_v4())
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl FromStr for $name {
            type Err = IdParseError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Uuid::parse_str(s).map($name).map_err(|_| IdParseError)
            }
        }
    };
}

uuid_id!(
    /// A room: a table with seats that hosts one match.
    RoomId
);
uuid_id!(
    /// A match: the game played in a room once every seat is taken.
    MatchId
);
uuid_id!(
    /// A guest identity, which holds seats.
    IdentityId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_through_text_and_json() {
        let id = RoomId::random();
        assert_eq!(id.to_string().parse::<RoomId>(), Ok(id));
        let json = serde_json::to_string(&id).unwrap();
        assert_eq!(json, format!("\"{id}\""));
        assert_eq!(serde_json::from_str::<RoomId>(&json).unwrap(), id);
        assert_eq!("nope".parse::<MatchId>(), Err(IdParseError));
    }
}
