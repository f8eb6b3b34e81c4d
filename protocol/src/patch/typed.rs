//! View patches made from the engine's typed views, field by field, instead of writing both
//! views as JSON and diffing the texts ([`super::diff`]). The patch is in the same format
//! (docs/PROTOCOL.md "View patches") and, applied to the previous view's JSON, gives the new
//! view's JSON: only the JSON of what changed is written.
//!
//! A ruleset opts in with [`ViewPatch`]; one that does not is patched from its views' texts.
//! Like the text diff, a patch compares two views of one viewer class, so it carries nothing
//! that class may not see. The fields that are static parts (`board`, `options`, ...) are not
//! compared: the dynamic views leave them out (`static_parts`).

use serde::Serialize;
use warroom_engine::Ruleset;
use warroom_engine::hexdice::{DieView, Hexdice, PlayerView, View as HexdiceView};

use super::{Step, remove, set};

/// How a ruleset's views are patched.
pub trait ViewPatch: Ruleset {
    /// True when [`ViewPatch::view_patch`] compares the typed views (then the views need not
    /// be written as JSON unless a message carries one whole).
    const TYPED: bool = false;

    /// The patch (its JSON text) from `old` to `new`, two dynamic views of one viewer class;
    /// `None` when the ruleset has no typed diff, so the caller diffs the views' JSON text.
    fn view_patch(_old: &Self::View, _new: &Self::View) -> Option<String> {
        None
    }
}

impl ViewPatch for warroom_engine::classic::Classic {}

impl ViewPatch for warroom_engine::capitals::Capitals {}

impl ViewPatch for Hexdice {
    const TYPED: bool = true;

    fn view_patch(old: &HexdiceView, new: &HexdiceView) -> Option<String> {
        let mut patch = Patcher::new();
        new.diff(old, &mut patch);
        Some(patch.finish())
    }
}

/// A patch being written while two typed values are compared.
pub struct Patcher {
    /// Where the values being compared are in the view.
    path: Vec<Step<'static>>,
    /// The patch's text so far, from its opening `[`.
    out: String,
}

impl Default for Patcher {
    fn default() -> Self {
        Patcher::new()
    }
}

impl Patcher {
    /// An empty patch, at the view itself.
    pub fn new() -> Patcher {
        let mut out = String::with_capacity(96);
        out.push('[');
        Patcher {
            path: Vec::with_capacity(8),
            out,
        }
    }

    /// The patch's JSON text.
    pub fn finish(mut self) -> String {
        self.out.push(']');
        self.out
    }

    /// Compares the struct field `name` of the values being compared.
    pub fn field<T: Diff + ?Sized>(&mut self, name: &'static str, old: &T, new: &T) {
        self.path.push(Step::Name(name));
        new.diff(old, self);
        self.path.pop();
    }

    /// Compares the entry `index` of the lists being compared.
    pub fn entry<T: Diff + ?Sized>(&mut self, index: usize, old: &T, new: &T) {
        self.path.push(Step::Index(index));
        new.diff(old, self);
        self.path.pop();
    }

    /// Sets the value at the current path to `value`, whole.
    pub fn set<T: Serialize + ?Sized>(&mut self, value: &T) {
        match serde_json::to_string(value) {
            Ok(text) => set(&self.path, &text, &mut self.out),
            // Plain data never fails to serialise; a value that could not be written is
            // removed rather than left stale, so the client asks for a whole view.
            Err(_) => remove(&self.path, &mut self.out),
        }
    }

    /// Where the patch is now, for [`Patcher::no_longer_than_whole`].
    fn mark(&self) -> usize {
        self.out.len()
    }

    /// The operations written since `mark` were for the container `value` at the current path:
    /// where they take more bytes than the container (written whole, plus 8) they are replaced
    /// by setting it whole, as [`super::diff`] does. `at_least` is a lower bound of the
    /// container's JSON length: operations within it are kept without writing the container.
    fn no_longer_than_whole<T: Serialize + ?Sized>(
        &mut self,
        mark: usize,
        value: &T,
        at_least: usize,
    ) {
        let written = self.out.len() - mark;
        if written <= at_least + 8 {
            return;
        }
        let Ok(whole) = serde_json::to_string(value) else {
            return;
        };
        if written > whole.len() + 8 {
            self.out.truncate(mark);
            set(&self.path, &whole, &mut self.out);
        }
    }
}

/// A value that can write the operations turning an older value of its type into itself.
pub trait Diff: Serialize + PartialEq {
    /// The fewest bytes its JSON text can take (a bound, for [`Patcher`]'s size check).
    const MIN_JSON_LEN: usize = 1;

    /// Writes into `patch` the operations that turn `old` into `self` at the patch's current
    /// path. By default a value that changed is set whole.
    fn diff(&self, old: &Self, patch: &mut Patcher) {
        if self != old {
            patch.set(self);
        }
    }
}

impl Diff for bool {
    const MIN_JSON_LEN: usize = 4;
}
impl Diff for u8 {}
impl Diff for u16 {}
impl Diff for u32 {}
impl Diff for u64 {}
impl Diff for warroom_engine::Seat {}

impl<T: Diff> Diff for Option<T> {
    const MIN_JSON_LEN: usize = if T::MIN_JSON_LEN < 4 {
        T::MIN_JSON_LEN
    } else {
        4
    };

    fn diff(&self, old: &Self, patch: &mut Patcher) {
        match (old, self) {
            (Some(old), Some(new)) => new.diff(old, patch),
            (None, None) => {}
            _ => patch.set(self),
        }
    }
}

/// Lists: entry by entry while the list is as long as before or longer (entries past the old
/// end are appended), set whole when it got shorter.
impl<T: Diff> Diff for Vec<T> {
    const MIN_JSON_LEN: usize = 2;

    fn diff(&self, old: &Self, patch: &mut Patcher) {
        diff_list(self, old, patch);
    }
}

impl<T: Diff, const N: usize> Diff for [T; N]
where
    [T; N]: Serialize,
{
    const MIN_JSON_LEN: usize = 1 + N * (T::MIN_JSON_LEN + 1);

    fn diff(&self, old: &Self, patch: &mut Patcher) {
        diff_list(self, old, patch);
    }
}

fn diff_list<T: Diff>(new: &[T], old: &[T], patch: &mut Patcher) {
    if new.len() < old.len() {
        patch.set(new);
        return;
    }
    let mark = patch.mark();
    for (index, new_entry) in new.iter().enumerate() {
        match old.get(index) {
            Some(old_entry) => {
                if new_entry != old_entry {
                    patch.entry(index, old_entry, new_entry);
                }
            }
            None => {
                patch.path.push(Step::Index(index));
                patch.set(new_entry);
                patch.path.pop();
            }
        }
    }
    let at_least = 1 + new.len() * (T::MIN_JSON_LEN + 1);
    patch.no_longer_than_whole(mark, new, at_least);
}

/// Hexdice's dynamic view: its static parts (`board`, `options`) are not compared; the phase is
/// small and set whole when it changed.
impl Diff for HexdiceView {
    fn diff(&self, old: &Self, patch: &mut Patcher) {
        // Every field is named, so a new field is a compile error here until it is compared.
        let HexdiceView {
            board: _,
            cells,
            phase,
            to_act,
            players,
            occupation_starter,
            first_turn,
            turn,
            options: _,
        } = self;
        patch.field("cells", &old.cells, cells);
        if *phase != old.phase {
            patch.path.push(Step::Name("phase"));
            patch.set(phase);
            patch.path.pop();
        }
        patch.field("to_act", &old.to_act, to_act);
        patch.field("players", &old.players, players);
        patch.field(
            "occupation_starter",
            &old.occupation_starter,
            occupation_starter,
        );
        patch.field("first_turn", &old.first_turn, first_turn);
        patch.field("turn", &old.turn, turn);
    }
}

impl Diff for DieView {
    /// `{"owner":0,"value":1}`
    const MIN_JSON_LEN: usize = 21;

    fn diff(&self, old: &Self, patch: &mut Patcher) {
        let DieView { owner, value } = self;
        let mark = patch.mark();
        patch.field("owner", &old.owner, owner);
        patch.field("value", &old.value, value);
        patch.no_longer_than_whole(mark, self, Self::MIN_JSON_LEN);
    }
}

impl Diff for PlayerView {
    /// `{"unplaced":[],"reserve":[],"dice_on_board":0,"pips_on_board":0}`
    const MIN_JSON_LEN: usize = 64;

    fn diff(&self, old: &Self, patch: &mut Patcher) {
        let PlayerView {
            unplaced,
            reserve,
            dice_on_board,
            pips_on_board,
        } = self;
        let mark = patch.mark();
        patch.field("unplaced", &old.unplaced, unplaced);
        patch.field("reserve", &old.reserve, reserve);
        patch.field("dice_on_board", &old.dice_on_board, dice_on_board);
        patch.field("pips_on_board", &old.pips_on_board, pips_on_board);
        patch.no_longer_than_whole(mark, self, Self::MIN_JSON_LEN);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;
    use warroom_engine::{BotRng, Ruleset, Seat, Seed, Viewer, random_legal};

    use super::*;
    use crate::static_parts::strip_static_parts;

    fn dynamic_json(state: &Hexdice) -> Value {
        let mut value = serde_json::to_value(state.dynamic_view(Viewer::Spectator)).unwrap();
        strip_static_parts(&mut value);
        value
    }

    #[test]
    fn the_minimum_lengths_are_those_of_the_shortest_values() {
        let die = DieView {
            owner: Seat(0),
            value: 1,
        };
        assert_eq!(
            serde_json::to_string(&die).unwrap().len(),
            DieView::MIN_JSON_LEN
        );
        let player = PlayerView {
            unplaced: Vec::new(),
            reserve: Vec::new(),
            dice_on_board: 0,
            pips_on_board: 0,
        };
        assert_eq!(
            serde_json::to_string(&player).unwrap().len(),
            PlayerView::MIN_JSON_LEN
        );
        assert_eq!(<Option<DieView>>::MIN_JSON_LEN, 4);
    }

    /// After every action of random hexdice matches (every board size and option the default
    /// gives, and random boards), the typed patch applied to the previous view's JSON gives the
    /// new view's JSON, and it is about as short as the text diff's.
    #[test]
    fn a_typed_hexdice_patch_turns_the_previous_view_into_the_next() {
        let (mut typed_bytes, mut text_bytes, mut steps) = (0, 0, 0);
        for seed in 0..60u64 {
            let (mut state, _) = Hexdice::new(&Default::default(), 2, Seed::from_u64(seed))
                .expect("a hexdice match starts");
            let mut rng = BotRng::new(seed ^ 0x77);
            let mut old_view = state.dynamic_view(Viewer::Spectator);
            let mut old_json = dynamic_json(&state);
            while let Some(seat) = state.to_act() {
                let action = random_legal(&state, &mut rng).expect("an action");
                state
                    .apply(seat, &action, &mut Vec::new())
                    .expect("a legal action");
                let new_view = state.dynamic_view(Viewer::Spectator);
                let new_json = dynamic_json(&state);
                let typed = Hexdice::view_patch(&old_view, &new_view).unwrap();
                let ops: Value = serde_json::from_str(&typed).expect("the patch is JSON");
                let mut patched = old_json.clone();
                super::super::apply(&mut patched, &ops).expect("the patch fits");
                assert_eq!(patched, new_json, "after {action:?}: {typed}");
                let text = super::super::diff(&old_json.to_string(), &new_json.to_string());
                typed_bytes += typed.len();
                text_bytes += text.len();
                steps += 1;
                (old_view, old_json) = (new_view, new_json);
            }
        }
        assert!(steps > 1_000, "{steps} steps");
        println!(
            "hexdice: {steps} steps, patch bytes per step: typed {}, text diff {}",
            typed_bytes / steps,
            text_bytes / steps
        );
        assert!(
            typed_bytes * 10 <= text_bytes * 12,
            "typed {typed_bytes} bytes, text {text_bytes}"
        );
    }

    #[test]
    fn a_view_unchanged_is_an_empty_patch_and_a_shorter_list_is_set_whole() {
        let (state, _) = Hexdice::new(&Default::default(), 2, Seed::from_u64(9)).unwrap();
        let view = state.dynamic_view(Viewer::Seat(Seat(1)));
        assert_eq!(Hexdice::view_patch(&view, &view).unwrap(), "[]");
        let mut patch = Patcher::new();
        vec![1u8, 2].diff(&vec![1u8, 2, 3], &mut patch);
        assert_eq!(patch.finish(), "[[[],[1,2]]]");
        let mut patch = Patcher::new();
        vec![1u8, 5, 3, 4].diff(&vec![1u8, 2, 3], &mut patch);
        assert_eq!(patch.finish(), "[[[1],5],[[3],4]]");
    }
}
