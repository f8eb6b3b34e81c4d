//! The rules that keep one person from farming rating with throwaway identities
//! (docs/RATINGS.md "Abuse"): an identity plays casual until it has finished
//! `--rated-min-matches` matches (checked where it asks for a rated room or seat), and a rated
//! result does not count when two of its seats' identities were created from the same address
//! (hashed) and one of them less than `--rated-new-identity-window` before the match ended.
//! A third, a query listing pairs of identities that only ever play each other, is for
//! operators (docs/OPERATIONS.md).

use std::time::Duration;

use warroom_protocol::IdentityId;

/// The ratings' settings that the server enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatingPolicy {
    /// Finished matches an identity needs before it may play rated.
    pub min_matches: u64,
    /// A result against an identity created this recently from a seat's address does not count.
    pub new_identity_window: Duration,
}

impl Default for RatingPolicy {
    fn default() -> RatingPolicy {
        RatingPolicy {
            min_matches: 5,
            new_identity_window: Duration::from_secs(10 * 60),
        }
    }
}

/// What the abuse rule reads of a seat's identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatIdentity {
    /// Who.
    pub id: IdentityId,
    /// When it was created (Unix ms).
    pub created_at: i64,
    /// The hash of the address it was created from (`None`: created before it was kept).
    pub created_address: Option<String>,
}

/// Why a rated result does not count, if it does not.
pub fn not_counted(
    policy: &RatingPolicy,
    seats: &[SeatIdentity],
    finished_at: i64,
) -> Option<&'static str> {
    let window = i64::try_from(policy.new_identity_window.as_millis()).unwrap_or(i64::MAX);
    let new = |seat: &SeatIdentity| finished_at.saturating_sub(seat.created_at) < window;
    for (i, a) in seats.iter().enumerate() {
        for b in &seats[i + 1..] {
            if a.id == b.id {
                return Some("one identity holds two seats");
            }
            let same_address =
                a.created_address.is_some() && a.created_address == b.created_address;
            if same_address && (new(a) || new(b)) {
                return Some("an identity created minutes earlier from another seat's address");
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: i64 = 60_000;

    fn seat(created_at: i64, address: Option<&str>) -> SeatIdentity {
        SeatIdentity {
            id: IdentityId::random(),
            created_at,
            created_address: address.map(str::to_owned),
        }
    }

    #[test]
    fn a_result_against_a_fresh_identity_from_the_same_address_does_not_count() {
        let policy = RatingPolicy::default();
        let end = 1_000 * MINUTE;
        let old = seat(end - 600 * MINUTE, Some("a"));
        let fresh = seat(end - 5 * MINUTE, Some("a"));
        assert!(not_counted(&policy, &[old.clone(), fresh], end).is_some());
        // Old enough, another address, or an address never kept: it counts.
        let older = seat(end - 11 * MINUTE, Some("a"));
        assert_eq!(not_counted(&policy, &[old.clone(), older], end), None);
        let elsewhere = seat(end - MINUTE, Some("b"));
        assert_eq!(not_counted(&policy, &[old.clone(), elsewhere], end), None);
        let unknown = [seat(end - MINUTE, None), seat(end - MINUTE, None)];
        assert_eq!(not_counted(&policy, &unknown, end), None);
        // One identity in two seats never counts.
        assert!(not_counted(&policy, &[old.clone(), old], end).is_some());
    }

    #[test]
    fn a_window_of_zero_turns_the_address_rule_off() {
        let policy = RatingPolicy {
            min_matches: 0,
            new_identity_window: Duration::ZERO,
        };
        let seats = [seat(10, Some("a")), seat(10, Some("a"))];
        assert_eq!(not_counted(&policy, &seats, 10), None);
    }
}
