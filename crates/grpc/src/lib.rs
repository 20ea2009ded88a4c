//! The Android emulator's gRPC controller (`android.emulation.control.EmulatorController` and
//! `SnapshotService`, from the emulator's own `.proto` files under `proto/`), served for the
//! embedded phone by `droidmcp sim --emulator N` beside its console and adbd. android_env and the
//! benchmarks built on it (B-MoCA loads its environments as snapshots over this service) connect to
//! an existing emulator through it.
//!
//! Every call becomes what any other actor sends the phone: shell commands through the served
//! `Shell` (`input motionevent`, `screencap`, `getprop`, Clipper's broadcast) or console lines
//! (`avd snapshot …`), so the phone cannot tell gRPC from adb and has no side door. As the
//! emulator's default ("insecure on loopback"), it listens on 127.0.0.1 only and asks for no token.
//! Methods the phone does not carry out answer UNIMPLEMENTED naming the method ([`unimplemented`]).

mod controller;
mod keys;
mod snapshots;
mod unimplemented;

use std::sync::Arc;

pub use controller::Controller;
pub use snapshots::Snapshots;

use droidmcp_device::Shell;

/// The code generated from the emulator's protos (the `droidmcp-protos` crate).
pub use droidmcp_protos as proto;

/// The emulator's gRPC port for the emulator whose console listens on `console_port`: the first
/// emulator (console 5554) serves gRPC on 8554, as `emulator` does without `-grpc`, and each further
/// one on the port as far above 8554 as its console is above 5554, so several phones never collide.
pub fn default_port(console_port: u16) -> u16 {
    8554u16.saturating_add(console_port.saturating_sub(5554))
}

/// Why the gRPC endpoint stopped.
#[derive(Debug, thiserror::Error)]
pub enum GrpcError {
    #[error("the emulator gRPC endpoint failed: {0}")]
    Transport(#[from] tonic::transport::Error),
}

/// Serves both services for `shell` on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    shell: Arc<dyn Shell>,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), GrpcError> {
    use proto::control::emulator_controller_server::EmulatorControllerServer;
    use proto::control::snapshot_service_server::SnapshotServiceServer;
    let incoming = tonic::transport::server::TcpIncoming::from(listener);
    tonic::transport::Server::builder()
        .layer(unimplemented::Layer)
        .add_service(
            // android_env asks for unlimited message sizes; a full-size RGBA frame of a tablet is
            // ~10 MB, past tonic's 4 MB default.
            EmulatorControllerServer::new(Controller::new(Arc::clone(&shell)))
                .max_decoding_message_size(usize::MAX)
                .max_encoding_message_size(usize::MAX),
        )
        .add_service(
            SnapshotServiceServer::new(Snapshots::new(shell))
                .max_decoding_message_size(usize::MAX)
                .max_encoding_message_size(usize::MAX),
        )
        .serve_with_incoming_shutdown(incoming, shutdown)
        .await?;
    Ok(())
}

/// A device failure as a gRPC status: a vanished phone is UNAVAILABLE (clients reconnect), any
/// other failure INTERNAL with the command and its output.
fn status(e: droidmcp_device::DeviceError) -> tonic::Status {
    if e.is_device_lost() {
        tonic::Status::unavailable(e.to_string())
    } else {
        tonic::Status::internal(e.to_string())
    }
}
