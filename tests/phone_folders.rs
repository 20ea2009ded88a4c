//! The embedded phone's temporary folder is removed on every way `droidmcp serve` ends: a stdio
//! client closing, an HTTP server stopped with SIGTERM, and a killed process (by the next process
//! that boots a phone). Each run gets its own folder for phones (`DROIDMCP_SIM_DIR`, and TMPDIR), so
//! the folders counted are its own.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A server this test started, killed when the test ends, so a failed assertion leaves no
/// orphaned server behind.
struct Server(Child);

impl std::ops::Deref for Server {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Server {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn droidmcp(tmp: &Path, args: &[&str]) -> Server {
    let child = Command::new(env!("CARGO_BIN_EXE_droidmcp"))
        .args(args)
        .env("DROIDMCP_SIM_DIR", tmp)
        .env("TMPDIR", tmp)
        .env("HOME", tmp)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("droidmcp starts");
    Server(child)
}

fn phone_folders(tmp: &Path) -> usize {
    std::fs::read_dir(tmp)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("droidmcp-sim-"))
        .count()
}

/// Boots the phone of a `serve --stdio` child with a `screen` call; leaves stdin open.
fn boot_over_stdio(child: &mut Child) {
    let stdin = child.stdin.as_mut().unwrap();
    for msg in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"screen","arguments":{}}}"#,
    ] {
        writeln!(stdin, "{msg}").unwrap();
    }
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "stdout closed");
        if line.contains("\"id\":2") {
            assert!(line.contains("digest"), "{line}");
            break;
        }
    }
}

fn wait(child: &mut Child) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "droidmcp did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_stdio_server_removes_its_phone_folder_when_the_client_closes() {
    let tmp = tempfile::tempdir().unwrap();
    let mut child = droidmcp(tmp.path(), &["serve", "--stdio"]);
    boot_over_stdio(&mut child);
    assert_eq!(phone_folders(tmp.path()), 1);
    drop(child.stdin.take());
    wait(&mut child);
    assert_eq!(phone_folders(tmp.path()), 0);
}

#[test]
fn an_http_server_removes_its_phone_folder_on_sigterm() {
    let tmp = tempfile::tempdir().unwrap();
    let mut child = droidmcp(tmp.path(), &["serve", "--http", "127.0.0.1:0"]);
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let url = loop {
        line.clear();
        assert!(
            err.read_line(&mut line).unwrap() > 0,
            "no address announced"
        );
        if let Some(at) = line.find("http://") {
            let url = line[at..].trim().trim_end_matches("/mcp").to_string();
            break url;
        }
    };
    let body = std::process::Command::new("curl")
        .args(["-sf", &format!("{url}/v1/screen")])
        .output()
        .unwrap();
    assert!(body.status.success(), "{body:?}");
    assert_eq!(phone_folders(tmp.path()), 1);
    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    wait(&mut child);
    assert_eq!(phone_folders(tmp.path()), 0);
}

#[test]
fn a_killed_servers_phone_folder_is_removed_by_the_next_one() {
    let tmp = tempfile::tempdir().unwrap();
    let mut killed = droidmcp(tmp.path(), &["serve", "--stdio"]);
    boot_over_stdio(&mut killed);
    killed.kill().unwrap();
    wait(&mut killed);
    assert_eq!(phone_folders(tmp.path()), 1, "SIGKILL leaves the folder");
    let mut next = droidmcp(tmp.path(), &["serve", "--stdio"]);
    boot_over_stdio(&mut next);
    assert_eq!(
        phone_folders(tmp.path()),
        1,
        "only the live server's folder is left"
    );
    drop(next.stdin.take());
    wait(&mut next);
    assert_eq!(phone_folders(tmp.path()), 0);
}
