//! Sets of small indexes held as the bits of a `u64` (classic's territory masks, hexdice's cell
//! sets), walked one way by every ruleset.

/// The indexes of the bits set in `set`, lowest first.
pub(crate) fn ones(mut set: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        // trailing_zeros of a non-zero u64 is below 64, so it fits in u8.
        let index = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(index)
    })
}
