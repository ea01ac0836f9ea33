//! The form models a game builds from its typed prompt: a few fields, each a choice among the
//! legal answers, plus the step's buttons. The pages render them (`templates/field.html`) and
//! turn a posted form back into an order body; the game decides only what is offered.

/// A game's order form for one prompt, before the page adds the round, the step and the
/// rule links of its help.
#[derive(Clone, Debug)]
pub struct OrderForm {
    pub heading: String,
    /// What to do, in the game's words; rule citations (`(A16)`) are linked by the page.
    pub help: String,
    pub fields: Vec<Field>,
    /// The step is optional: a "decline" button sends `{"decline": true}`.
    pub decline: bool,
    /// A yes/no step: an "accept" button sends `{"accept": true}` (label in `accept_label`).
    pub accept: bool,
    pub accept_label: String,
    /// The step's own extra answers, each one button sending `{name: true}` (a game's
    /// special answer, as its rules name it).
    pub buttons: Vec<Button>,
}

/// A button that answers the step by itself: posting it sends `{name: true}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Button {
    /// The order field it sets to `true`.
    pub name: String,
    /// What the button says.
    pub label: String,
}

/// A game's token, card or piece drawn as a chip in pools cells and revealed orders: its code,
/// a shape beside it (so colour is never the only cue) and its colour in words for screen
/// readers (`GameUi::chip`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chip {
    /// The code as the rules write it (`R7`).
    pub code: String,
    /// The CSS class suffix of its colour.
    pub colour: &'static str,
    /// A shape drawn beside the code: the cue that does not depend on seeing colour.
    pub shape: &'static str,
    /// The colour in words (the text alternative).
    pub words: &'static str,
}

/// One answer to give: a select (one value) or checkboxes (`multiple`, a list).
#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    pub label: String,
    pub multiple: bool,
    /// A single choice whose value is a space-separated list, sent as an array (a BST pair).
    pub list: bool,
    pub required: bool,
    /// How many to tick, for checkboxes ("" if not limited).
    pub hint: String,
    /// The field whose value limits this one's choices (JS hides the others; the server
    /// checks regardless).
    pub depends_on: String,
    /// Each value is the JSON text of what the order holds (a number, a flag, an object,
    /// `null`), sent parsed rather than as text.
    pub json: bool,
    /// Not asked: sent as its one value (`Field::hidden`), so that the answer names what it
    /// answers (a contest's number) as the form said it.
    pub hidden: bool,
    pub groups: Vec<Group>,
    /// The player puts the choices in an order (a battle plan): the page builds a numbered
    /// list by adding choices and moving or removing them, and posts it as a list in that
    /// order (`docs/web.md`, "Answers in an order").
    pub ordered: bool,
    /// For an ordered field, the values chosen so far, first first.
    pub chosen: Vec<String>,
}

impl Field {
    /// A required-or-not select of `choices`, ungrouped.
    pub fn select(name: &str, label: &str, choices: Vec<Choice>, required: bool) -> Field {
        Field {
            name: name.into(),
            label: label.into(),
            multiple: false,
            list: false,
            required,
            hint: String::new(),
            depends_on: String::new(),
            json: false,
            hidden: false,
            groups: vec![Group {
                label: String::new(),
                choices,
            }],
            ordered: false,
            chosen: Vec::new(),
        }
    }

    /// A field the form sends without asking: `value` is JSON text.
    pub fn hidden(name: &str, value: &str) -> Field {
        let mut field = Field::select(
            name,
            name,
            vec![Choice::new(value, String::new(), true)],
            true,
        );
        field.json = true;
        field.hidden = true;
        field
    }

    /// The value a hidden field sends.
    pub fn hidden_value(&self) -> &str {
        self.groups
            .iter()
            .flat_map(|g| &g.choices)
            .next()
            .map_or("", |c| c.value.as_str())
    }

    /// One posted value as the order holds it: parsed JSON for a [`Field::json`] field,
    /// else the text. A value that is not JSON is refused with the field's label.
    pub fn read(&self, posted: &str) -> Result<serde_json::Value, String> {
        match self.json {
            false => Ok(serde_json::Value::from(posted)),
            true => serde_json::from_str(posted).map_err(|_| {
                format!(
                    "“{posted}” is not a value of {}.",
                    self.label.to_lowercase()
                )
            }),
        }
    }

    /// An ordered list of `groups`' choices, `chosen` so far (unknown values are left out).
    pub fn ordered(name: &str, label: &str, groups: Vec<Group>, chosen: Vec<String>) -> Field {
        let mut field = Field::select(name, label, Vec::new(), false);
        field.groups = groups;
        field.multiple = true;
        field.ordered = true;
        field.chosen = chosen
            .into_iter()
            .filter(|value| field.choice(value).is_some())
            .collect();
        field
    }

    /// The choice whose value is `value`, if offered.
    pub fn choice(&self, value: &str) -> Option<&Choice> {
        self.groups
            .iter()
            .flat_map(|g| &g.choices)
            .find(|c| c.value == value)
    }

    /// An ordered field's chosen choices, in order.
    pub fn chosen_choices(&self) -> Vec<&Choice> {
        self.chosen.iter().filter_map(|v| self.choice(v)).collect()
    }

    /// Whether `value` is already in an ordered field's list.
    pub fn is_chosen(&self, value: &str) -> bool {
        self.chosen.iter().any(|v| v == value)
    }

    /// The choices that say what they do, for the list under the field.
    pub fn effects(&self) -> Vec<&Effect> {
        self.groups
            .iter()
            .flat_map(|g| &g.choices)
            .filter_map(|c| c.effect.as_ref())
            .collect()
    }
}

/// Choices under an optional heading (an `<optgroup>`).
#[derive(Clone, Debug)]
pub struct Group {
    pub label: String,
    pub choices: Vec<Choice>,
}

#[derive(Clone, Debug)]
pub struct Choice {
    pub value: String,
    pub label: String,
    /// The values of `depends_on` this choice goes with, space-separated.
    pub allowed_with: String,
    pub selected: bool,
    /// What choosing it does, in one line, with a link to its rule (a move; not a target).
    pub effect: Option<Effect>,
}

impl Choice {
    pub fn new(value: &str, label: String, selected: bool) -> Choice {
        Choice {
            value: value.to_owned(),
            label,
            allowed_with: String::new(),
            selected,
            effect: None,
        }
    }
}

/// A choice's one-line effect, and where its rule is on the game's rules page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effect {
    /// The choice's name as the rules name it ("Guard").
    pub name: String,
    /// What it does ("Your target takes 3 damage.").
    pub text: String,
    /// `/rules/{game}#{anchor}`.
    pub href: String,
}

/// A kebab- or snake-case identifier as words: `piercing-strike` → `Piercing strike`.
pub fn words(id: &str) -> String {
    let spaced = id.replace(['_', '-'], " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The text of `field` in an order already sent (to preselect it), or "".
pub fn pending_str<'a>(pending: Option<&'a serde_json::Value>, field: &str) -> &'a str {
    pending.and_then(|p| p[field].as_str()).unwrap_or("")
}
