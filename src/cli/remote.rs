//! The running `droidmcp serve --http` the manual verbs act through: its announcement file (written
//! while it listens) and a small client of its phone REST routes (`/v1/screen`, `/v1/actions`,
//! `/v1/apps`). A person's `droidmcp open clock` then `droidmcp type …` reach one phone that stays,
//! instead of a fresh embedded phone per command.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;

use crate::http::phone_wire::{ActResult, ActionIn, AppList, ScreenOut};

/// Where a running server says where it listens: `$XDG_RUNTIME_DIR/droidmcp-server`, else beside
/// the episode store. One line with the base URL, a second with the token when there is one (the
/// file is the user's own, mode 0600).
pub fn announcement_path() -> PathBuf {
    match std::env::var_os("XDG_RUNTIME_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir).join("droidmcp-server"),
        _ => crate::store::Store::default_path()
            .parent()
            .map(|d| d.join("server"))
            .unwrap_or_else(|| PathBuf::from("droidmcp-server")),
    }
}

/// The announcement of this process's server; removed when dropped, unless another server has
/// announced itself since.
pub struct Announcement {
    path: PathBuf,
    text: String,
}

impl Announcement {
    /// Announces `local`; a failure to write only costs the manual verbs their default.
    pub fn write(local: SocketAddr, token: Option<&str>) -> Option<Announcement> {
        let path = announcement_path();
        let host = if local.ip().is_unspecified() {
            "127.0.0.1".to_string()
        } else {
            match local {
                SocketAddr::V4(a) => a.ip().to_string(),
                SocketAddr::V6(a) => format!("[{}]", a.ip()),
            }
        };
        let mut text = format!("http://{host}:{}\n", local.port());
        if let Some(t) = token {
            text.push_str(t);
            text.push('\n');
        }
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let written = {
            use std::io::Write;
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create(true).truncate(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            options
                .open(&path)
                .and_then(|mut f| f.write_all(text.as_bytes()))
        };
        match written {
            Ok(()) => Some(Announcement { path, text }),
            Err(e) => {
                eprintln!(
                    "droidmcp: cannot write {} ({e}); the manual verbs will need --server",
                    path.display()
                );
                None
            }
        }
    }
}

impl Drop for Announcement {
    fn drop(&mut self) {
        if std::fs::read_to_string(&self.path).is_ok_and(|t| t == self.text) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// A server the manual verbs talk to.
pub struct Server {
    base: String,
    token: Option<String>,
    http: reqwest::Client,
}

impl Server {
    pub fn new(base: &str, token: Option<String>) -> Server {
        Server {
            base: base.trim_end_matches('/').to_string(),
            token,
            http: reqwest::Client::new(),
        }
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    /// The server `--server` names, else the announced one if it answers. A stale announcement
    /// (its server was killed) is removed.
    pub async fn find(explicit: Option<&str>, token: Option<String>) -> Option<Server> {
        if let Some(url) = explicit {
            return Some(Server::new(url, token));
        }
        let path = announcement_path();
        let text = std::fs::read_to_string(&path).ok()?;
        let mut lines = text.lines();
        let server = Server::new(lines.next()?, token.or(lines.next().map(str::to_string)));
        let alive = server
            .http
            .get(format!("{}/v1/devices", server.base))
            .timeout(std::time::Duration::from_secs(2))
            .send()
            .await
            .is_ok();
        if !alive {
            let _ = std::fs::remove_file(&path);
            return None;
        }
        Some(server)
    }

    fn request(&self, req: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.token {
            Some(t) => req.bearer_auth(t),
            None => req,
        }
    }

    async fn decode<T: serde::de::DeserializeOwned>(
        &self,
        what: &str,
        req: reqwest::RequestBuilder,
    ) -> anyhow::Result<T> {
        let resp = self
            .request(req)
            .send()
            .await
            .with_context(|| format!("{what}: the server at {} does not answer", self.base))?;
        let status = resp.status();
        let body = resp.bytes().await?;
        if !status.is_success() {
            let message = serde_json::from_slice::<crate::http::wire::ErrorBody>(&body)
                .map(|e| e.error)
                .unwrap_or_else(|_| String::from_utf8_lossy(&body).into_owned());
            anyhow::bail!("{what} on the server at {}: {status}: {message}", self.base);
        }
        serde_json::from_slice(&body)
            .with_context(|| format!("{what}: unexpected reply from {}", self.base))
    }

    pub async fn screen(
        &self,
        device: Option<&str>,
        screenshot: bool,
        max_edge: u32,
    ) -> anyhow::Result<ScreenOut> {
        let mut query = vec![
            ("screenshot", screenshot.to_string()),
            ("max_edge", max_edge.to_string()),
        ];
        if let Some(d) = device {
            query.push(("device", d.to_string()));
        }
        let req = self
            .http
            .get(format!("{}/v1/screen", self.base))
            .query(&query);
        self.decode("reading the screen", req).await
    }

    pub async fn act(&self, device: Option<&str>, action: &ActionIn) -> anyhow::Result<ActResult> {
        let body = serde_json::json!({ "device": device, "action": action });
        let req = self
            .http
            .post(format!("{}/v1/actions", self.base))
            .json(&body);
        self.decode("acting", req).await
    }

    pub async fn apps(&self, device: Option<&str>) -> anyhow::Result<AppList> {
        let mut req = self.http.get(format!("{}/v1/apps", self.base));
        if let Some(d) = device {
            req = req.query(&[("device", d)]);
        }
        self.decode("listing apps", req).await
    }
}
