//! Answers in an order, without the script: an ordered field (`Field::ordered`, a battle plan)
//! is a numbered list the player builds one button at a time. Each button posts the whole
//! order form with `edit-<field>` = `add:<value>`, `up:<i>`, `down:<i>` or `remove:<i>`; the
//! page comes back with the list changed and nothing sent (the list travels in the form's
//! hidden fields, never stored). With the script the same buttons change the list in place.
//! Sending the form posts the list in its order (`docs/web.md`, "Answers in an order").

use std::str::FromStr;

use serde_json::{Map, Value, json};

use super::prompt_form::{Field, PromptForm};
use super::session::CheckedForm;
use crate::error::AppError;

/// One change to an ordered list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    Add(String),
    Up(usize),
    Down(usize),
    Remove(usize),
}

impl FromStr for Edit {
    type Err = AppError;

    fn from_str(text: &str) -> Result<Edit, AppError> {
        let bad = || {
            AppError::malformed(
                "invalid-form",
                "The form asked for a change it does not offer.",
            )
        };
        let (op, arg) = text.split_once(':').ok_or_else(bad)?;
        let index = || arg.parse::<usize>().map_err(|_| bad());
        match op {
            "add" => Ok(Edit::Add(arg.to_owned())),
            "up" => Ok(Edit::Up(index()?)),
            "down" => Ok(Edit::Down(index()?)),
            "remove" => Ok(Edit::Remove(index()?)),
            _ => Err(bad()),
        }
    }
}

impl Edit {
    /// `list` after this change; a value not offered, one already listed or a place not in
    /// the list is refused (a stale page), and nothing changes.
    pub fn apply(&self, field: &Field, list: &mut Vec<String>) -> Result<(), AppError> {
        let stale = || {
            AppError::rejected(
                "stale-list",
                format!(
                    "That change does not fit your {} as it stands: look at the list again.",
                    field.label.to_lowercase()
                ),
            )
        };
        let last = list.len().checked_sub(1);
        match self {
            Edit::Add(value) if field.choice(value).is_some() && !list.contains(value) => {
                list.push(value.clone());
            }
            Edit::Up(i) if (1..list.len()).contains(i) => list.swap(*i - 1, *i),
            Edit::Down(i) if last.is_some_and(|last| *i < last) => list.swap(*i, *i + 1),
            Edit::Remove(i) if *i < list.len() => {
                list.remove(*i);
            }
            Edit::Add(_) | Edit::Up(_) | Edit::Down(_) | Edit::Remove(_) => return Err(stale()),
        }
        Ok(())
    }
}

/// The edit a posted form asks of one of `form`'s ordered fields, if any: the field's name and
/// the change.
pub fn requested(
    form: &PromptForm,
    posted: &CheckedForm,
) -> Result<Option<(String, Edit)>, AppError> {
    for field in form.fields.iter().filter(|f| f.ordered) {
        let asked = posted.get(&format!("edit-{}", field.name));
        if !asked.is_empty() {
            return Ok(Some((field.name.clone(), asked.parse()?)));
        }
    }
    Ok(None)
}

/// The posted form as the values to show again: a list for each field that takes several
/// (in the order posted), else the text. Used to refill a form that was refused or edited.
pub fn posted_values(form: &PromptForm, posted: &CheckedForm) -> Map<String, Value> {
    let mut values: Map<String, Value> = posted
        .fields
        .iter()
        .filter(|(k, _)| k != "csrf" && !k.starts_with("edit-"))
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    for field in form.fields.iter().filter(|f| f.multiple) {
        values.insert(field.name.clone(), json!(posted.all(&field.name)));
    }
    values
}

/// `posted` with the ordered field `name` changed by `edit`, as the values to show again.
pub fn edited(
    form: &PromptForm,
    posted: &CheckedForm,
    name: &str,
    edit: &Edit,
) -> Result<Map<String, Value>, AppError> {
    let field = form
        .fields
        .iter()
        .find(|f| f.name == name)
        .ok_or_else(|| AppError::Internal(format!("no ordered field {name}")))?;
    let mut list = posted.all(name);
    edit.apply(field, &mut list)?;
    let mut values = posted_values(form, posted);
    values.insert(name.to_owned(), json!(list));
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Choice, Group};

    fn field() -> Field {
        let choices = ["AC", "2H", "KS", "JK1"]
            .iter()
            .map(|v| Choice::new(v, (*v).to_owned(), false))
            .collect();
        let groups = vec![Group {
            label: String::new(),
            choices,
        }];
        Field::ordered("cards", "Plan", groups, Vec::new())
    }

    fn run(edits: &[&str]) -> Result<Vec<String>, AppError> {
        let field = field();
        let mut list = Vec::new();
        for edit in edits {
            edit.parse::<Edit>()?.apply(&field, &mut list)?;
        }
        Ok(list)
    }

    #[test]
    fn cards_go_in_the_order_added_and_move_as_asked() {
        let added = run(&["add:KS", "add:2H", "add:AC", "add:JK1"]).unwrap();
        assert_eq!(added, ["KS", "2H", "AC", "JK1"]);
        let moved = run(&["add:KS", "add:2H", "add:AC", "up:2", "down:0", "remove:2"]).unwrap();
        assert_eq!(moved, ["AC", "KS"]);
    }

    #[test]
    fn a_change_that_does_not_fit_the_list_is_refused() {
        for edits in [
            &["add:KS", "add:KS"][..],
            &["add:QH"],
            &["add:KS", "up:0"],
            &["add:KS", "down:0"],
            &["remove:0"],
            &["sideways:1"],
            &["up:x"],
        ] {
            assert!(run(edits).is_err(), "{edits:?}");
        }
    }
}
