//! Small system tools: `getprop`, `which`, and the `sqlite3` CLI over the phone's
//! real database files.

use crate::framework::Framework;
use droidmcp_device::ShellOutput;

use super::{fs, Vars};

pub fn getprop(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let props = &fw.sys.properties;
    match args.first() {
        None => {
            let mut s = String::new();
            for (k, v) in props {
                s.push_str(&format!("[{k}]: [{v}]\n"));
            }
            ShellOutput::ok(s)
        }
        Some(key) => {
            let value = props
                .get(key)
                .cloned()
                .or_else(|| args.get(1).cloned())
                .unwrap_or_default();
            ShellOutput::ok(format!("{value}\n"))
        }
    }
}

/// Properties the `shell` user may set (SELinux `shell_prop`, `debug_prop`, `log_prop`): adb's own
/// switches and the debugging ones. Everything else needs root.
const SHELL_SETTABLE: [&str; 5] = [
    "service.adb.root",
    "service.adb.tcp.port",
    "debug.",
    "log.",
    "persist.log.",
];

/// `setprop NAME VALUE`, as toolbox's: a read-only property that has a value cannot change, and
/// the shell user may only set its own properties. A failure is worded as `__system_property_set`'s.
pub fn setprop(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let [name, value] = args else {
        return ShellOutput::fail(
            "usage: setprop NAME VALUE\n\nSets an Android system property.\n",
            1,
        );
    };
    let read_only_set = name.starts_with("ro.") && fw.sys.properties.contains_key(name.as_str());
    let allowed = is_root(fw)
        || SHELL_SETTABLE.iter().any(|p| {
            if p.ends_with('.') {
                name.starts_with(p)
            } else {
                name == p
            }
        });
    if read_only_set || !allowed || name.is_empty() {
        return ShellOutput::fail(
            format!("Failed to set property '{name}' to '{value}'.\nSee dmesg for error reason.\n"),
            1,
        );
    }
    fw.sys.properties.insert(name.clone(), value.clone());
    ShellOutput::ok(Vec::new())
}

/// Whether adb's shell runs as root: on a debuggable build after `adb root`, which sets
/// `service.adb.root` and restarts adbd (on the embedded phone that restart is instantaneous, so
/// the property alone decides).
pub fn is_root(fw: &Framework) -> bool {
    fw.sys.property("service.adb.root") == "1" && fw.sys.property("ro.debuggable") == "1"
}

/// `whoami`.
pub fn whoami(fw: &Framework) -> ShellOutput {
    ShellOutput::ok(if is_root(fw) { "root\n" } else { "shell\n" })
}

/// `printenv [NAME…]` (and `env` without a command): the environment this command was given.
pub fn printenv(tool: &str, args: &[String], vars: &Vars) -> ShellOutput {
    let names: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if tool == "printenv" && !names.is_empty() {
        let mut out = ShellOutput::default();
        for n in names {
            match vars.get(n.as_str()) {
                Some(v) => out
                    .stdout
                    .extend_from_slice(format!("{}\n", v.value).as_bytes()),
                None => out.exit_code = 1,
            }
        }
        return out;
    }
    let s: String = vars
        .iter()
        .map(|(k, v)| format!("{k}={}\n", v.value))
        .collect();
    ShellOutput::ok(s)
}

pub fn which(args: &[String]) -> ShellOutput {
    let mut out = ShellOutput::default();
    for a in args {
        if super::COMMANDS.contains(&a.as_str()) {
            out.stdout
                .extend_from_slice(format!("/system/bin/{a}\n").as_bytes());
        } else {
            out.exit_code = 1;
        }
    }
    if args.is_empty() {
        out.exit_code = 1;
    }
    out
}

/// Splits SQL into statements at top-level `;` (outside quotes).
fn statements(sql: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in sql.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' || c == '`' => quote = Some(c),
            None if c == ';' => {
                if !cur.trim().is_empty() {
                    out.push(cur.trim().to_string());
                }
                cur.clear();
                continue;
            }
            None => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn value_text(v: rusqlite::types::ValueRef) -> String {
    use rusqlite::types::ValueRef;
    match v {
        ValueRef::Null => String::new(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(f) => {
            if f.fract() == 0.0 && f.abs() < 1e15 {
                format!("{f:.1}")
            } else {
                format!("{f}")
            }
        }
        ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
        ValueRef::Blob(b) => String::from_utf8_lossy(b).into_owned(),
    }
}

pub fn sqlite3(fw: &mut Framework, args: &[String], stdin: &[u8]) -> ShellOutput {
    let mut header = false;
    let mut separator = "|".to_string();
    let mut positional = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        match a.as_str() {
            "-header" | "--header" => header = true,
            "-noheader" | "--noheader" => header = false,
            "-separator" | "--separator" => {
                if let Some(s) = args.get(i) {
                    separator = s.clone();
                }
                i += 1;
            }
            "-list" | "-batch" | "-bail" | "-readonly" => {}
            s if s.starts_with('-') => {
                return ShellOutput::fail(
                    format!(
                        "sqlite3: Error: unknown option: {s}\nUse -help for a list of options.\n"
                    ),
                    1,
                )
            }
            _ => positional.push(a.clone()),
        }
    }
    let Some(db) = positional.first() else {
        return ShellOutput::fail(
            "sqlite3: no database given (the embedded phone has no interactive sqlite3)\n",
            1,
        );
    };
    let sql = match positional.get(1) {
        Some(s) => s.clone(),
        None => String::from_utf8_lossy(stdin).into_owned(),
    };
    let Some(path) = fs::resolve(fw, db) else {
        return ShellOutput::fail(
            format!("Error: unable to open database \"{db}\": unable to open database file\n"),
            1,
        );
    };
    let conn = match rusqlite::Connection::open(&path) {
        Ok(c) => c,
        Err(_) => {
            return ShellOutput::fail(
                format!("Error: unable to open database \"{db}\": unable to open database file\n"),
                1,
            )
        }
    };
    // As for the apps' connections (`System::open_db`): no fsync in the phone's throwaway folder.
    let _ = conn.pragma_update(None, "synchronous", "OFF");
    // A cancelled command (timeout, caller gone) interrupts a runaway query instead of holding the
    // phone.
    fw.interrupt.watch(&conn);
    // The phone's databases may only be read and written in place: no ATTACH (nor VACUUM INTO,
    // which attaches its output) can reach another file, and extensions are never loaded.
    conn.set_limit(rusqlite::limits::Limit::SQLITE_LIMIT_ATTACHED, 0);
    let mut out = ShellOutput::default();
    for stmt_sql in statements(&sql) {
        if stmt_sql.starts_with('.') {
            match dot_command(&conn, &stmt_sql) {
                Ok(s) => out.stdout.extend_from_slice(s.as_bytes()),
                Err(e) => {
                    out.stderr
                        .extend_from_slice(format!("Error: {e}\n").as_bytes());
                    out.exit_code = 1;
                    return out;
                }
            }
            continue;
        }
        // `PRAGMA temp_store_directory` / `data_store_directory` would point SQLite at a folder of
        // the host: the phone's files must stay in the phone's folder. No spelling of either name
        // (quoted, schema-qualified, in any case) avoids the substring.
        if stmt_sql.to_ascii_lowercase().contains("_store_directory") {
            out.stderr
                .extend_from_slice(b"Error: in prepare, not authorized (23)\n");
            out.exit_code = 1;
            return out;
        }
        let mut stmt = match conn.prepare(&stmt_sql) {
            Ok(s) => s,
            Err(e) => {
                out.stderr.extend_from_slice(
                    format!("Error: in prepare, {}\n", sqlite_message(&e)).as_bytes(),
                );
                out.exit_code = 1;
                return out;
            }
        };
        let names: Vec<String> = stmt
            .column_names()
            .into_iter()
            .map(str::to_string)
            .collect();
        let n = names.len();
        let mut rows = match stmt.query([]) {
            Ok(r) => r,
            Err(e) => {
                out.stderr
                    .extend_from_slice(format!("Error: {}\n", sqlite_message(&e)).as_bytes());
                out.exit_code = 1;
                return out;
            }
        };
        let mut first = true;
        loop {
            match rows.next() {
                Ok(Some(row)) => {
                    if first && header && n > 0 {
                        out.stdout
                            .extend_from_slice(format!("{}\n", names.join(&separator)).as_bytes());
                    }
                    first = false;
                    let vals: Vec<String> = (0..n)
                        .map(|i| row.get_ref(i).map(value_text).unwrap_or_default())
                        .collect();
                    out.stdout
                        .extend_from_slice(format!("{}\n", vals.join(&separator)).as_bytes());
                }
                Ok(None) => break,
                Err(e) => {
                    out.stderr.extend_from_slice(
                        format!("Error: stepping, {}\n", sqlite_message(&e)).as_bytes(),
                    );
                    out.exit_code = 1;
                    return out;
                }
            }
        }
    }
    out
}

fn sqlite_message(e: &rusqlite::Error) -> String {
    match e {
        rusqlite::Error::SqliteFailure(f, Some(msg)) => format!("{msg} ({})", f.extended_code),
        rusqlite::Error::SqlInputError { error, msg, .. } => {
            format!("{msg} ({})", error.extended_code)
        }
        other => other.to_string(),
    }
}

fn dot_command(conn: &rusqlite::Connection, cmd: &str) -> Result<String, String> {
    let query = match cmd.split_whitespace().next().unwrap_or("") {
        ".tables" => "SELECT name FROM sqlite_master WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%' ORDER BY 1",
        ".schema" => "SELECT sql || ';' FROM sqlite_master WHERE sql IS NOT NULL ORDER BY tbl_name, type DESC, name",
        other => return Err(format!("unknown command or invalid arguments:  \"{}\". Enter \".help\" for help", other.trim_start_matches('.'))),
    };
    let mut stmt = conn.prepare(query).map_err(|e| sqlite_message(&e))?;
    let names: Vec<String> = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .map_err(|e| sqlite_message(&e))?
        .filter_map(Result::ok)
        .collect();
    let sep = if cmd.starts_with(".tables") {
        "  "
    } else {
        "\n"
    };
    Ok(if names.is_empty() {
        String::new()
    } else {
        format!("{}\n", names.join(sep))
    })
}

/// toybox `id` for adb's shell user (`shell`, or `root` after `adb root`, which keeps the shell's
/// supplementary groups and runs in the `su` domain): the full line, or `-u`/`-g`/`-G` with `-n`.
pub fn id(fw: &Framework, args: &[String]) -> ShellOutput {
    let (uid, user, context) = if is_root(fw) {
        (0, "root", "su")
    } else {
        (2000, "shell", "shell")
    };
    const GROUPS: [(u32, &str); 14] = [
        (1004, "input"),
        (1007, "log"),
        (1011, "adb"),
        (1015, "sdcard_rw"),
        (1028, "sdcard_r"),
        (1078, "ext_data_rw"),
        (1079, "ext_obb_rw"),
        (3001, "net_bt_admin"),
        (3002, "net_bt"),
        (3003, "inet"),
        (3006, "net_bw_stats"),
        (3009, "readproc"),
        (3011, "uhid"),
        (3012, "readtracefs"),
    ];
    let (mut which, mut names) = (None, false);
    for a in args {
        let Some(flags) = a.strip_prefix('-').filter(|f| !f.is_empty()) else {
            if a == user || *a == uid.to_string() {
                continue;
            }
            return ShellOutput::fail(format!("id: no such user '{a}'\n"), 1);
        };
        for f in flags.chars() {
            match f {
                'u' | 'g' | 'G' => which = Some(f),
                'n' => names = true,
                'r' | 'Z' => {}
                _ => {
                    return ShellOutput::fail(
                        format!("id: Unknown option '{f}' (see \"id --help\")\n"),
                        1,
                    )
                }
            }
        }
    }
    let line = match (which, names) {
        (Some('u' | 'g'), false) => uid.to_string(),
        (Some('u' | 'g'), true) => user.to_string(),
        (Some(_), false) => std::iter::once(uid.to_string())
            .chain(GROUPS.iter().map(|(g, _)| g.to_string()))
            .collect::<Vec<_>>()
            .join(" "),
        (Some(_), true) => std::iter::once(user)
            .chain(GROUPS.iter().map(|(_, n)| *n))
            .collect::<Vec<_>>()
            .join(" "),
        (None, _) => format!(
            "uid={uid}({user}) gid={uid}({user}) groups={uid}({user}),{} context=u:r:{context}:s0",
            GROUPS
                .iter()
                .map(|(g, n)| format!("{g}({n})"))
                .collect::<Vec<_>>()
                .join(",")
        ),
    };
    ShellOutput::ok(format!("{line}\n"))
}
