//! UI hierarchy through its public boundary: dump bytes in, element lists, text, selectors, marks and
//! diffs out; over the real corpus in tests/corpus/ and small fixtures.

mod oracle;

use std::collections::HashMap;
use std::path::PathBuf;

use droidmcp::geom::{Bounds, Point};
use droidmcp::hierarchy::{
    self, format, marks, ElementId, ElementList, Field, Filter, Format, Options, Page,
    ParseErrorKind, RenderOptions, Role, Selector,
};
use image::{Rgba, RgbaImage};
use rand::{Rng, SeedableRng};

fn corpus_dir(dir: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(dir)
}

fn corpus(dir: &str) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(corpus_dir(dir))
        .expect("corpus directory exists")
        .map(|e| e.expect("corpus entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).expect("corpus file reads"))
        })
        .collect()
}

/// INDEX.tsv: file name → the value of `column`.
fn index_column(dir: &str, column: &str) -> HashMap<String, String> {
    let text = std::fs::read_to_string(corpus_dir(dir).join("INDEX.tsv")).expect("INDEX.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = header.iter().position(|h| *h == column).expect("column");
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .map(|f| (f[0].to_string(), f[col].to_string()))
        .collect()
}

fn list_of(xml: &str) -> ElementList {
    let h = hierarchy::parse(xml.as_bytes()).expect("fixture parses");
    ElementList::from_hierarchy(&h, &Options::default())
}

fn compact_of(xml: &str) -> String {
    let list = list_of(xml);
    format::compact(&list, &list.all(), false)
}

/// A dump with a 1080x2400 screen around `body`.
fn screen(body: &str) -> String {
    format!(
        r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example" content-desc="" bounds="[0,0][1080,2400]">{body}</node></hierarchy>"#
    )
}

fn check(body: &str, expect: &str) {
    let got = compact_of(&screen(body));
    let got: Vec<&str> = got.lines().skip(1).collect();
    let expect: Vec<&str> = expect.trim().lines().map(str::trim).collect();
    assert_eq!(got, expect, "\n got:\n{}\n", got.join("\n"));
}

// ---------------------------------------------------------------- parsing

#[test]
fn every_corpus_dump_parses_with_its_indexed_node_count() {
    let counts = index_column("uiautomator", "node_count");
    let dumps = corpus("uiautomator");
    assert_eq!(dumps.len(), counts.len(), "INDEX.tsv lists every dump");
    for (name, bytes) in dumps {
        let h = hierarchy::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(h.nodes.len().to_string(), counts[&name], "{name}");
        assert!(
            !h.screen().is_empty(),
            "{name}: screen size from root bounds"
        );
    }
}

#[test]
fn malformed_corpus_is_salvaged() {
    let counts = index_column("uiautomator-malformed", "node_count_after_salvage");
    for (name, bytes) in corpus("uiautomator-malformed") {
        let h = hierarchy::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(h.nodes.len().to_string(), counts[&name], "{name}");
        assert!(h.xml.starts_with("<hierarchy"), "{name}: junk cut off");
        assert!(h.xml.ends_with("</hierarchy>"), "{name}: junk cut off");
    }
}

#[test]
fn the_mojibake_dump_keeps_the_attributes_after_the_broken_quote() {
    let bytes = std::fs::read(
        corpus_dir("uiautomator-malformed").join("mthaha123__mobile-agent-bridge__ui3_dump.xml"),
    )
    .unwrap();
    let h = hierarchy::parse(&bytes).unwrap();
    let broken = h
        .nodes
        .iter()
        .find(|n| n.content_desc.starts_with('\u{922b}'))
        .expect("the mis-encoded node is present");
    assert!(broken.clickable);
    assert!(!broken.bounds.is_empty());
}

#[test]
fn all_attributes_are_kept() {
    let (_, bytes) = corpus("uiautomator")
        .into_iter()
        .find(|(n, _)| n.starts_with("adobortnik__Hydra__automation"))
        .unwrap();
    let h = hierarchy::parse(&bytes).unwrap();
    let n = &h.nodes[1];
    assert_eq!(n.drawing_order, Some(1));
    assert_eq!(n.display_id, Some(0));
    assert_eq!(n.attribute("drawing-order").as_deref(), Some("1"));
    assert!(
        h.nodes.iter().all(|n| n.visible_to_user),
        "visible-to-user=\"true\" read as true"
    );
    let naf = corpus("uiautomator")
        .into_iter()
        .map(|(_, b)| hierarchy::parse(&b).unwrap())
        .any(|h| h.nodes.iter().any(|n| n.naf));
    assert!(naf, "NAF flags survive");
}

#[test]
fn errors_name_kind_and_position() {
    let e = hierarchy::parse(b"<hierarchy><node bounds=\"[0,0][1,1]\"></hierarchy>").unwrap_err();
    assert!(matches!(e.kind, ParseErrorKind::Xml(_)), "{e}");
    assert!(e.position > 0 && e.position <= 50, "{e}");
    assert!(e.to_string().starts_with("uiautomator dump: "), "{e}");
    let e =
        hierarchy::parse(b"ERROR: null root node returned by UiTestAutomationBridge.").unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::NoHierarchy);
}

// ---------------------------------------------------------------- compression

#[test]
fn folds_row_text_into_the_tappable_row() {
    check(
        r#"<node class="android.widget.LinearLayout" clickable="true" resource-id="com.example:id/row" bounds="[0,300][1080,450]">
             <node class="android.widget.TextView" text="Wi-Fi" bounds="[40,310][600,370]" />
             <node class="android.widget.TextView" text="MyHomeNet" bounds="[40,380][600,440]" />
             <node class="android.widget.Switch" checkable="true" checked="true" clickable="true" bounds="[900,330][1040,420]" />
           </node>"#,
        // The switch shows no string: it is named by its row's title, as accessibility names it.
        r#"1 btn @540,375: Wi-Fi | MyHomeNet
           2 switch @970,375 checked: Wi-Fi"#,
    );
}

#[test]
fn merges_a_control_into_a_same_sized_clickable_wrapper() {
    check(
        r#"<node class="android.widget.FrameLayout" clickable="true" bounds="[0,300][200,400]">
             <node class="android.widget.CheckBox" text="Remember me" checkable="true" checked="false" clickable="true" resource-id="com.example:id/remember" bounds="[0,300][200,400]" />
           </node>"#,
        r#"1 checkbox @100,350 unchecked: Remember me"#,
    );
}

#[test]
fn drops_invisible_zero_area_and_off_screen_nodes() {
    check(
        r#"<node class="android.widget.Button" text="Hidden" clickable="true" visible-to-user="false" bounds="[0,0][100,100]" />
           <node class="android.widget.TextView" text="Flat" bounds="[0,100][100,100]" />
           <node class="android.widget.TextView" text="Below" bounds="[0,2500][100,2600]" />
           <node class="android.widget.TextView" text="Half out" bounds="[1000,0][1200,100]" />"#,
        r#"1 text @1040,50: Half out"#,
    );
}

#[test]
fn a_full_screen_click_catcher_does_not_swallow_text() {
    check(
        r#"<node class="android.view.View" clickable="true" bounds="[0,0][1080,2400]">
             <node class="android.widget.TextView" text="Title" bounds="[0,100][1080,200]" />
           </node>"#,
        r#"1 btn @540,1200
           2 text @540,150: Title"#,
    );
}

#[test]
fn scroll_containers_keep_their_items_separate() {
    check(
        r#"<node class="androidx.recyclerview.widget.RecyclerView" scrollable="true" resource-id="com.example:id/list" bounds="[0,200][1080,2000]">
             <node class="android.widget.TextView" text="Alpha" bounds="[0,200][1080,300]" />
             <node class="android.view.ViewGroup" clickable="true" long-clickable="true" content-desc="Beta row" bounds="[0,300][1080,400]" />
           </node>"#,
        r#"1 list #list @540,1100
           2 text @540,250: Alpha
           3 btn @540,350 long: Beta row"#,
    );
}

#[test]
fn states_inputs_and_escapes() {
    check(
        r#"<node class="android.widget.EditText" text="" hint="Password" password="true" focused="true" clickable="true" bounds="[0,200][1080,300]" />
           <node class="android.widget.TextView" text="say &quot;hi&quot;&#10;twice" enabled="false" bounds="[0,300][1080,400]" />
           <node class="android.widget.ImageButton" content-desc="Back" clickable="true" selected="true" bounds="[0,400][100,500]" />
           <node class="android.widget.TabView" text="Alarms" selected="true" bounds="[0,500][1080,600]" />"#,
        r#"1 input @540,250 focused password empty: hint: Password
           2 text @540,350 disabled: say \"hi\"\ntwice
           3 btn @50,450 selected: Back
           4 tab @540,550 -tap selected: Alarms"#,
    );
}

#[test]
fn an_empty_field_shows_its_hint_as_a_hint_not_as_typed_text() {
    // Android reads an empty field's hint out as its text: a dump shows text == hint.
    check(
        r#"<node class="android.widget.EditText" text="Search" hint="Search" clickable="true" bounds="[0,200][1080,300]" />
           <node class="android.widget.EditText" text="Zoë" hint="Name" clickable="true" bounds="[0,300][1080,400]" />"#,
        r#"1 input @540,250 empty: hint: Search
           2 input @540,350: Zoë | hint: Name"#,
    );
}

/// A vertical list of `rows` rows of `height` px from `top`, clipped to [400, 1000) as dumps clip.
fn list_with_rows(top: i32, rows: i32, height: i32) -> String {
    let mut body = String::from(
        r#"<node class="androidx.recyclerview.widget.RecyclerView" resource-id="a:id/list" scrollable="true" bounds="[0,400][1080,1000]">"#,
    );
    for i in 0..rows {
        let (t, b) = (
            (top + i * height).max(400),
            (top + (i + 1) * height).min(1000),
        );
        if t < b {
            body.push_str(&format!(
                r#"<node class="android.widget.TextView" text="Row {i}" clickable="true" bounds="[0,{t}][1080,{b}]" />"#
            ));
        }
    }
    body.push_str("</node>");
    body
}

/// The element list's first element line (the list itself) for a screen of `body`.
fn first(body: &str) -> String {
    compact_of(&screen(body))
        .lines()
        .nth(1)
        .unwrap()
        .to_string()
}

#[test]
fn lists_say_which_way_an_item_is_cut() {
    // Rows at 400..1000 fit exactly: nothing is cut, so no hint (silence is not a promise).
    assert_eq!(first(&list_with_rows(400, 3, 200)), "1 list #list @540,700");
    // A third row cut at the bottom edge: more below.
    assert_eq!(
        first(&list_with_rows(400, 5, 250)),
        "1 list #list @540,700 more-down"
    );
    // Scrolled half a row: cut at both edges.
    assert_eq!(
        first(&list_with_rows(300, 5, 200)),
        "1 list #list @540,700 more-up more-down"
    );
    // A horizontal strip whose last card is cut at the right edge.
    let strip = r#"<node class="android.widget.HorizontalScrollView" resource-id="a:id/strip" scrollable="true" bounds="[0,400][1080,600]"><node class="android.widget.LinearLayout" bounds="[0,400][1080,600]"><node class="android.widget.Button" text="A" clickable="true" bounds="[0,400][400,600]" /><node class="android.widget.Button" text="B" clickable="true" bounds="[400,400][800,600]" /><node class="android.widget.Button" text="C" clickable="true" bounds="[800,400][1080,600]" /></node></node>"#;
    assert_eq!(first(strip), "1 list #strip @540,500 more-right");
}

#[test]
fn a_row_cut_by_a_few_pixels_or_a_forms_cut_field_still_says_more_down() {
    // Broccoli's recipe cards (205 px here) with the last one 15 px short of the list's edge: the
    // list goes on below, though the cut row is 93% of its siblings.
    assert_eq!(
        first(&list_with_rows(400, 4, 205)),
        "1 list #list @540,700 more-down"
    );
    // A recipe form: each input has its own id, and the last one (Source) is cut by the Save bar
    // while Ingredients and Directions wait below. It is measured against the other inputs.
    let form = r#"<node class="android.widget.ScrollView" scrollable="true" bounds="[0,400][1080,1000]"><node class="android.widget.TextView" text="Title" bounds="[0,400][1080,450]" /><node class="android.widget.EditText" resource-id="a:id/new_title" text="" clickable="true" bounds="[0,450][1080,590]" /><node class="android.widget.TextView" text="Servings" bounds="[0,620][1080,670]" /><node class="android.widget.EditText" resource-id="a:id/new_servings" text="" clickable="true" bounds="[0,670][1080,810]" /><node class="android.widget.TextView" text="Source" bounds="[0,840][1080,890]" /><node class="android.widget.EditText" resource-id="a:id/new_source" text="" clickable="true" bounds="[0,890][1080,1000]" /></node>"#;
    assert_eq!(first(form), "1 list @540,700 more-down");
}

#[test]
fn a_short_heading_at_the_top_of_a_list_is_not_a_cut_row() {
    // Simple Calendar's search results: a day's heading (40 dp) at the list's top above its
    // event rows (56 dp). Nothing is cut, so nothing lies above.
    let list = r#"<node class="androidx.recyclerview.widget.RecyclerView" resource-id="a:id/results" scrollable="true" bounds="[0,400][1080,1000]"><node class="android.widget.TextView" resource-id="a:id/event_section_title" text="Saturday, October 21, 2023" bounds="[0,400][1080,510]" /><node class="android.widget.FrameLayout" resource-id="a:id/event_item_holder" content-desc="Quarterly review" clickable="true" bounds="[0,510][1080,657]" /><node class="android.widget.FrameLayout" resource-id="a:id/event_item_holder" content-desc="Car service" clickable="true" bounds="[0,657][1080,804]" /></node>"#;
    assert_eq!(first(list), "1 list #results @540,700");
    // A row of a kind seen twice and cut at the top still says so.
    let cut_row = r#"<node class="androidx.recyclerview.widget.RecyclerView" resource-id="a:id/results" scrollable="true" bounds="[0,400][1080,1000]"><node class="android.widget.FrameLayout" resource-id="a:id/event_item_holder" content-desc="A" clickable="true" bounds="[0,400][1080,450]" /><node class="android.widget.FrameLayout" resource-id="a:id/event_item_holder" content-desc="B" clickable="true" bounds="[0,450][1080,597]" /><node class="android.widget.FrameLayout" resource-id="a:id/event_item_holder" content-desc="C" clickable="true" bounds="[0,597][1080,744]" /></node>"#;
    assert_eq!(first(cut_row), "1 list #results @540,700 more-up");
}

#[test]
fn recall_is_complete_on_every_corpus_dump() {
    let mut dumps = corpus("uiautomator");
    dumps.extend(corpus("uiautomator-malformed"));
    for (name, bytes) in dumps {
        let h = hierarchy::parse(&bytes).unwrap();
        let list = ElementList::from_hierarchy(&h, &Options::default());
        let text = format::compact(&list, &list.all(), false);
        for s in oracle::visible_strings(&h) {
            let json = serde_json::to_string(&s).unwrap();
            assert!(
                text.contains(&json[1..json.len() - 1]),
                "{name}: visible string {s:?} missing from the compact list"
            );
        }
        for node in oracle::visible_actionable(&h) {
            let e = list
                .element_for_node(node)
                .unwrap_or_else(|| panic!("{name}: actionable node {node} has no element"));
            assert!(
                e.actions.any(),
                "{name}: {node} maps to an element without actions"
            );
        }
        for (i, e) in list.elements.iter().enumerate() {
            assert_eq!(e.id, ElementId(i as u32 + 1), "{name}: ids count from 1");
            assert!(!e.bounds.is_empty(), "{name}: element {} has no area", e.id);
            assert!(
                list.screen.contains(e.center),
                "{name}: element {} off screen",
                e.id
            );
        }
    }
}

#[test]
fn compact_list_is_95_percent_smaller_than_raw_xml() {
    let bpe = tiktoken_rs::o200k_base().unwrap();
    let (mut raw, mut compact) = (0usize, 0usize);
    for (_, bytes) in corpus("uiautomator") {
        let h = hierarchy::parse(&bytes).unwrap();
        let list = ElementList::from_hierarchy(&h, &Options::default());
        raw += bpe.encode_ordinary(&h.xml).len();
        compact += bpe
            .encode_ordinary(&format::compact(&list, &list.all(), false))
            .len();
    }
    let reduction = 1.0 - compact as f64 / raw as f64;
    assert!(
        reduction >= 0.95,
        "reduction {:.1}% ({compact}/{raw})",
        reduction * 100.0
    );
}

#[test]
fn the_same_screen_gives_the_same_ids() {
    for (name, bytes) in corpus("uiautomator").into_iter().step_by(7) {
        let a =
            ElementList::from_hierarchy(&hierarchy::parse(&bytes).unwrap(), &Options::default());
        let b =
            ElementList::from_hierarchy(&hierarchy::parse(&bytes).unwrap(), &Options::default());
        assert_eq!(a, b, "{name}");
        assert!(hierarchy::diff(&a, &b).is_empty(), "{name}");
    }
}

// ---------------------------------------------------------------- output formats

#[test]
fn json_format_carries_ids_bounds_and_fields() {
    let xml = screen(
        r#"<node class="android.widget.Switch" text="Wi-Fi" checkable="true" checked="true" clickable="true" resource-id="com.example:id/wifi" bounds="[0,200][1080,300]" />"#,
    );
    let h = hierarchy::parse(xml.as_bytes()).unwrap();
    let list = ElementList::from_hierarchy(&h, &Options::default());
    let out = hierarchy::render(
        &h,
        &list,
        &RenderOptions {
            format: Format::Json,
            ..RenderOptions::default()
        },
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"screen":[1080,2400],"package":"com.example","total":1,"matched":1,"offset":0,
            "elements":[{"id":1,"role":"switch","text":"Wi-Fi","resource_id":"com.example:id/wifi","class":"Switch",
            "actions":["tap","toggle"],"state":["checked"],"bounds":[0,200,1080,300],"center":[540,250]}]})
    );
    let raw = hierarchy::render(
        &h,
        &list,
        &RenderOptions {
            format: Format::Xml,
            ..RenderOptions::default()
        },
    );
    assert!(raw.starts_with("<hierarchy") && raw.contains("com.example:id/wifi"));
}

#[test]
fn bounds_option_replaces_the_centre() {
    let list = list_of(&screen(
        r#"<node class="android.widget.Button" text="OK" clickable="true" bounds="[10,20][110,220]" />"#,
    ));
    assert_eq!(
        format::compact_line(&list.elements[0], true),
        r#"1 btn [10,20,110,220]: OK"#
    );
}

#[test]
fn filter_and_paging_keep_ids() {
    let rows: String = (0..30)
        .map(|i| {
            format!(
                r#"<node class="android.widget.Button" text="Item {i}" clickable="true" bounds="[0,{}][1080,{}]" />"#,
                i * 70,
                i * 70 + 60
            )
        })
        .collect();
    let list = list_of(&screen(&rows));
    let filter = Filter {
        text: Some("item 1".into()),
        ..Filter::default()
    };
    let window = list.window(
        &filter,
        Page {
            offset: 2,
            limit: Some(3),
        },
    );
    let ids: Vec<u32> = window.elements.iter().map(|e| e.id.0).collect();
    assert_eq!(
        ids,
        vec![12, 13, 14],
        "Item 1, Item 10.. Item 19 match; skip 2, take 3"
    );
    assert_eq!(window.matched, 11);
    let text = format::compact(&list, &window, false);
    assert!(
        text.starts_with(
            "# com.example 1080x2400 · 3-5 of 11 (filtered from 30) · next offset 5\n"
        ),
        "{text}"
    );
    let region = Filter {
        region: Some(Bounds::new(0, 0, 1080, 130)),
        role: Some(Role::Button),
        ..Filter::default()
    };
    assert_eq!(list.window(&region, Page::default()).elements.len(), 2);
}

// ---------------------------------------------------------------- selectors

#[test]
fn every_element_has_a_selector_that_finds_it_again() {
    for (name, bytes) in corpus("uiautomator") {
        let h = hierarchy::parse(&bytes).unwrap();
        let list = ElementList::from_hierarchy(&h, &Options::default());
        for e in &list.elements {
            let s = list.selector_for(e.id).expect("selector");
            let reparsed =
                Selector::parse(&s.to_string()).unwrap_or_else(|err| panic!("{name}: {s}: {err}"));
            let found = reparsed.find(&list).unwrap();
            assert_eq!(found.id, e.id, "{name}: {s}");
            assert_eq!(reparsed.point(&list).unwrap(), e.center);
        }
    }
}

#[test]
fn selectors_resolve_to_points() {
    let list = list_of(&screen(
        r#"<node class="android.widget.LinearLayout" clickable="true" bounds="[0,300][1080,450]">
             <node class="android.widget.TextView" text="Alarm 7:00" bounds="[40,310][600,370]" />
           </node>
           <node class="com.google.android.material.floatingactionbutton.FloatingActionButton" content-desc="Add alarm" clickable="true" resource-id="com.google.android.deskclock:id/fab" bounds="[800,2000][1000,2200]" />
           <node class="android.widget.Button" text="OK" clickable="true" bounds="[0,500][100,600]" />
           <node class="android.widget.Button" text="OK" clickable="true" bounds="[0,700][100,800]" />"#,
    ));
    let point = |s: &str| Selector::parse(s).unwrap().point(&list);
    assert_eq!(
        point("text:Alarm 7:00"),
        Ok(Point::new(540, 375)),
        "folded text selects the row"
    );
    assert_eq!(point("desc~=alarm"), Ok(Point::new(900, 2100)));
    assert_eq!(point("id:fab"), Ok(Point::new(900, 2100)));
    assert_eq!(
        point("id:com.google.android.deskclock:id/fab"),
        Ok(Point::new(900, 2100))
    );
    assert_eq!(
        point("class:FloatingActionButton"),
        Ok(Point::new(900, 2100))
    );
    assert_eq!(
        point(r"text:/^\d/"),
        Err(hierarchy::SelectError::NoMatch(r"text:/^\d/".into()))
    );
    assert_eq!(point("text:OK nth:1"), Ok(Point::new(50, 750)));
    assert_eq!(point("#2"), Ok(Point::new(900, 2100)));
    assert!(point("text:OK nth:5").is_err());
    assert_eq!(Selector::parse("text:OK").unwrap().select(&list).len(), 2);
    assert_eq!(
        list.selector_for(ElementId(4)).unwrap().to_string(),
        "text:OK nth:1"
    );
}

#[test]
fn selectors_search_raw_nodes_too() {
    let xml = screen(
        r#"<node class="android.widget.TextView" text="Secret" visible-to-user="false" bounds="[0,0][10,10]" />"#,
    );
    let h = hierarchy::parse(xml.as_bytes()).unwrap();
    assert_eq!(
        Selector::parse("text:Secret")
            .unwrap()
            .select_nodes(&h)
            .len(),
        1
    );
    let list = ElementList::from_hierarchy(&h, &Options::default());
    assert!(Selector::parse("text:Secret")
        .unwrap()
        .select(&list)
        .is_empty());
}

// ---------------------------------------------------------------- diff

#[test]
fn diff_reports_added_removed_and_changed() {
    let before = list_of(&screen(
        r#"<node class="android.widget.Switch" text="Wi-Fi" checkable="true" checked="false" clickable="true" bounds="[0,200][1080,300]" />
           <node class="android.widget.EditText" text="" resource-id="com.example:id/name" clickable="true" bounds="[0,300][1080,400]" />
           <node class="android.widget.TextView" text="Loading" bounds="[0,400][1080,500]" />"#,
    ));
    let after = list_of(&screen(
        r#"<node class="android.widget.TextView" text="Connected" bounds="[0,100][1080,200]" />
           <node class="android.widget.Switch" text="Wi-Fi" checkable="true" checked="true" clickable="true" bounds="[0,200][1080,300]" />
           <node class="android.widget.EditText" text="Ada" resource-id="com.example:id/name" clickable="true" bounds="[0,300][1080,400]" />"#,
    ));
    let d = hierarchy::diff(&before, &after);
    assert_eq!(
        d.added.iter().map(|e| e.text.as_str()).collect::<Vec<_>>(),
        ["Connected"]
    );
    assert_eq!(
        d.removed
            .iter()
            .map(|e| e.text.as_str())
            .collect::<Vec<_>>(),
        ["Loading"]
    );
    let fields: Vec<(&str, Vec<Field>)> = d
        .changed
        .iter()
        .map(|c| (c.new.text.as_str(), c.fields.clone()))
        .collect();
    assert_eq!(
        fields,
        vec![("Wi-Fi", vec![Field::State]), ("Ada", vec![Field::Text])]
    );
    let text = format::compact_diff(&d, false);
    assert_eq!(
        text,
        "+ 1 text @540,150: Connected\n\
         - 3 text @540,450: Loading\n\
         ~ 2 switch @540,250 checked: Wi-Fi (was unchecked)\n\
         ~ 3 input @540,350: Ada (was: (nothing))\n"
    );
}

// ---------------------------------------------------------------- marks

/// Reads the number drawn in a label tab back out of the image using the font.
fn read_label(img: &RgbaImage, m: &marks::Mark) -> String {
    let c = m.cell;
    let digits = ((m.label.right - m.label.left) - c) / (4 * c);
    let mut out = String::new();
    for k in 0..digits {
        let x0 = m.label.left + c + k * 4 * c;
        let y0 = m.label.top + c;
        let mut rows = [0u8; 5];
        for (row, bits) in rows.iter_mut().enumerate() {
            for col in 0..3 {
                let px = img.get_pixel(
                    (x0 + col * c + c / 2) as u32,
                    (y0 + row as i32 * c + c / 2) as u32,
                );
                if px.0 == [255, 255, 255, 255] {
                    *bits |= 0b100 >> col;
                }
            }
        }
        let d = (0..10u8)
            .find(|d| marks::glyph(*d) == Some(rows))
            .expect("a digit glyph");
        out.push((b'0' + d) as char);
    }
    out
}

#[test]
fn marks_are_numbered_like_the_elements_and_legible_when_scaled() {
    let (_, bytes) = corpus("uiautomator")
        .into_iter()
        .find(|(n, _)| n.starts_with("09franchico__auto-zap__window_dump__"))
        .unwrap();
    let h = hierarchy::parse(&bytes).unwrap();
    let list = ElementList::from_hierarchy(&h, &Options::default());
    for scale in [1.0f32, 0.5] {
        let (w, ht) = (
            (list.screen.width() as f32 * scale) as u32,
            (list.screen.height() as f32 * scale) as u32,
        );
        let shot = RgbaImage::from_pixel(w, ht, Rgba([40, 40, 40, 255]));
        let marked = marks::annotate(&shot, &list.elements, scale);
        let layout = marks::layout(&list.elements, scale, w, ht);
        assert_eq!(layout.len(), list.len());
        let seen = 1024.0 / w.max(ht).max(1024) as f32;
        let mut readable = 0;
        for (i, m) in layout.iter().enumerate() {
            let covered = layout[i + 1..]
                .iter()
                .any(|later| !later.label.intersect(&m.label).is_empty());
            if !covered {
                assert_eq!(
                    read_label(&marked, m),
                    m.id.to_string(),
                    "label equals the element id"
                );
                readable += 1;
            }
            assert!(
                m.cell as f32 * seen >= 2.0,
                "digits at least 10 px tall when seen"
            );
            assert_eq!(
                *marked.get_pixel(m.label.left as u32, m.label.top as u32),
                marks::color_of(m.id)
            );
        }
        assert!(
            readable * 20 >= layout.len() * 19,
            "{readable} of {} labels unobstructed",
            layout.len()
        );
    }
}

/// Marks laid out on `list` as a model sees them (a 1024 px long edge).
fn seen_layout(list: &ElementList) -> (Vec<marks::Mark>, u32, u32) {
    let (w, h) = (list.screen.width(), list.screen.height());
    let scale = 1024.0 / w.max(h) as f32;
    let (iw, ih) = (
        (w as f32 * scale).round() as u32,
        (h as f32 * scale).round() as u32,
    );
    (marks::layout(&list.elements, scale, iw, ih), iw, ih)
}

/// The suite's busiest screens: the embedded phone's apps where tasks run, with the most elements.
fn busiest_suite_screens() -> Vec<(String, ElementList)> {
    let phone = crate::util::boot(0);
    let mut screens = Vec::new();
    let launch = |p: &str| format!("monkey -p {p} -c android.intent.category.LAUNCHER 1");
    let plays: [(&str, Vec<String>); 7] = [
        (
            "app drawer",
            vec![
                "input keyevent HOME".into(),
                "input swipe 540 2000 540 600 300".into(),
            ],
        ),
        (
            "settings",
            vec!["am start -n com.android.settings/.Settings".into()],
        ),
        ("calculator", vec![launch("com.google.android.calculator")]),
        ("calendar", vec![launch("com.google.android.calendar")]),
        ("clock", vec![launch("com.google.android.deskclock")]),
        ("contacts", vec![launch("com.google.android.contacts")]),
        ("dialer", vec![launch("com.google.android.dialer")]),
    ];
    for (name, commands) in plays {
        for c in &commands {
            crate::util::sh(&phone, c);
        }
        let xml = crate::util::sh(&phone, "uiautomator dump /dev/tty");
        let h = hierarchy::parse(xml.as_bytes()).unwrap();
        screens.push((
            name.to_string(),
            ElementList::from_hierarchy(&h, &Options::default()),
        ));
    }
    screens
}

#[test]
fn labels_never_overlap_each_other_or_sit_on_another_elements_box_on_the_busiest_screens() {
    let holds = |outer: &Bounds, inner: &Bounds| {
        outer.left <= inner.left
            && outer.top <= inner.top
            && outer.right >= inner.right
            && outer.bottom >= inner.bottom
    };
    let screens = busiest_suite_screens();
    let most = screens.iter().map(|(_, l)| l.len()).max().unwrap();
    assert!(most >= 30, "the busiest screen has {most} elements");
    for (name, list) in &screens {
        let (layout, iw, ih) = seen_layout(list);
        assert_eq!(layout.len(), list.len(), "{name}");
        for (i, m) in layout.iter().enumerate() {
            assert!(
                m.label.left >= 0
                    && m.label.top >= 0
                    && m.label.right <= iw as i32
                    && m.label.bottom <= ih as i32,
                "{name}: #{} off the image",
                m.id
            );
            for other in &layout[i + 1..] {
                assert!(
                    m.label.intersect(&other.label).is_empty(),
                    "{name}: the labels of #{} and #{} overlap",
                    m.id,
                    other.id
                );
            }
            // Over its own containers it must be; over anything else it reads as theirs.
            for other in layout.iter().filter(|o| o.id != m.id) {
                if !holds(&other.frame, &m.frame) {
                    assert!(
                        other.frame.intersect(&m.label).is_empty(),
                        "{name}: the label of #{} {:?} sits on the box of #{} {:?}",
                        m.id,
                        m.label,
                        other.id,
                        other.frame
                    );
                }
            }
        }
    }
}

#[test]
fn marks_scale_up_for_large_screenshots() {
    let (small, _) = marks::sizes(720, 1280);
    let (large, _) = marks::sizes(1440, 3200);
    assert_eq!(small, 3);
    assert_eq!(large, 7);
}

// ---------------------------------------------------------------- bad input

/// Random truncations, byte flips, insertions, deletions and splices of every dump: the parser
/// must not panic, and what it returns must stay bounded by the input.
#[test]
fn mutated_dumps_never_panic_and_stay_bounded() {
    let mut dumps = corpus("uiautomator");
    dumps.extend(corpus("uiautomator-malformed"));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x5eed);
    let junk: &[&[u8]] = &[
        b"<",
        b">",
        b"\"",
        b"&",
        b"&#0;",
        b"<node>",
        b"</node>",
        b"</hierarchy>",
        b"<hierarchy>",
        b"\xff\xfe",
        b"\xef\xbb\xbf",
        b"\0",
        b"]]>",
        b"<!--",
        b"<?xml",
        b"bounds=\"[9,9][-1,99999999999]\"",
    ];
    let mut cases = 0;
    for (name, bytes) in &dumps {
        for _ in 0..20 {
            let mut b = bytes.clone();
            for _ in 0..rng.gen_range(1..4) {
                let len = b.len().max(1);
                match rng.gen_range(0..6) {
                    0 => b.truncate(rng.gen_range(0..len)),
                    1 => {
                        for _ in 0..rng.gen_range(1..16) {
                            let i = rng.gen_range(0..len);
                            if let Some(x) = b.get_mut(i) {
                                *x ^= 1 << rng.gen_range(0..8);
                            }
                        }
                    }
                    2 => {
                        let i = rng.gen_range(0..=b.len());
                        let j = junk[rng.gen_range(0..junk.len())];
                        b.splice(i..i, j.iter().copied());
                    }
                    3 => {
                        let i = rng.gen_range(0..len);
                        let j = (i + rng.gen_range(0..64)).min(b.len());
                        b.drain(i.min(b.len())..j);
                    }
                    4 => {
                        let i = rng.gen_range(0..len);
                        let j = (i + rng.gen_range(0..512)).min(b.len());
                        let copy: Vec<u8> = b[i.min(b.len())..j].to_vec();
                        let at = rng.gen_range(0..=b.len());
                        b.splice(at..at, copy);
                    }
                    _ => {
                        // Re-encode as UTF-16 and cut at an odd byte.
                        let text = String::from_utf8_lossy(&b).into_owned();
                        b = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
                        let cut = b.len().saturating_sub(rng.gen_range(0..3));
                        b.truncate(cut);
                    }
                }
            }
            cases += 1;
            if let Ok(h) = hierarchy::parse(&b) {
                assert!(
                    h.nodes.len() <= b.len() / 6 + 1,
                    "{name}: node count bounded by input"
                );
                assert!(
                    h.xml.len() <= b.len() * 3 + 16,
                    "{name}: text bounded by input"
                );
                let list = ElementList::from_hierarchy(&h, &Options::default());
                assert!(list.len() <= h.nodes.len());
                let text = format::compact(&list, &list.all(), true);
                assert!(
                    text.len() <= h.xml.len() * 4 + 256,
                    "{name}: output bounded"
                );
            }
        }
    }
    assert!(cases >= 2000, "{cases} cases");
}

#[test]
fn pathological_inputs_are_rejected_quickly() {
    let deep = format!(
        "<hierarchy>{}",
        "<node bounds=\"[0,0][1,1]\">".repeat(100_000)
    );
    assert_eq!(
        hierarchy::parse(deep.as_bytes()).unwrap_err().kind,
        ParseErrorKind::TooDeep(256)
    );
    let wide = format!("<hierarchy>{}</hierarchy>", "<node/>".repeat(200_000));
    assert_eq!(
        hierarchy::parse(wide.as_bytes()).unwrap_err().kind,
        ParseErrorKind::TooManyNodes(100_000)
    );
    let quotes = format!("<hierarchy><node text=\"{}", "\" checked=\"".repeat(50_000));
    assert!(hierarchy::parse(quotes.as_bytes()).is_err());
    for bytes in [
        &b"\xff\xfe"[..],
        b"\xfe\xff\0",
        b"\xef\xbb\xbf",
        b"<hierarchy",
        b"<hierarchy/>",
    ] {
        let _ = hierarchy::parse(bytes);
    }
    let empty = hierarchy::parse(b"<hierarchy rotation=\"0\"/>").unwrap();
    assert!(empty.nodes.is_empty());
    assert!(ElementList::from_hierarchy(&empty, &Options::default()).is_empty());
}

// ---------------------------------------------------------------- CLI

fn droidmcp(args: &[&str], stdin: Option<&[u8]>) -> (i32, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_droidmcp"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("droidmcp runs");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    }
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn cli_prints_compact_json_and_xml() {
    let dir = corpus_dir("uiautomator-malformed");
    let file = dir.join("omarkh1288__ATHAR__tmp_window_dump_after_login.xml");
    let file = file.to_str().unwrap();
    let (code, out) = droidmcp(&["hierarchy", file], None);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with("# com.athar.accessibilitymapping "),
        "{out}"
    );

    let (code, out) = droidmcp(
        &["hierarchy", "--format", "json", "--limit", "2", file],
        None,
    );
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["elements"].as_array().unwrap().len(), 2);
    assert_eq!(v["elements"][0]["id"], 1);
    assert_eq!(v["elements"][0]["bounds"].as_array().unwrap().len(), 4);

    let bytes = std::fs::read(file).unwrap();
    let (code, out) = droidmcp(&["hierarchy", "--format", "xml", "-"], Some(&bytes));
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("<hierarchy") && out.trim_end().ends_with("</hierarchy>"));

    let (code, _) = droidmcp(
        &["hierarchy", "--select", "text:no such text anywhere", file],
        None,
    );
    assert_eq!(code, 1);
    let (code, out) = droidmcp(&["hierarchy", "-"], Some(b"garbage"));
    assert_ne!(code, 0);
    assert!(out.contains("no <hierarchy> element found"), "{out}");
}

#[test]
fn thousands_of_texts_in_one_button_stay_linear() {
    let texts: String = (0..20_000)
        .map(|i| {
            format!(r#"<node class="android.widget.TextView" text="t{i}" bounds="[0,0][10,10]" />"#)
        })
        .collect();
    let xml = screen(&format!(
        r#"<node class="android.widget.Button" clickable="true" bounds="[0,0][100,100]">{texts}</node>"#
    ));
    let list = list_of(&xml);
    assert_eq!(list.len(), 1);
    assert!(list.elements[0].folded.len() >= 10_000);
}
