//! What changed between two observations of a screen, for act-and-observe replies.
//!
//! Ids are per list, so elements are matched by what they are, not by number: first by identity
//! (role, resource id and every shown string; equal identities pair up in document order), then the
//! rest by place (role, resource id and bounds), which catches a field whose text changed or a switch
//! that flipped. Whatever is left was added or removed.

use std::collections::HashMap;

use super::elements::{Element, ElementList, Role, State};
use droidmcp_geom::Bounds;

/// Which part of a matched element differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Text,
    Desc,
    State,
    Actions,
    Bounds,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub old: Element,
    pub new: Element,
    pub fields: Vec<Field>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Diff {
    /// In the new list's order, with the new ids.
    pub added: Vec<Element>,
    /// In the old list's order, with the old ids.
    pub removed: Vec<Element>,
    /// In the new list's order.
    pub changed: Vec<Change>,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.changed.is_empty()
    }
}

pub fn diff(old: &ElementList, new: &ElementList) -> Diff {
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut old_left: Vec<bool> = vec![true; old.elements.len()];
    let mut new_left: Vec<bool> = vec![true; new.elements.len()];

    pair_by(old, new, &mut old_left, &mut new_left, &mut pairs, identity);
    pair_by(old, new, &mut old_left, &mut new_left, &mut pairs, place);

    pairs.sort_by_key(|&(_, n)| n);
    let changed = pairs
        .into_iter()
        .filter_map(|(o, n)| {
            let (old, new) = (&old.elements[o], &new.elements[n]);
            let fields = differences(old, new);
            (!fields.is_empty()).then(|| Change {
                old: old.clone(),
                new: new.clone(),
                fields,
            })
        })
        .collect();
    Diff {
        added: keep_unpaired(&new.elements, &new_left),
        removed: keep_unpaired(&old.elements, &old_left),
        changed,
    }
}

type Identity<'a> = (Role, &'a str, Vec<&'a str>);
type Place<'a> = (Role, &'a str, Bounds);

fn identity(e: &Element) -> Identity<'_> {
    (e.role, e.resource_id.as_str(), e.strings().collect())
}

fn place(e: &Element) -> Place<'_> {
    (e.role, e.resource_id.as_str(), e.bounds)
}

/// Pairs still-unpaired elements with equal keys, the k-th old with the k-th new.
fn pair_by<'a, K: std::hash::Hash + Eq>(
    old: &'a ElementList,
    new: &'a ElementList,
    old_left: &mut [bool],
    new_left: &mut [bool],
    pairs: &mut Vec<(usize, usize)>,
    key: impl Fn(&'a Element) -> K,
) {
    let mut waiting: HashMap<K, std::collections::VecDeque<usize>> = HashMap::new();
    for (i, e) in old.elements.iter().enumerate() {
        if old_left[i] {
            waiting.entry(key(e)).or_default().push_back(i);
        }
    }
    for (j, e) in new.elements.iter().enumerate() {
        if !new_left[j] {
            continue;
        }
        if let Some(i) = waiting.get_mut(&key(e)).and_then(|q| q.pop_front()) {
            old_left[i] = false;
            new_left[j] = false;
            pairs.push((i, j));
        }
    }
}

fn differences(old: &Element, new: &Element) -> Vec<Field> {
    let mut fields = Vec::new();
    if old.text != new.text || old.folded != new.folded || old.hint != new.hint {
        fields.push(Field::Text);
    }
    if old.desc != new.desc {
        fields.push(Field::Desc);
    }
    // `empty` follows the text, already reported as a text change.
    let comparable = |e: &Element| State {
        empty: false,
        ..e.state
    };
    if comparable(old) != comparable(new) {
        fields.push(Field::State);
    }
    if old.actions != new.actions {
        fields.push(Field::Actions);
    }
    if old.bounds != new.bounds {
        fields.push(Field::Bounds);
    }
    fields
}

fn keep_unpaired(elements: &[Element], left: &[bool]) -> Vec<Element> {
    elements
        .iter()
        .zip(left)
        .filter(|(_, l)| **l)
        .map(|(e, _)| e.clone())
        .collect()
}
