//! Compiles the phone's string resources (`res/<package>/values*/strings.xml`, Android's layout)
//! into the binary: it writes a table of `include_str!`s that `sim::locale::res` parses once at
//! run time, so the phone never reads the host's files and a changed resource rebuilds the crate.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let res = Path::new(&manifest).join("res");
    println!("cargo:rerun-if-changed=res");
    let mut files = Vec::new();
    if let Ok(packages) = fs::read_dir(&res) {
        for package in packages.flatten().filter(|e| e.path().is_dir()) {
            for values in fs::read_dir(package.path())
                .expect("res package dir")
                .flatten()
            {
                let path = values.path().join("strings.xml");
                let qualifier = values.file_name().to_string_lossy().into_owned();
                if path.is_file() && qualifier.starts_with("values") {
                    let package = package.file_name().to_string_lossy().into_owned();
                    files.push((package, qualifier, path));
                }
            }
        }
    }
    // Sorted so the generated table (and so the binary) does not depend on directory order.
    files.sort();
    let mut out = String::from("/// (package, `values*` directory, strings.xml text)\n");
    out.push_str("pub static FILES: &[(&str, &str, &str)] = &[\n");
    for (package, qualifier, path) in &files {
        writeln!(
            out,
            "    ({package:?}, {qualifier:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("write to String");
    }
    out.push_str("];\n");
    let dest = Path::new(&env::var("OUT_DIR").expect("OUT_DIR")).join("res_files.rs");
    fs::write(dest, out).expect("write res_files.rs");
}
