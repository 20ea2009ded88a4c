//! mksh's builtins that tools send: `export`, `unset`, `exec`, `exit`, `test`/`[`, `eval`, `read`,
//! `type`/`command -v`, `:`/`true`/`false`, `nohup`; everything else goes to [`super::run_program`]
//! with the exported variables (plus `VAR=val` prefixes) as its environment.

use crate::framework::Framework;
use droidmcp_device::ShellOutput;

use super::{fs, parse, Env, Var, Vars};

pub const BUILTINS: &[&str] = &[
    ":", "[", "command", "env", "eval", "exec", "exit", "export", "false", "nohup", "read", "test",
    "true", "type", "unset",
];

/// Runs a simple command: a builtin in this shell, or a program with its environment.
pub fn run(
    fw: &mut Framework,
    env: &mut Env,
    assigns: &[(String, String)],
    argv: &[String],
    stdin: &[u8],
) -> ShellOutput {
    let args = &argv[1..];
    match argv[0].as_str() {
        ":" | "true" => ShellOutput::ok(Vec::new()),
        "false" => ShellOutput {
            exit_code: 1,
            ..ShellOutput::default()
        },
        "export" => export(env, args),
        "unset" => {
            for name in args.iter().filter(|a| !a.starts_with('-')) {
                env.vars.remove(name);
            }
            ShellOutput::ok(Vec::new())
        }
        "exit" => {
            let code = match args.first() {
                None => env.status,
                Some(n) => match n.parse::<i64>() {
                    Ok(n) => (n & 0xff) as i32,
                    Err(_) => {
                        env.exit = Some(1);
                        return ShellOutput::fail(
                            format!("/system/bin/sh: exit: {n}: bad number\n"),
                            1,
                        );
                    }
                },
            };
            env.exit = Some(code);
            ShellOutput {
                exit_code: code,
                ..ShellOutput::default()
            }
        }
        "exec" => {
            if args.is_empty() {
                return ShellOutput::ok(Vec::new());
            }
            let out = program(fw, env, assigns, args, stdin);
            env.exit = Some(out.exit_code);
            out
        }
        "nohup" => {
            if args.is_empty() {
                return ShellOutput::fail(
                    "usage: nohup COMMAND [ARG...]\n\nRun a command that survives the end of its terminal.\n\nRedirect tty on stdout to nohup.out, tty on stderr to stdout.\n\nnohup: Needs 1 argument\n",
                    125,
                );
            }
            run(fw, env, assigns, args, stdin)
        }
        "test" => test_command(fw, args, false),
        "[" => test_command(fw, args, true),
        "eval" => {
            let script = args.join(" ");
            match parse::parse_nested(&script, env.depth) {
                Ok(list) => {
                    let mut out = ShellOutput::default();
                    let code = super::run_list(fw, env, &list, stdin, &mut out);
                    out.exit_code = code;
                    out
                }
                Err(e) => ShellOutput::fail(format!("/system/bin/sh: eval: {e}\n"), 1),
            }
        }
        "read" => {
            let text = String::from_utf8_lossy(stdin);
            let Some(line) = text.lines().next() else {
                return ShellOutput {
                    exit_code: 1,
                    ..ShellOutput::default()
                };
            };
            let mut names: Vec<String> = args
                .iter()
                .filter(|a| !a.starts_with('-'))
                .cloned()
                .collect();
            if names.is_empty() {
                names.push("REPLY".into());
            }
            let mut fields = line.split_whitespace();
            for (i, name) in names.iter().enumerate() {
                let value = if i + 1 == names.len() {
                    fields.clone().collect::<Vec<_>>().join(" ")
                } else {
                    fields.next().unwrap_or("").to_string()
                };
                env.set(name, value);
            }
            ShellOutput::ok(Vec::new())
        }
        "type" | "command" => locate(&argv[0], args, env, fw, assigns, stdin),
        "env" => {
            // `env [-i] [NAME=VALUE]… [COMMAND [ARG]…]`
            let mut extra: Vec<(String, String)> = assigns.to_vec();
            let mut rest = args;
            while let Some((a, tail)) = rest.split_first() {
                match a.split_once('=') {
                    Some((n, v)) if parse::is_name(n) => extra.push((n.into(), v.into())),
                    _ if a == "-i" || a == "-" => {}
                    _ => break,
                }
                rest = tail;
            }
            if rest.is_empty() {
                let mut vars = exported(env);
                for (n, v) in extra {
                    vars.insert(
                        n,
                        Var {
                            value: v,
                            exported: true,
                        },
                    );
                }
                super::misc::printenv("env", &[], &vars)
            } else {
                program(fw, env, &extra, rest, stdin)
            }
        }
        _ => program(fw, env, assigns, argv, stdin),
    }
}

/// Runs a program with the exported variables and this command's assignments as its environment.
fn program(
    fw: &mut Framework,
    env: &Env,
    assigns: &[(String, String)],
    argv: &[String],
    stdin: &[u8],
) -> ShellOutput {
    let mut vars = exported(env);
    for (name, value) in assigns {
        vars.insert(
            name.clone(),
            Var {
                value: value.clone(),
                exported: true,
            },
        );
    }
    super::run_program(fw, argv, stdin, &vars)
}

fn exported(env: &Env) -> Vars {
    env.vars
        .iter()
        .filter(|(_, v)| v.exported)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn export(env: &mut Env, args: &[String]) -> ShellOutput {
    let names: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if names.is_empty() {
        let mut s = String::new();
        for (k, v) in env.vars.iter().filter(|(_, v)| v.exported) {
            s.push_str(&format!("export {k}={}\n", quote(&v.value)));
        }
        return ShellOutput::ok(s);
    }
    for a in names {
        let (name, value) = match a.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (a.as_str(), None),
        };
        if !parse::is_name(name) {
            return ShellOutput::fail(
                format!("/system/bin/sh: export: {name}: is not an identifier\n"),
                1,
            );
        }
        let var = env.vars.entry(name.to_string()).or_insert(Var {
            value: String::new(),
            exported: true,
        });
        var.exported = true;
        if let Some(v) = value {
            var.value = v;
        }
    }
    ShellOutput::ok(Vec::new())
}

/// Quotes a value as mksh's `export` listing does (only when needed).
fn quote(v: &str) -> String {
    if !v.is_empty()
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-:+,@%=".contains(c))
    {
        v.to_string()
    } else {
        format!("'{}'", v.replace('\'', "'\\''"))
    }
}

fn locate(
    tool: &str,
    args: &[String],
    env: &mut Env,
    fw: &mut Framework,
    assigns: &[(String, String)],
    stdin: &[u8],
) -> ShellOutput {
    let verbose = tool == "type" || args.first().is_some_and(|a| a == "-V");
    let brief = tool == "command" && args.first().is_some_and(|a| a == "-v");
    if tool == "command" && !brief && !verbose {
        // `command NAME ARGS` runs the program, skipping functions (there are none here).
        return match args.first() {
            Some(_) => run(fw, env, assigns, args, stdin),
            None => ShellOutput::ok(Vec::new()),
        };
    }
    let mut out = ShellOutput::default();
    for name in args.iter().filter(|a| !a.starts_with('-')) {
        let line = if BUILTINS.contains(&name.as_str()) {
            if brief {
                format!("{name}\n")
            } else {
                format!("{name} is a shell builtin\n")
            }
        } else if super::COMMANDS.contains(&name.as_str()) {
            if brief {
                format!("/system/bin/{name}\n")
            } else {
                format!("{name} is a tracked alias for /system/bin/{name}\n")
            }
        } else {
            out.exit_code = 1;
            if brief {
                continue;
            }
            out.stderr
                .extend_from_slice(format!("{name} not found\n").as_bytes());
            continue;
        };
        out.stdout.extend_from_slice(line.as_bytes());
    }
    out
}

fn test_command(fw: &Framework, args: &[String], bracket: bool) -> ShellOutput {
    let name = if bracket { "[" } else { "test" };
    let args = if bracket {
        match args.split_last() {
            Some((last, rest)) if last == "]" => rest,
            _ => {
                return ShellOutput::fail("/system/bin/sh: [: missing ]\n", 2);
            }
        }
    } else {
        args
    };
    let mut t = Test { fw, args, pos: 0 };
    let result = if args.is_empty() {
        Ok(false)
    } else {
        t.or().and_then(|r| {
            if t.pos < args.len() {
                Err(format!("{}: unexpected operator/operand", args[t.pos]))
            } else {
                Ok(r)
            }
        })
    };
    match result {
        Ok(b) => ShellOutput {
            exit_code: if b { 0 } else { 1 },
            ..ShellOutput::default()
        },
        Err(e) => ShellOutput::fail(format!("/system/bin/sh: {name}: {e}\n"), 2),
    }
}

/// `test`'s expression grammar: `-o` binds loosest, then `-a`, then `!`, then primaries.
struct Test<'a> {
    fw: &'a Framework,
    args: &'a [String],
    pos: usize,
}

const UNARY: &[&str] = &[
    "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-L", "-n", "-p", "-r", "-s", "-S", "-t", "-u",
    "-w", "-x", "-z", "-O", "-G",
];
const BINARY: &[&str] = &[
    "=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef",
];

impl<'a> Test<'a> {
    fn peek(&self, k: usize) -> Option<&'a str> {
        self.args.get(self.pos + k).map(String::as_str)
    }

    fn or(&mut self) -> Result<bool, String> {
        let mut v = self.and()?;
        while self.peek(0) == Some("-o") {
            self.pos += 1;
            let r = self.and()?;
            v = v || r;
        }
        Ok(v)
    }

    fn and(&mut self) -> Result<bool, String> {
        let mut v = self.not()?;
        while self.peek(0) == Some("-a") {
            self.pos += 1;
            let r = self.not()?;
            v = v && r;
        }
        Ok(v)
    }

    fn not(&mut self) -> Result<bool, String> {
        if self.peek(0) == Some("!") && self.peek(1).is_some() {
            self.pos += 1;
            return Ok(!self.not()?);
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<bool, String> {
        let Some(a) = self.peek(0) else {
            return Err("argument expected".into());
        };
        if let (Some(op), Some(_)) = (self.peek(1), self.peek(2)) {
            if BINARY.contains(&op) {
                let (l, r) = (a.to_string(), self.peek(2).unwrap_or("").to_string());
                self.pos += 3;
                return self.binary(&l, op, &r);
            }
        }
        if UNARY.contains(&a) {
            if let Some(operand) = self.peek(1) {
                let operand = operand.to_string();
                let op = a.to_string();
                self.pos += 2;
                return Ok(self.unary(&op, &operand));
            }
        }
        if a == "(" {
            self.pos += 1;
            let v = self.or()?;
            if self.peek(0) != Some(")") {
                return Err("missing )".into());
            }
            self.pos += 1;
            return Ok(v);
        }
        self.pos += 1;
        Ok(!a.is_empty())
    }

    fn unary(&self, op: &str, operand: &str) -> bool {
        match op {
            "-z" => operand.is_empty(),
            "-n" => !operand.is_empty(),
            "-t" => false,
            _ => {
                let Some(host) = fs::resolve(self.fw, operand) else {
                    return false;
                };
                let meta = if matches!(op, "-h" | "-L") {
                    std::fs::symlink_metadata(&host)
                } else {
                    std::fs::metadata(&host)
                };
                let Ok(meta) = meta else {
                    return false;
                };
                match op {
                    "-e" | "-r" | "-w" => true,
                    "-f" => meta.is_file(),
                    "-d" => meta.is_dir(),
                    "-s" => meta.len() > 0,
                    "-h" | "-L" => meta.file_type().is_symlink(),
                    "-x" => {
                        use std::os::unix::fs::PermissionsExt;
                        meta.is_dir() || meta.permissions().mode() & 0o111 != 0
                    }
                    _ => false,
                }
            }
        }
    }

    fn binary(&self, l: &str, op: &str, r: &str) -> Result<bool, String> {
        let num = |s: &str| {
            s.trim()
                .parse::<i64>()
                .map_err(|_| format!("{s}: bad number"))
        };
        Ok(match op {
            "=" | "==" => l == r,
            "!=" => l != r,
            "<" => l < r,
            ">" => l > r,
            "-eq" => num(l)? == num(r)?,
            "-ne" => num(l)? != num(r)?,
            "-lt" => num(l)? < num(r)?,
            "-le" => num(l)? <= num(r)?,
            "-gt" => num(l)? > num(r)?,
            "-ge" => num(l)? >= num(r)?,
            _ => false,
        })
    }
}
