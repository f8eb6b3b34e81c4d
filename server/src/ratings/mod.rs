//! Ratings (issue 39, docs/RATINGS.md): which system rates each ruleset and with what
//! parameters (`systems.rs`), how a finished rated match moves its players' ratings
//! (`update.rs`), the computer levels' reference ratings (`reference.rs`), rated quick play's matching by strength (`matchmaking.rs`), and the rules
//! that keep one person from farming rating with throwaway identities (`abuse.rs`). The maths is the `skillratings` crate's; the SQL that stores the
//! result with the match's outcome, exactly once, is `store/ratings.rs`.

pub mod abuse;
pub mod matchmaking;
pub mod reference;
pub mod systems;
pub mod update;

pub use abuse::RatingPolicy;
pub use reference::{about_as_strong_as, reference_ratings};
pub use systems::{Rating, system_of};
pub use update::rate;
