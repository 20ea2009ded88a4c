//! The layers as crates (ARCHITECTURE.md, "Crates"): each workspace crate may depend only on crates
//! of a lower layer, so the arrows stay one way. Cargo already refuses a circle between crates; this
//! test also refuses an arrow up or sideways that would not yet close one (the device seam reaching
//! for the phone's protos, the geometry reaching for anything), and names the edge that broke it.

use std::collections::BTreeMap;
use std::path::Path;

/// Every crate of the workspace, lowest layer first; a crate may depend on crates of lower layers.
const LAYERS: &[(&str, u8)] = &[
    ("droidmcp-geom", 0),
    ("droidmcp-protos", 0),
    ("droidmcp-secret", 0),
    ("droidmcp-llm", 0),
    ("droidmcp-page", 0),
    ("droidmcp-hierarchy", 1),
    ("droidmcp-device", 2),
    ("droidmcp-sim", 3),
    ("droidmcp-adb", 3),
    ("droidmcp-grpc", 3),
    ("droidmcp-env", 4),
    ("droidmcp-harness", 5),
    ("droidmcp", 6),
];

/// The `droidmcp-*` crates a manifest depends on (normal, dev and build dependencies).
fn workspace_deps(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let doc: toml::Table = text
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", manifest.display()));
    let mut deps = Vec::new();
    for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
        if let Some(table) = doc.get(section).and_then(|t| t.as_table()) {
            deps.extend(table.keys().filter(|k| k.starts_with("droidmcp")).cloned());
        }
    }
    deps
}

/// Every package of the workspace: its name and its manifest.
fn packages() -> BTreeMap<String, std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = BTreeMap::new();
    let mut manifests = vec![root.join("Cargo.toml")];
    for entry in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        let manifest = entry.path().join("Cargo.toml");
        if manifest.is_file() {
            manifests.push(manifest);
        }
    }
    for manifest in manifests {
        let doc: toml::Table = std::fs::read_to_string(&manifest).unwrap().parse().unwrap();
        let name = doc["package"]["name"].as_str().unwrap().to_string();
        out.insert(name, manifest);
    }
    out
}

#[test]
fn every_crate_depends_only_on_lower_layers() {
    let layer: BTreeMap<&str, u8> = LAYERS.iter().copied().collect();
    let packages = packages();
    let mut wrong = Vec::new();
    for (name, manifest) in &packages {
        let Some(&mine) = layer.get(name.as_str()) else {
            wrong.push(format!(
                "{name} is not placed in a layer (tests/layers.rs LAYERS)"
            ));
            continue;
        };
        for dep in workspace_deps(manifest) {
            match layer.get(dep.as_str()) {
                Some(&theirs) if theirs < mine => {}
                Some(&theirs) => wrong.push(format!(
                    "{name} (layer {mine}) depends on {dep} (layer {theirs}): only lower layers"
                )),
                None => wrong.push(format!("{name} depends on {dep}, which has no layer")),
            }
        }
    }
    for (name, _) in LAYERS {
        if !packages.contains_key(*name) {
            wrong.push(format!("{name} is in LAYERS but not in the workspace"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The phone and the layers under it never name what stands above them, not even in a comment's
/// path or a test: `crate::`-style paths into the binary's modules cannot compile there, but a
/// `droidmcp::` path in a doc link or an example would still say the arrow runs up.
#[test]
fn lower_crates_never_name_the_binary_crate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut named = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for (i, line) in text.lines().enumerate() {
                    if line.contains("droidmcp::") {
                        named.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
                    }
                }
            }
        }
    }
    assert!(named.is_empty(), "{}", named.join("\n"));
}
