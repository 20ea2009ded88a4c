//! Bundles the task suite and the judge configs into the binary (`include_str!`s), so it runs
//! outside a checkout.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    // The suite and the judges stay at the top of the repository, two levels above this crate.
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    bundle_data(&Path::new(&manifest).join("../.."));
}

/// The task suite and the judge configs (`tasks/**/*.toml`, `judges/**/*.toml`) as a table of
/// `include_str!`s, for a binary that runs outside a checkout (the Python wheel, `cargo install`).
fn bundle_data(repo: &Path) {
    fn walk(dir: &Path, rel: &str, files: &mut Vec<(String, std::path::PathBuf)>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let path = e.path();
            let name = format!("{rel}/{}", e.file_name().to_string_lossy());
            if path.is_dir() {
                walk(&path, &name, files);
            } else if path.extension().is_some_and(|x| x == "toml") {
                files.push((name, path));
            }
        }
    }
    let mut files = Vec::new();
    for dir in ["tasks", "judges"] {
        println!("cargo:rerun-if-changed=../../{dir}");
        walk(&repo.join(dir), dir, &mut files);
    }
    files.sort();
    let mut out = String::from("/// (path relative to the repository, text)\n");
    out.push_str("pub static FILES: &[(&str, &str)] = &[\n");
    for (rel, path) in &files {
        writeln!(
            out,
            "    ({rel:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("write to String");
    }
    out.push_str("];\n");
    let dest = Path::new(&env::var("OUT_DIR").expect("OUT_DIR")).join("data_files.rs");
    fs::write(dest, out).expect("write data_files.rs");
}
