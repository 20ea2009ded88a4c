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
    bundle_data(Path::new(&manifest));
    emulator_protos(Path::new(&manifest));
}

/// The Android emulator's gRPC interface (`proto/`, android_env's copies of the emulator's
/// `emulator_controller.proto` and `snapshot_service.proto`) and android_env's accessibility
/// forwarder service (`proto/android_env/proto/a11y/`, which the phone's forwarder calls as a
/// client), compiled by protox in Rust: CI and a user's machine have no `protoc`, and a prebuilt one
/// cannot be downloaded there.
fn emulator_protos(manifest: &Path) {
    let root = manifest.join("proto");
    println!("cargo:rerun-if-changed=proto");
    let files = [
        "android_env/proto/emulator_controller.proto",
        "android_env/proto/snapshot_service.proto",
        "android_env/proto/a11y/a11y.proto",
    ];
    let descriptors = protox::compile(files, [&root]).expect("the emulator's .proto files compile");
    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        // Methods the phone does not carry out never reach the service (`grpc::unimplemented`).
        .generate_default_stubs(true)
        .compile_fds(descriptors)
        .expect("generate the gRPC code");
}

/// The task suite and the judge configs (`tasks/**/*.toml`, `judges/**/*.toml`) as a table of
/// `include_str!`s, for a binary that runs outside a checkout (the Python wheel, `cargo install`).
fn bundle_data(manifest: &Path) {
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
        println!("cargo:rerun-if-changed={dir}");
        walk(&manifest.join(dir), dir, &mut files);
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
