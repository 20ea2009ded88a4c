//! Token cost, recall and speed of observation formats over the real dump corpus.
//!
//! Formats: the raw XML; mobile-mcp's element list and AndroidArena's compressed tree, each
//! re-implemented here from its public description (see docs/bench-hierarchy.md); and ours
//! (compact, compact with bounds, JSON). Tokens are counted with tiktoken's o200k_base and
//! cl100k_base. Recall: the share of visible text/description strings that appear in the output,
//! and the share of visible actionable nodes the format keeps. Run: `cargo bench --bench hierarchy`.

#[path = "../tests/hierarchy/oracle.rs"]
mod oracle;

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

use droidmcp::hierarchy::{self, format, ElementList, Hierarchy, Node, NodeId, Options};

struct Rendered {
    text: String,
    /// Nodes the format represents (for actionable-node recall).
    kept: HashSet<NodeId>,
}

/// mobile-mcp (src/android.ts `collectElements`, src/server.ts `mobile_list_elements_on_screen`):
/// children before parents; a node is listed when it has text, content-desc, hint or resource-id,
/// or is checkable, and has a non-zero size; each entry is `{type, text, label, identifier,
/// coordinates: {x, y, width, height}, focused}` with the top-left corner, behind the prefix
/// "Found these elements on screen: ".
fn mobile_mcp(h: &Hierarchy) -> Rendered {
    fn collect(
        h: &Hierarchy,
        id: NodeId,
        out: &mut Vec<serde_json::Value>,
        kept: &mut HashSet<NodeId>,
    ) {
        let n = &h.nodes[id.0 as usize];
        for c in &n.children {
            collect(h, *c, out, kept);
        }
        let listed = !n.text.is_empty()
            || !n.content_desc.is_empty()
            || !n.hint.is_empty()
            || !n.resource_id.is_empty()
            || n.checkable;
        let (w, ht) = (
            n.bounds.right - n.bounds.left,
            n.bounds.bottom - n.bounds.top,
        );
        if listed && w > 0 && ht > 0 {
            let mut e = serde_json::Map::new();
            let class = if n.class.is_empty() { "text" } else { &n.class };
            e.insert("type".into(), class.into());
            if n.attribute("text").is_some() {
                e.insert("text".into(), n.text.clone().into());
            }
            let label = if !n.content_desc.is_empty() {
                &n.content_desc
            } else {
                &n.hint
            };
            e.insert("label".into(), label.clone().into());
            if !n.resource_id.is_empty() {
                e.insert("identifier".into(), n.resource_id.clone().into());
            }
            e.insert(
                "coordinates".into(),
                serde_json::json!({"x": n.bounds.left, "y": n.bounds.top, "width": w, "height": ht}),
            );
            if n.focused {
                e.insert("focused".into(), true.into());
            }
            out.push(serde_json::Value::Object(e));
            kept.insert(id);
        }
    }
    let mut out = Vec::new();
    let mut kept = HashSet::new();
    for r in &h.roots {
        collect(h, *r, &mut out, &mut kept);
    }
    let json = serde_json::to_string(&out).expect("json");
    Rendered {
        text: format!("Found these elements on screen: {json}"),
        kept,
    }
}

/// AndroidArena `UIXMLTree` level 2: prune (splice out System UI nodes and nodes with no
/// text/desc and no true flag among checkable, checked, clickable, focusable, scrollable,
/// long-clickable, password, selected), annotate (func-desc = text + desc; class short name,
/// blank for View/FrameLayout/LinearLayout/RelativeLayout; resource id after `:id/`; action =
/// click/scroll/long-click/check, else focusable), merge (splice out action-less nodes, adding
/// their new func-desc words to the parent), reindex (`n` + 4 hex digits), serialise one line per
/// node indented by depth: `[tag] class rid ;actions ; state ;;func-desc :`.
fn android_arena(h: &Hierarchy) -> Rendered {
    struct ANode {
        id: NodeId,
        class: String,
        rid: String,
        actions: Vec<&'static str>,
        state: String,
        words: Vec<String>,
        children: Vec<ANode>,
    }
    fn keep(n: &Node) -> bool {
        if n.package == "com.android.systemui" {
            return false;
        }
        !n.text.is_empty()
            || !n.content_desc.is_empty()
            || n.checkable
            || n.checked
            || n.clickable
            || n.focusable
            || n.scrollable
            || n.long_clickable
            || n.password
            || n.selected
    }
    fn prune(h: &Hierarchy, id: NodeId) -> Vec<ANode> {
        let n = &h.nodes[id.0 as usize];
        let children: Vec<ANode> = n.children.iter().flat_map(|c| prune(h, *c)).collect();
        if !keep(n) {
            return children;
        }
        let short = n.short_class();
        let class = match short {
            "View" | "FrameLayout" | "LinearLayout" | "RelativeLayout" => String::new(),
            s => s.to_string(),
        };
        let mut actions = Vec::new();
        for (on, a) in [
            (n.clickable, "click"),
            (n.scrollable, "scroll"),
            (n.long_clickable, "long-click"),
            (n.checkable, "check"),
        ] {
            if on {
                actions.push(a);
            }
        }
        let state = if n.checkable {
            if n.checked { "checked" } else { "unchecked" }.to_string()
        } else {
            String::new()
        };
        let words = [n.text.as_str(), n.content_desc.as_str()]
            .iter()
            .filter(|s| !s.is_empty())
            .map(|s| s.to_string())
            .collect();
        vec![ANode {
            id,
            class,
            rid: n.resource_id_tail().to_string(),
            actions,
            state,
            words,
            children,
        }]
    }
    /// Splices out action-less nodes, returning the survivors and the words they pass up.
    fn merge(node: ANode, kept: &mut HashSet<NodeId>) -> (Vec<ANode>, Vec<String>) {
        let mut children = Vec::new();
        let mut words = node.words;
        for c in node.children {
            let (survivors, up) = merge(c, kept);
            children.extend(survivors);
            for w in up {
                if !words.contains(&w) {
                    words.push(w);
                }
            }
        }
        if node.actions.is_empty() {
            // Its words go to the parent; its children take its place.
            return (children, words);
        }
        kept.insert(node.id);
        (
            vec![ANode {
                words,
                children,
                ..node
            }],
            Vec::new(),
        )
    }
    fn write(out: &mut String, n: &ANode, depth: usize, rng: &mut u32) {
        *rng = rng.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let tag = format!("n{:04x}", (*rng >> 8) & 0xffff);
        let mut line = format!("{}[{tag}] ", "    ".repeat(depth));
        for part in [&n.class, &n.rid] {
            if !part.is_empty() {
                line.push_str(part);
                line.push(' ');
            }
        }
        let desc: String = n.words.iter().map(|w| format!("{w} ")).collect();
        line.push_str(&format!(
            ";{} ; {} ;;{desc}:\n",
            n.actions.join(" "),
            n.state
        ));
        out.push_str(&line);
        for c in &n.children {
            write(out, c, depth + 1, rng);
        }
    }
    let mut kept = HashSet::new();
    let mut top = Vec::new();
    let mut loose_words = Vec::new();
    for r in &h.roots {
        for n in prune(h, *r) {
            let (survivors, up) = merge(n, &mut kept);
            top.extend(survivors);
            loose_words.extend(up);
        }
    }
    let app = h.top_package().unwrap_or("unknown");
    let mut text = format!("The current APP is {app}.:\n");
    if !loose_words.is_empty() {
        // Words of action-less top-level nodes have no parent to join; AA keeps them on the root.
        text.push_str(&format!("    {}:\n", loose_words.join(" ")));
    }
    let mut rng = 0x5eed_u32;
    for n in &top {
        write(&mut text, n, 1, &mut rng);
    }
    Rendered { text, kept }
}

fn ours(h: &Hierarchy, format: Fmt) -> Rendered {
    let list = ElementList::from_hierarchy(h, &Options::default());
    let window = list.all();
    let text = match format {
        Fmt::Compact => format::compact(&list, &window, false),
        Fmt::CompactBounds => format::compact(&list, &window, true),
        Fmt::Json => format::json(&list, &window),
    };
    let kept = list
        .elements
        .iter()
        .flat_map(|e| e.nodes.iter().copied())
        .collect();
    Rendered { text, kept }
}

#[derive(Clone, Copy)]
enum Fmt {
    Compact,
    CompactBounds,
    Json,
}

const FORMATS: [&str; 6] = [
    "raw XML",
    "mobile-mcp list",
    "AndroidArena L2",
    "ours: compact",
    "ours: compact --bounds",
    "ours: JSON",
];

fn render(i: usize, h: &Hierarchy) -> Rendered {
    match i {
        0 => Rendered {
            text: h.xml.clone(),
            kept: (0..h.nodes.len() as u32).map(NodeId).collect(),
        },
        1 => mobile_mcp(h),
        2 => android_arena(h),
        3 => ours(h, Fmt::Compact),
        4 => ours(h, Fmt::CompactBounds),
        _ => ours(h, Fmt::Json),
    }
}

#[derive(Default, Clone)]
struct Totals {
    o200k: usize,
    cl100k: usize,
    strings: usize,
    strings_found: usize,
    actionable: usize,
    actionable_kept: usize,
    worst_text_recall: f64,
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/uiautomator");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("corpus")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "xml"))
        .collect();
    files.sort();
    let o200k = tiktoken_rs::o200k_base().expect("o200k_base");
    let cl100k = tiktoken_rs::cl100k_base().expect("cl100k_base");

    let mut totals = vec![
        Totals {
            worst_text_recall: 1.0,
            ..Totals::default()
        };
        FORMATS.len()
    ];
    let mut times_us: Vec<f64> = Vec::new();
    let mut per_dump: Vec<(String, usize, usize, usize, usize, usize, f64)> = Vec::new();
    let mut raw_bytes = 0usize;

    for path in &files {
        let bytes = std::fs::read(path).expect("read dump");
        raw_bytes += bytes.len();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let h = hierarchy::parse(&bytes).expect("corpus dump parses");
        let strings = oracle::visible_strings(&h);
        let actionable = oracle::visible_actionable(&h);
        let mut o_tokens = Vec::new();
        for (i, total) in totals.iter_mut().enumerate() {
            let r = render(i, &h);
            let o = o200k.encode_ordinary(&r.text).len();
            total.o200k += o;
            total.cl100k += cl100k.encode_ordinary(&r.text).len();
            let found = strings
                .iter()
                .filter(|s| oracle::appears(&r.text, s))
                .count();
            total.strings += strings.len();
            total.strings_found += found;
            if !strings.is_empty() {
                total.worst_text_recall = total
                    .worst_text_recall
                    .min(found as f64 / strings.len() as f64);
            }
            total.actionable += actionable.len();
            total.actionable_kept += actionable.iter().filter(|n| r.kept.contains(n)).count();
            o_tokens.push(o);
        }

        // parse + compress + render, best of several runs to damp noise from other processes.
        let runs = 20;
        let mut best = f64::MAX;
        for _ in 0..runs {
            let start = Instant::now();
            let h = hierarchy::parse(&bytes).expect("parses");
            let list = ElementList::from_hierarchy(&h, &Options::default());
            let text = format::compact(&list, &list.all(), false);
            std::hint::black_box(text);
            best = best.min(start.elapsed().as_secs_f64() * 1e6);
        }
        times_us.push(best);
        per_dump.push((
            name,
            h.nodes.len(),
            o_tokens[0],
            o_tokens[1],
            o_tokens[2],
            o_tokens[3],
            best,
        ));
    }

    println!(
        "# Hierarchy observation formats over {} dumps ({} bytes of XML)\n",
        files.len(),
        raw_bytes
    );
    println!("| format | o200k tokens | cl100k tokens | reduction vs raw (o200k) | visible text recall | worst dump | actionable nodes kept |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let raw = totals[0].o200k as f64;
    for (name, t) in FORMATS.iter().zip(&totals) {
        println!(
            "| {name} | {} | {} | {:.1}% | {:.2}% ({}/{}) | {:.1}% | {:.2}% ({}/{}) |",
            t.o200k,
            t.cl100k,
            100.0 * (1.0 - t.o200k as f64 / raw),
            100.0 * t.strings_found as f64 / t.strings.max(1) as f64,
            t.strings_found,
            t.strings,
            100.0 * t.worst_text_recall,
            100.0 * t.actionable_kept as f64 / t.actionable.max(1) as f64,
            t.actionable_kept,
            t.actionable,
        );
    }
    let ratio = totals[3].o200k as f64 / totals[1].o200k as f64;
    println!(
        "\nours compact / mobile-mcp (o200k): {:.3} (1/{:.1})",
        ratio,
        1.0 / ratio
    );
    let ratio_aa = totals[3].o200k as f64 / totals[2].o200k as f64;
    println!("ours compact / AndroidArena L2 (o200k): {:.3}", ratio_aa);
    let aa_reduction = 100.0 * (1.0 - totals[2].o200k as f64 / raw);
    println!("AndroidArena reduction here: {aa_reduction:.1}% (published: 86.6%)");

    let mut sorted = times_us.clone();
    sorted.sort_by(|a, b| a.total_cmp(b));
    let median = sorted[sorted.len() / 2];
    let mean = sorted.iter().sum::<f64>() / sorted.len() as f64;
    let max = sorted.last().copied().unwrap_or(0.0);
    println!(
        "\nparse + compress + render compact, per dump (best of 20): median {median:.0} µs, mean {mean:.0} µs, max {max:.0} µs"
    );

    println!("\n## Per dump (o200k tokens)\n");
    println!("| dump | nodes | raw | mobile-mcp | AndroidArena | ours compact | reduction | µs |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (name, nodes, raw, mm, aa, ours, us) in &per_dump {
        println!(
            "| {name} | {nodes} | {raw} | {mm} | {aa} | {ours} | {:.1}% | {us:.0} |",
            100.0 * (1.0 - *ours as f64 / *raw as f64)
        );
    }
}
