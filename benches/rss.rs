//! The process's resident memory, for the benchmarks that report memory per phone.

/// VmRSS from /proc/self/status, in KiB (`None` where there is no /proc).
pub fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}
