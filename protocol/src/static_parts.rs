//! The parts of a view that never change during a match: the board, the options, classic's
//! borders and continents, and each classic territory's id, name and continent. A `snapshot`'s
//! view and a replay's `initial_view` carry them; an `applied`'s view leaves them out, and every
//! view patch (a live `applied`'s, a replay step's) applies to the view without them
//! (docs/PROTOCOL.md "Ruleset JSON", "View patches"). The server writes views without them in
//! the first place; [`strip_static_parts`] is for those who hold a whole view (clients, tests,
//! `verify`).

use serde_json::Value;

/// The fields of a view that never change during a match.
pub const STATIC_VIEW_FIELDS: [&str; 4] = ["board", "borders", "continents", "options"];

/// The fields of each entry of a list that never change during a match, by list: classic's
/// territories keep their ids (their positions), names and continents; owners and units change.
pub const STATIC_ENTRY_FIELDS: [(&str, &[&str]); 1] =
    [("territories", &["id", "name", "continent"])];

/// A whole view (a `snapshot`'s) less its static parts: the view an `applied` would carry,
/// which the next patch applies to.
pub fn strip_static_parts(view: &mut Value) {
    let Some(fields) = view.as_object_mut() else {
        return;
    };
    for field in STATIC_VIEW_FIELDS {
        fields.remove(field);
    }
    for (list, static_fields) in STATIC_ENTRY_FIELDS {
        if let Some(entries) = fields.get_mut(list).and_then(|l| l.as_array_mut()) {
            for entry in entries.iter_mut().filter_map(|e| e.as_object_mut()) {
                for field in static_fields {
                    entry.remove(*field);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn stripping_leaves_only_what_changes() {
        let mut view = json!({
            "board": {"regions": []}, "options": {}, "borders": [[0, 1]], "continents": [],
            "territories": [{"id": 0, "name": "Alaska", "continent": 0, "owner": 2, "units": 3}],
            "turn": 4
        });
        strip_static_parts(&mut view);
        assert_eq!(
            view,
            json!({"territories": [{"owner": 2, "units": 3}], "turn": 4})
        );
        let mut not_an_object = json!([1, 2]);
        strip_static_parts(&mut not_an_object);
        assert_eq!(not_an_object, json!([1, 2]));
    }
}
