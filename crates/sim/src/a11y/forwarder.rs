//! The forwarder's sending thread (`AccessibilityForwarder`'s periodic `logAccessibilityTree`):
//! every period it asks the phone for the next [`Job`] (under the phone's lock, through `poll`),
//! then sends the forest with `A11yService.SendForest` off the lock, so a slow or dead host never
//! holds the phone up.
//!
//! As the app: plaintext HTTP/2, a 1 s deadline per call, the channel rebuilt after any failure
//! (`resetGrpcStub`), 100 ms between periods. Unlike the app, a failing endpoint is retried with a
//! growing pause and given up after `MAX_FAILURES` (`super::record`), since the embedded phone
//! lives on in processes whose Python servers come and go.

use std::time::Duration;

use tonic::transport::{Channel, Endpoint as TonicEndpoint};

use droidmcp_protos::android_env::a11y_service_client::A11yServiceClient;

use super::{Endpoint, Job, Outcome};

/// `LogFlags.a11yTreePeriodMs`.
pub const PERIOD: Duration = Duration::from_millis(100);
/// The app's `grpcTimeoutMillis`, for connecting and for each call.
const DEADLINE: Duration = Duration::from_secs(1);
/// The longest pause between two tries at a failing endpoint.
const MAX_PAUSE: Duration = Duration::from_secs(3);

/// Why a send did not reach the server.
#[derive(Debug, thiserror::Error)]
enum SendError {
    #[error("UNAVAILABLE: {0}")]
    Connect(#[from] tonic::transport::Error),
    #[error("{}: {}", .0.code(), .0.message())]
    Status(#[from] tonic::Status),
    #[error("DEADLINE_EXCEEDED: no answer within {DEADLINE:?}")]
    Deadline,
    #[error("invalid endpoint {0}")]
    Endpoint(String),
}

/// Starts the thread. `poll` reports the last outcome and returns the next job, or `None` when
/// the loop should end (the phone is gone or the forwarder has nothing to do).
pub fn spawn(
    poll: impl FnMut(&Outcome) -> Option<Job> + Send + 'static,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("a11y-forwarder".into())
        .spawn(move || run(poll))
}

fn run(mut poll: impl FnMut(&Outcome) -> Option<Job>) {
    // Its own single-threaded runtime: the phone may be driven from a runtime or from none, and
    // a blocking loop must not sit on a runtime's worker.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!("the accessibility forwarder cannot start: {e}");
            return;
        }
    };
    let mut client: Option<(Endpoint, A11yServiceClient<Channel>)> = None;
    let mut outcome = Outcome::Started;
    let mut failures = 0u32;
    while let Some(job) = poll(&outcome) {
        let generation = job.generation;
        outcome = match job.forest {
            None => Outcome::Offline { generation },
            Some(forest) => match runtime.block_on(send(&mut client, &job.endpoint, forest)) {
                Ok(error) if error.is_empty() => Outcome::Sent { generation },
                Ok(error) => Outcome::Refused { generation, error },
                Err(e) => {
                    client = None;
                    Outcome::Failed {
                        generation,
                        reason: e.to_string(),
                    }
                }
            },
        };
        failures = match outcome {
            Outcome::Failed { .. } => failures + 1,
            _ => 0,
        };
        std::thread::sleep(pause(failures));
    }
}

/// The period, doubled for each consecutive failure up to [`MAX_PAUSE`].
fn pause(failures: u32) -> Duration {
    PERIOD
        .saturating_mul(1u32 << failures.min(8))
        .min(MAX_PAUSE)
}

/// One `SendForest`, connecting first when there is no channel to this endpoint; returns
/// `ForestResponse.error`.
async fn send(
    client: &mut Option<(Endpoint, A11yServiceClient<Channel>)>,
    endpoint: &Endpoint,
    forest: droidmcp_protos::android_env::AndroidAccessibilityForest,
) -> Result<String, SendError> {
    let c = match client.take() {
        Some((e, c)) if e == *endpoint => client.insert((e, c)),
        _ => {
            let channel = TonicEndpoint::from_shared(endpoint.uri())
                .map_err(|_| SendError::Endpoint(endpoint.uri()))?
                .connect_timeout(DEADLINE)
                .timeout(DEADLINE)
                .connect()
                .await?;
            client.insert((
                endpoint.clone(),
                // A forest of a busy screen can pass tonic's 4 MB default; the app sets no limit.
                A11yServiceClient::new(channel)
                    .max_encoding_message_size(usize::MAX)
                    .max_decoding_message_size(usize::MAX),
            ))
        }
    };
    let c = &mut c.1;
    match tokio::time::timeout(DEADLINE, c.send_forest(forest)).await {
        Ok(reply) => Ok(reply?.into_inner().error),
        Err(_) => Err(SendError::Deadline),
    }
}
