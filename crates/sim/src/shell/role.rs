//! `cmd role`: the Permission module's RoleShellCommand over `BasicShellCommandHandler`, byte for
//! byte. Holders print joined by `;`; a change the role controller refuses prints the waiting
//! future's failure ("Error: see logcat for details." and the `ExecutionException`) with the reason
//! in logcat; a missing argument is the handler's "Exception occurred while executing" report (its
//! stack frames, which name source lines, are left out).

use crate::framework::Framework;
use crate::roles;
use crate::system::pid;
use droidmcp_device::ShellOutput;

const HELP: &str = "Role (role) commands:\n  help or -h\n    Print this help text.\n\n  get-role-holders [--user USER_ID] ROLE\n  add-role-holder [--user USER_ID] ROLE PACKAGE [FLAGS]\n  remove-role-holder [--user USER_ID] ROLE PACKAGE [FLAGS]\n  clear-role-holders [--user USER_ID] ROLE [FLAGS]\n  set-bypassing-role-qualification true|false\n\n";

/// What `CallbackFuture.waitForResult` prints when the controller answered "failed".
const FAILED: &str = "Error: see logcat for details.\njava.util.concurrent.ExecutionException: java.lang.RuntimeException: Failed\n";
/// … and when no answer came within its 5 seconds (a user that does not exist gets none).
const TIMED_OUT: &str = "Error: see logcat for details.\njava.util.concurrent.TimeoutException\n";

/// The one user this phone has (`UserHandleCompat.USER_SYSTEM`).
const USER_SYSTEM: i32 = 0;

/// A Java exception thrown inside `onCommand`: `Throwable.toString()`.
struct Thrown(String);

/// `BasicShellCommandHandler`'s argument cursor over the command and its arguments.
struct Args<'a> {
    args: &'a [String],
    pos: usize,
    /// The rest of a single-dash option (`-xVALUE`), handed out by the next `getNextArg`.
    pending: Option<String>,
}

impl<'a> Args<'a> {
    fn new(args: &'a [String]) -> Self {
        Args {
            args,
            pos: 1,
            pending: None,
        }
    }

    fn next_option(&mut self) -> Result<Option<String>, Thrown> {
        if self.pending.is_some() {
            return Err(Thrown(format!(
                "java.lang.IllegalArgumentException: No argument expected after \"{}\"",
                self.args[self.pos - 1]
            )));
        }
        let Some(arg) = self.args.get(self.pos).filter(|a| a.starts_with('-')) else {
            return Ok(None);
        };
        self.pos += 1;
        if arg == "--" {
            return Ok(None);
        }
        if arg.len() > 2 && !arg[1..].starts_with('-') {
            self.pending = Some(arg[2..].to_string());
            return Ok(Some(arg[..2].to_string()));
        }
        Ok(Some(arg.clone()))
    }

    fn next_arg(&mut self) -> Option<String> {
        if let Some(p) = self.pending.take() {
            return Some(p);
        }
        let arg = self.args.get(self.pos).cloned();
        if arg.is_some() {
            self.pos += 1;
        }
        arg
    }

    fn next_arg_required(&mut self) -> Result<String, Thrown> {
        self.next_arg().ok_or_else(|| {
            Thrown(format!(
                "java.lang.IllegalArgumentException: Argument expected after \"{}\"",
                self.args[self.pos - 1]
            ))
        })
    }

    /// `getUserIdMaybe`: `--user N` or the system user.
    fn user(&mut self) -> Result<i32, Thrown> {
        match self.next_option()?.as_deref() {
            Some("--user") => parse_int(&self.next_arg_required()?),
            _ => Ok(USER_SYSTEM),
        }
    }

    /// `getFlagsMaybe`.
    fn flags(&mut self) -> Result<i32, Thrown> {
        self.next_arg().map_or(Ok(0), |f| parse_int(&f))
    }
}

/// `Integer.parseInt`.
fn parse_int(s: &str) -> Result<i32, Thrown> {
    s.parse().map_err(|_| {
        Thrown(format!(
            "java.lang.NumberFormatException: For input string: \"{s}\""
        ))
    })
}

pub fn role(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let Some(cmd) = args.first().map(String::as_str) else {
        return help();
    };
    let mut a = Args::new(args);
    let result = match cmd {
        "get-role-holders" => get_role_holders(fw, &mut a),
        "add-role-holder" | "remove-role-holder" | "clear-role-holders" => {
            change_holders(fw, cmd, &mut a)
        }
        "set-bypassing-role-qualification" => a.next_arg_required().map(|value| {
            // Boolean.parseBoolean: anything but "true" (any case) is false.
            fw.sys.roles.bypass_qualification = value.eq_ignore_ascii_case("true");
            ShellOutput::ok(Vec::new())
        }),
        "help" | "-h" => return help(),
        other => {
            return ShellOutput {
                stdout: format!("Unknown command: {other}\n").into_bytes(),
                stderr: Vec::new(),
                exit_code: 255,
            }
        }
    };
    result.unwrap_or_else(|Thrown(e)| {
        ShellOutput::fail(
            format!("\nException occurred while executing '{cmd}':\n{e}\n"),
            255,
        )
    })
}

/// `onHelp`, which `handleDefaultCommands` follows with -1.
fn help() -> ShellOutput {
    ShellOutput {
        stdout: HELP.as_bytes().to_vec(),
        stderr: Vec::new(),
        exit_code: 255,
    }
}

fn get_role_holders(fw: &mut Framework, a: &mut Args) -> Result<ShellOutput, Thrown> {
    let user = a.user()?;
    let role = a.next_arg_required()?;
    if !user_exists(fw, user) {
        return Ok(ShellOutput::ok("\n"));
    }
    Ok(ShellOutput::ok(format!(
        "{}\n",
        fw.sys.roles.holders(&role).join(";")
    )))
}

fn change_holders(fw: &mut Framework, cmd: &str, a: &mut Args) -> Result<ShellOutput, Thrown> {
    let user = a.user()?;
    let role = a.next_arg_required()?;
    let package = match cmd {
        "clear-role-holders" => None,
        _ => Some(a.next_arg_required()?),
    };
    let flags = a.flags()?;
    if !user_exists(fw, user) {
        // RoleService returns without calling back, so the shell's future times out.
        fw.sys.clock.advance_ms(5000);
        return Ok(ShellOutput::fail(TIMED_OUT, 255));
    }
    let sys = &mut fw.sys;
    let result = match (cmd, package) {
        ("add-role-holder", Some(p)) => roles::add_holder(sys, &role, &p, flags),
        ("remove-role-holder", Some(p)) => roles::remove_holder(sys, &role, &p, flags),
        _ => roles::clear_holders(sys, &role, flags),
    };
    Ok(match result {
        Ok(()) => ShellOutput::ok(Vec::new()),
        Err(_) => ShellOutput::fail(FAILED, 255),
    })
}

/// Only the system user exists; RoleService logs any other it is asked about.
fn user_exists(fw: &mut Framework, user: i32) -> bool {
    if user == USER_SYSTEM {
        return true;
    }
    fw.sys.log(
        pid::SYSTEM_SERVER,
        'E',
        "RoleService",
        format!("user {user} does not exist"),
    );
    false
}
