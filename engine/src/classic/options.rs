//! Room options of classic (RULES.md W-SETUP-4, W-FORT-1). Missing fields take the defaults;
//! unknown fields are refused.

use serde::{Deserialize, Serialize};

/// How territories are first taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetupMode {
    /// Players claim territories one at a time, then place their remaining units one at a time
    /// (W-SETUP-3, W-SETUP-4).
    #[default]
    Claim,
    /// Territories are dealt at random and starting units spread evenly, for quick games.
    Random,
}

/// Where the end-of-turn fortify may move units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FortifyMode {
    /// To a bordering own territory (the seed's rule).
    #[default]
    Adjacent,
    /// To any own territory joined to the source by a chain of own territories.
    Connected,
}

/// The options a classic room is created with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClassicOptions {
    /// `claim` (default) or `random`.
    pub setup: SetupMode,
    /// `adjacent` (default) or `connected`.
    pub fortify: FortifyMode,
}
