//! UI hierarchy: the parser, the element list and its renderers over the real dump corpus.

use std::path::PathBuf;

use droidmcp::hierarchy;

fn corpus(dir: &str) -> Vec<(String, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&root)
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

#[test]
fn every_good_dump_parses() {
    for (name, bytes) in corpus("uiautomator") {
        let h = hierarchy::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!("{name}: {} nodes screen {:?}", h.nodes.len(), h.screen());
    }
}

#[test]
fn malformed_dumps_are_salvaged() {
    for (name, bytes) in corpus("uiautomator-malformed") {
        let r = hierarchy::parse(&bytes);
        eprintln!("{name}: {:?}", r.as_ref().map(|h| h.nodes.len()));
    }
}
