//! The answer to every method the embedded phone does not carry out: UNIMPLEMENTED with the method's
//! name and the list of those it does, instead of tonic's empty status, so a client's log says what
//! is missing. Applied as a layer in front of the generated routers, which see only the methods
//! listed in [`IMPLEMENTED`].

use std::task::{Context, Poll};

use futures::future::BoxFuture;
use tonic::codegen::http;

/// The methods served (gRPC paths).
pub const IMPLEMENTED: &[&str] = &[
    "/android.emulation.control.EmulatorController/getStatus",
    "/android.emulation.control.EmulatorController/sendTouch",
    "/android.emulation.control.EmulatorController/sendKey",
    "/android.emulation.control.EmulatorController/getScreenshot",
    "/android.emulation.control.EmulatorController/getClipboard",
    "/android.emulation.control.EmulatorController/setClipboard",
    "/android.emulation.control.SnapshotService/ListSnapshots",
    "/android.emulation.control.SnapshotService/SaveSnapshot",
    "/android.emulation.control.SnapshotService/LoadSnapshot",
    "/android.emulation.control.SnapshotService/DeleteSnapshot",
];

/// The status for a call to `path`, which is not in [`IMPLEMENTED`].
pub fn status(path: &str) -> tonic::Status {
    let served: Vec<&str> = IMPLEMENTED
        .iter()
        .map(|p| p.rsplit('/').next().unwrap_or(p))
        .collect();
    tonic::Status::unimplemented(format!(
        "{path} is not implemented by droidmcp's embedded phone; it serves {}",
        served.join(", ")
    ))
}

#[derive(Clone, Copy)]
pub struct Layer;

impl<S> tower::Layer<S> for Layer {
    type Service = Service<S>;
    fn layer(&self, inner: S) -> Service<S> {
        Service { inner }
    }
}

#[derive(Clone)]
pub struct Service<S> {
    inner: S,
}

impl<S, B> tower::Service<http::Request<B>> for Service<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<tonic::body::Body>>,
    S::Future: Send + 'static,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = BoxFuture<'static, Result<Self::Response, Self::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let path = request.uri().path();
        if IMPLEMENTED.contains(&path) {
            Box::pin(self.inner.call(request))
        } else {
            let response = status(path).into_http();
            Box::pin(async move { Ok(response) })
        }
    }
}
