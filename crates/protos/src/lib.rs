//! The code generated from the Android emulator's gRPC protos (`proto/`: android_env's copies of
//! `emulator_controller.proto` and `snapshot_service.proto`, and android_env's accessibility
//! forwarder service), in modules named for their packages (the generated code refers across
//! packages by these paths). The phone's forwarder is a client of it; `grpc` serves it.

#![allow(clippy::all, missing_docs)]

pub mod android {
    pub mod emulation {
        pub mod control {
            tonic::include_proto!("android.emulation.control");
        }
    }
}
pub mod emulator_snapshot {
    tonic::include_proto!("emulator_snapshot");
}
/// android_env's accessibility forwarder service (`A11yService`) and its forest messages: the
/// phone's AccessibilityForwarder is a client of it (`sim::a11y`).
pub mod android_env {
    tonic::include_proto!("android_env");
}
pub use android::emulation::control;
