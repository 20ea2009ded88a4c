//! UI predicates over a screen as the agent saw it: the dump is read by the hierarchy's one parser
//! (`hierarchy::parse`, limits and repair included), elements are named with the hierarchy's one
//! selector grammar ([`Selector`]), and attributes are tested with [`Matcher`]s. Used by UI checks on
//! the final screen, any step, or the last step where a page gate holds, and by action-history checks
//! that need an element's bounds.

use droidmcp_geom::Point;
use droidmcp_hierarchy::{self as hierarchy, Hierarchy, Node, Selector};

use super::matcher::Matcher;

/// Reads a dump exactly as the session reads what the agent sees.
pub fn parse_nodes(xml: &str) -> Result<Hierarchy, String> {
    hierarchy::parse(xml.as_bytes()).map_err(|e| e.to_string())
}

/// The raw nodes (visible or not) `selector` picks, in document order.
pub fn select<'a>(selector: &Selector, h: &'a Hierarchy) -> Vec<&'a Node> {
    selector
        .select_nodes(h)
        .into_iter()
        .filter_map(|id| h.node(id))
        .collect()
}

/// True when a touch at `p` lands on an element `selector` picks: inside a picked node, or inside
/// the clickable ancestor that receives the node's touches (a row whose label was picked).
pub fn point_in_selected(p: Point, selector: &Selector, h: &Hierarchy) -> bool {
    selector.select_nodes(h).into_iter().any(|id| {
        let mut at = Some(id);
        while let Some(node) = at.and_then(|id| h.node(id)) {
            if node.bounds.contains(p) && !node.bounds.is_empty() {
                return true;
            }
            if node.clickable || node.long_clickable || node.checkable {
                return false;
            }
            at = node.parent;
        }
        false
    })
}

/// A UI predicate: the selected element exists (or not) and its attributes satisfy the matchers.
#[derive(Debug, Clone, PartialEq)]
pub struct UiPredicate {
    pub selector: Selector,
    /// Attribute name as the dump spells it (`text`, `enabled`, `checked`, `content-desc`) → test.
    pub attrs: Vec<(String, Matcher)>,
    /// False: the check passes when no element matches.
    pub present: bool,
}

impl UiPredicate {
    /// Tests one screen; `Ok(value)` carries the matched element's text (or desc) for evidence.
    pub fn test(&self, h: &Hierarchy) -> Result<String, String> {
        let candidates = select(&self.selector, h);
        if !self.present {
            return if candidates.is_empty() {
                Ok(String::new())
            } else {
                Err(format!("{} is on screen", self.selector))
            };
        }
        if candidates.is_empty() {
            return Err(format!("no element matches {}", self.selector));
        }
        let mut last_err = String::new();
        for node in candidates {
            match self.attrs.iter().try_for_each(|(name, m)| {
                m.check(node.attribute(name).as_deref(), None)
                    .map_err(|e| format!("{name}: {e}"))
            }) {
                Ok(()) => {
                    let shown = if node.text.is_empty() {
                        &node.content_desc
                    } else {
                        &node.text
                    };
                    return Ok(shown.clone());
                }
                Err(e) => last_err = e,
            }
        }
        Err(format!("{}: {last_err}", self.selector))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use droidmcp_geom::Bounds;

    const DUMP: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.google.android.calculator" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]"><node index="0" text="2+24÷3" resource-id="com.google.android.calculator:id/formula" class="android.widget.EditText" package="com.google.android.calculator" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="true" password="false" selected="false" bounds="[0,300][1080,500]" /><node index="1" text="" resource-id="com.google.android.calculator:id/clr" class="android.widget.Button" package="com.google.android.calculator" content-desc="clear" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[810,1200][1080,1400]" /><node index="2" text="" resource-id="" class="android.widget.LinearLayout" package="com.google.android.calculator" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,1500][1080,1700]"><node index="0" text="Display" resource-id="android:id/title" class="android.widget.TextView" package="com.google.android.calculator" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[100,1550][300,1600]" /></node></node></hierarchy>UI hierchary dumped to: /dev/tty"#;

    fn sel(s: &str) -> Selector {
        Selector::parse(s).unwrap()
    }

    #[test]
    fn finds_formula_by_id_tail_and_full_id() {
        let h = parse_nodes(DUMP).unwrap();
        for id in ["id:formula", "id:com.google.android.calculator:id/formula"] {
            let p = UiPredicate {
                selector: sel(id),
                attrs: vec![("text".into(), Matcher::Eq("2+24÷3".into()))],
                present: true,
            };
            assert_eq!(p.test(&h).as_deref(), Ok("2+24÷3"));
        }
        let wrong = UiPredicate {
            selector: sel("id:formula"),
            attrs: vec![("text".into(), Matcher::Eq("2+24".into()))],
            present: true,
        };
        assert!(wrong.test(&h).is_err());
        let absent = UiPredicate {
            selector: sel("id:result_final"),
            attrs: vec![],
            present: false,
        };
        assert!(absent.test(&h).is_ok());
        let flag = UiPredicate {
            selector: sel("desc:clear"),
            attrs: vec![("enabled".into(), Matcher::Eq("true".into()))],
            present: true,
        };
        assert_eq!(flag.test(&h).as_deref(), Ok("clear"));
    }

    #[test]
    fn selectors_are_the_hierarchy_grammar() {
        let h = parse_nodes(DUMP).unwrap();
        let picked = select(&sel("class:Button desc:clear nth:0"), &h);
        assert_eq!(picked[0].bounds, Bounds::new(810, 1200, 1080, 1400));
        assert_eq!(select(&sel("text~=24"), &h).len(), 1);
    }

    #[test]
    fn a_touch_on_the_row_counts_for_its_label() {
        let h = parse_nodes(DUMP).unwrap();
        let label = sel("text:Display");
        assert!(point_in_selected(Point::new(200, 1575), &label, &h));
        assert!(
            point_in_selected(Point::new(900, 1650), &label, &h),
            "row of the label"
        );
        assert!(!point_in_selected(Point::new(900, 1300), &label, &h));
        assert!(!point_in_selected(
            Point::new(900, 1300),
            &sel("id:formula"),
            &h
        ));
    }

    #[test]
    fn damaged_dumps_are_errors_not_panics() {
        assert!(parse_nodes("ERROR: could not get idle state.").is_err());
        assert!(parse_nodes("<hierarchy><node bounds=\"[0,0][1,1]\"></hierarchy>").is_err());
    }
}
