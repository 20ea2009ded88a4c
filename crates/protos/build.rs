//! Compiles the emulator's gRPC protos (`proto/`) into Rust.

use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
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
