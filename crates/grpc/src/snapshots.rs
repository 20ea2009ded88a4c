//! `SnapshotService` over the phone's whole-phone snapshots, through the emulator console's `avd
//! snapshot list|save|load|delete` (the lines `adb emu` sends), so a snapshot saved over gRPC is the
//! one the console lists and loads, and the other way round.

use std::sync::Arc;

use tonic::{Request, Response, Status};

use super::proto::control::{
    snapshot_details::LoadStatus, snapshot_service_server::SnapshotService, SnapshotDetails,
    SnapshotFilter, SnapshotList, SnapshotPackage,
};
use droidmcp_device::Shell;

/// The snapshot service of one served phone.
pub struct Snapshots {
    shell: Arc<dyn Shell>,
}

impl Snapshots {
    pub fn new(shell: Arc<dyn Shell>) -> Snapshots {
        Snapshots { shell }
    }

    /// Runs one console line; `Err` carries the console's `KO: …` lines.
    async fn console(&self, line: &str) -> Result<String, Status> {
        self.shell
            .console(line)
            .await
            .map_err(|e| Status::unavailable(e.to_string()))
    }

    /// `avd snapshot save|load|delete NAME` as a `SnapshotPackage` reply: success on `OK`, the
    /// console's `KO:` text as `err` otherwise (as the emulator reports a failed load).
    async fn act(
        &self,
        verb: &str,
        request: Request<SnapshotPackage>,
    ) -> Result<Response<SnapshotPackage>, Status> {
        let id = request.into_inner().snapshot_id;
        if id.is_empty() || id.chars().any(char::is_whitespace) {
            return Err(Status::invalid_argument(format!(
                "snapshot_id {id:?}: a snapshot name is one word"
            )));
        }
        let answer = self.console(&format!("avd snapshot {verb} {id}")).await?;
        let failure = failure(&answer);
        Ok(Response::new(SnapshotPackage {
            snapshot_id: id,
            success: failure.is_none(),
            err: failure.unwrap_or_default().into_bytes(),
            ..SnapshotPackage::default()
        }))
    }
}

/// The `KO: …` lines of a console answer joined, or `None` when it ended in `OK`.
fn failure(answer: &str) -> Option<String> {
    let ko: Vec<&str> = answer
        .lines()
        .filter_map(|l| l.trim_end().strip_prefix("KO: "))
        .collect();
    if ko.is_empty() && answer.lines().any(|l| l.trim_end() == "OK") {
        None
    } else if ko.is_empty() {
        Some(answer.trim().to_string())
    } else {
        Some(ko.join("; "))
    }
}

/// The rows of `avd snapshot list` (QEMU's `bdrv_snapshot_dump` table: ID, TAG, VM SIZE, DATE,
/// VM CLOCK) as (name, size in bytes as the table rounds it).
pub fn listed(answer: &str) -> Vec<(String, u64)> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in answer.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.first() == Some(&"ID") {
            in_table = true;
            continue;
        }
        // --  TAG  SIZE  YYYY-MM-DD  HH:MM:SS  HH:MM:SS.mmm
        if !in_table || fields.len() < 6 {
            continue;
        }
        let n = fields.len();
        rows.push((fields[1..n - 4].join(" "), human_bytes(fields[n - 4])));
    }
    rows
}

/// QEMU's human-readable size (`999`, `1.5K`, `141M`) back in bytes.
fn human_bytes(size: &str) -> u64 {
    let (number, unit) = size.split_at(size.trim_end_matches(char::is_alphabetic).len());
    let shift = match unit {
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => 0,
    };
    number
        .parse::<f64>()
        .map(|n| (n * (1u64 << shift) as f64) as u64)
        .unwrap_or(0)
}

#[tonic::async_trait]
impl SnapshotService for Snapshots {
    /// Every snapshot the phone holds; all can be loaded, so both filters list the same.
    async fn list_snapshots(
        &self,
        _: Request<SnapshotFilter>,
    ) -> Result<Response<SnapshotList>, Status> {
        let answer = self.console("avd snapshot list").await?;
        if let Some(why) = failure(&answer) {
            return Err(Status::internal(format!("avd snapshot list: {why}")));
        }
        let snapshots = listed(&answer)
            .into_iter()
            .map(|(snapshot_id, size)| SnapshotDetails {
                snapshot_id,
                details: None,
                status: LoadStatus::Compatible as i32,
                size,
            })
            .collect();
        Ok(Response::new(SnapshotList { snapshots }))
    }

    async fn save_snapshot(
        &self,
        request: Request<SnapshotPackage>,
    ) -> Result<Response<SnapshotPackage>, Status> {
        self.act("save", request).await
    }

    async fn load_snapshot(
        &self,
        request: Request<SnapshotPackage>,
    ) -> Result<Response<SnapshotPackage>, Status> {
        self.act("load", request).await
    }

    async fn delete_snapshot(
        &self,
        request: Request<SnapshotPackage>,
    ) -> Result<Response<SnapshotPackage>, Status> {
        self.act("delete", request).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_qemu_snapshot_table() {
        let answer = "List of snapshots present on all disks:\r\n\
            ID        TAG                 VM SIZE                DATE       VM CLOCK\r\n\
            --        default_boot           1.5M 2026-11-27 09:00:00   00:00:12.345\r\n\
            --        after                  141M 2026-11-27 09:01:00   00:01:12.000\r\n\
            OK\r\n";
        assert_eq!(
            listed(answer),
            vec![
                ("default_boot".to_string(), 1_572_864),
                ("after".to_string(), 141 << 20)
            ]
        );
        assert!(listed("There is no snapshot available.\r\nOK\r\n").is_empty());
        assert_eq!(failure("OK\r\n"), None);
        assert_eq!(
            failure("KO: Device 'system' does not have the requested snapshot 'x'\r\nKO: Snapshot load failure: unknown failure\r\n").as_deref(),
            Some("Device 'system' does not have the requested snapshot 'x'; Snapshot load failure: unknown failure")
        );
    }
}
