//! Per-call narrowing of an element list: a filter (text, role, region) and paging for huge screens.
//! Element ids never change under a filter; a page shows a slice of the matching elements.

use super::elements::{Element, ElementList, Role};
use droidmcp_geom::Bounds;

/// Which elements to show; every set field must match.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    /// Case-insensitive substring of any shown string (text, description, hint, folded text) or of
    /// the resource id.
    pub text: Option<String>,
    pub role: Option<Role>,
    /// Only elements whose bounds meet this rectangle.
    pub region: Option<Bounds>,
}

impl Filter {
    pub fn is_empty(&self) -> bool {
        self.text.is_none() && self.role.is_none() && self.region.is_none()
    }

    pub fn matches(&self, e: &Element) -> bool {
        if let Some(role) = self.role {
            if e.role != role {
                return false;
            }
        }
        if let Some(region) = self.region {
            if region.intersect(&e.bounds).is_empty() {
                return false;
            }
        }
        if let Some(needle) = &self.text {
            let needle = needle.to_lowercase();
            let hit = e
                .strings()
                .chain([e.resource_id.as_str()])
                .any(|s| s.to_lowercase().contains(&needle));
            if !hit {
                return false;
            }
        }
        true
    }
}

/// A slice of the matching elements: skip `offset`, show at most `limit` (all when `None`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Page {
    pub offset: usize,
    pub limit: Option<usize>,
}

/// What one call shows.
#[derive(Debug, Clone)]
pub struct Window<'a> {
    pub elements: Vec<&'a Element>,
    /// Elements matching the filter (before paging).
    pub matched: usize,
    /// Elements on the whole screen.
    pub total: usize,
    pub offset: usize,
}

impl Window<'_> {
    /// Whether the window shows less than the whole screen.
    pub fn is_partial(&self) -> bool {
        self.elements.len() < self.total
    }

    /// The offset of the next page, when there is one.
    pub fn next_offset(&self) -> Option<usize> {
        let end = self.offset + self.elements.len();
        (end < self.matched).then_some(end)
    }
}

impl ElementList {
    pub fn window(&self, filter: &Filter, page: Page) -> Window<'_> {
        let matching: Vec<&Element> = self.elements.iter().filter(|e| filter.matches(e)).collect();
        let matched = matching.len();
        let elements = matching
            .into_iter()
            .skip(page.offset)
            .take(page.limit.unwrap_or(usize::MAX))
            .collect();
        Window {
            elements,
            matched,
            total: self.elements.len(),
            offset: page.offset,
        }
    }

    /// Every element, unfiltered.
    pub fn all(&self) -> Window<'_> {
        self.window(&Filter::default(), Page::default())
    }
}
