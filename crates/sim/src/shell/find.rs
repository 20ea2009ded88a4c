//! toybox `find` (`toys/posix/find.c`): paths, then an expression evaluated left to right for each
//! file the way toybox does it: tests and actions in order, `-o` ending the decision once it is
//! true, `!`/`-not` and `( )` kept on a stack, `-mindepth`/`-maxdepth` being tests where they
//! stand, `-delete` forcing depth-first order, and a `-print` added when the expression has no
//! action. Paths print as the operand spells them (`/storage/emulated/0/` + `Download`), with
//! directory entries sorted (toybox follows readdir order; the phone keeps listings sorted).

use std::path::{Path, PathBuf};

use crate::framework::Framework;
use droidmcp_device::ShellOutput;

use super::args::{self, Spec};
use super::{fs, glob};

/// `find [-HL] [DIR…] [EXPRESSION]`.
pub fn find(fw: &mut Framework, argv: &[String]) -> ShellOutput {
    let spec = Spec {
        pass_unknown: true,
        stop_early: true,
        ..Spec::new("HL")
    };
    let parsed = match args::parse(argv, spec) {
        Ok(parsed) => parsed,
        Err(c) => {
            return ShellOutput::fail(
                format!("find: Unknown option '{c}' (see \"find --help\")\n"),
                1,
            )
        }
    };
    let split = parsed
        .operands
        .iter()
        .position(|a| a.starts_with(['-', '!', '(']))
        .unwrap_or(parsed.operands.len());
    let (paths, filter) = parsed.operands.split_at(split);
    let paths: Vec<String> = if paths.is_empty() {
        vec![".".into()]
    } else {
        paths.to_vec()
    };
    let mut run = Run {
        filter,
        depth_first: false,
        out: ShellOutput::default(),
        quit: false,
    };
    // The first pass checks the expression and finds out whether `-delete`/`-depth` is in it.
    if let Err(message) = run.evaluate(None) {
        return ShellOutput::fail(format!("find: {message}\n"), 1);
    }
    for path in &paths {
        let Some(host) = fs::resolve(fw, path) else {
            run.error(format!("'{path}': Permission denied"));
            continue;
        };
        match std::fs::symlink_metadata(&host) {
            Ok(meta) => {
                if let Err(message) = run.walk(path.clone(), &host, &meta, 0) {
                    // A bad `-type` letter is only found on the first file, as in toybox.
                    run.out
                        .stderr
                        .extend_from_slice(format!("find: {message}\n").as_bytes());
                    run.out.exit_code = 1;
                    return run.out;
                }
            }
            Err(e) => run.error(format!("'{path}': {}", fs::reason(&e))),
        }
        if run.quit {
            break;
        }
    }
    run.out
}

/// One file the expression is evaluated for.
struct Node<'a> {
    path: &'a str,
    host: &'a Path,
    meta: &'a std::fs::Metadata,
    depth: usize,
}

struct Run<'a> {
    filter: &'a [String],
    depth_first: bool,
    out: ShellOutput,
    quit: bool,
}

impl Run<'_> {
    fn error(&mut self, message: String) {
        self.out
            .stderr
            .extend_from_slice(format!("find: {message}\n").as_bytes());
        self.out.exit_code = 1;
    }

    /// Evaluates `path` and (unless pruned) what is under it, in toybox's order.
    fn walk(
        &mut self,
        path: String,
        host: &Path,
        meta: &std::fs::Metadata,
        depth: usize,
    ) -> Result<(), String> {
        let node = Node {
            path: &path,
            host,
            meta,
            depth,
        };
        let is_dir = meta.is_dir();
        let recurse = if is_dir && self.depth_first {
            true
        } else {
            self.evaluate(Some(&node))?
        };
        if is_dir && recurse && !self.quit {
            let mut children: Vec<(String, PathBuf)> = std::fs::read_dir(host)
                .map(|rd| {
                    rd.flatten()
                        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
                        .collect()
                })
                .unwrap_or_default();
            children.sort();
            for (name, child) in children {
                let Ok(child_meta) = std::fs::symlink_metadata(&child) else {
                    continue;
                };
                let child_path = if path.ends_with('/') {
                    format!("{path}{name}")
                } else {
                    format!("{path}/{name}")
                };
                self.walk(child_path, &child, &child_meta, depth + 1)?;
                if self.quit {
                    return Ok(());
                }
            }
        }
        if is_dir && self.depth_first && !self.quit {
            self.evaluate(Some(&node))?;
        }
        Ok(())
    }

    /// toybox's `do_find`: with no node, the syntax pass; with one, whether to descend into it.
    fn evaluate(&mut self, node: Option<&Node>) -> Result<bool, String> {
        let filter = self.filter;
        let (mut active, mut test) = (node.is_some(), node.is_some());
        let (mut not, mut print, mut recurse) = (false, false, true);
        let mut stack: Vec<(bool, bool)> = Vec::new();
        let bad = |arg: &str| format!("bad arg '{arg}'");
        let mut i = 0;
        while i < filter.len() {
            let word = filter[i].as_str();
            let check = active && test;
            let Some(name) = word.strip_prefix('-') else {
                match word {
                    "!" => not ^= check,
                    "(" => {
                        stack.push((not, active));
                        active &= check;
                        not = false;
                    }
                    ")" => {
                        let (was_not, was_active) = stack.pop().ok_or_else(|| bad(word))?;
                        active = was_active;
                        if active && was_not {
                            test = !test;
                        }
                        not = false;
                    }
                    _ => return Err(bad(word)),
                }
                i += 1;
                continue;
            };
            match name {
                "xdev" | "noleaf" => {}
                "depth" | "d" => self.depth_first = true,
                "delete" => {
                    self.depth_first = true;
                    if let (Some(n), true) = (node, check) {
                        let removed = if n.meta.is_dir() {
                            std::fs::remove_dir(n.host)
                        } else {
                            std::fs::remove_file(n.host)
                        };
                        test = removed.is_ok();
                    }
                }
                "o" | "or" => {
                    if not {
                        return Err(bad(word));
                    }
                    if active {
                        if test {
                            active = false;
                        } else {
                            test = true;
                        }
                    }
                }
                "a" | "and" => {
                    if not {
                        return Err(bad(word));
                    }
                }
                "not" => {
                    not ^= check;
                    i += 1;
                    continue;
                }
                "true" => test |= check,
                "false" => test &= !check,
                "print" | "print0" => {
                    print = true;
                    if let (Some(n), true) = (node, check) {
                        let end = if name == "print" { "\n" } else { "\0" };
                        self.out
                            .stdout
                            .extend_from_slice(format!("{}{end}", n.path).as_bytes());
                    }
                }
                "empty" => {
                    if let (Some(n), true) = (node, check) {
                        test = if n.meta.is_dir() {
                            std::fs::read_dir(n.host).is_ok_and(|mut d| d.next().is_none())
                        } else {
                            n.meta.is_file() && n.meta.len() == 0
                        };
                    }
                }
                "prune" => {
                    if node.is_some_and(|n| check && n.meta.is_dir() && !self.depth_first) {
                        recurse = false;
                    }
                }
                "quit" => {
                    if node.is_some() && check {
                        self.quit = true;
                        return Ok(false);
                    }
                }
                "name" | "iname" | "path" | "ipath" | "wholename" | "iwholename" | "type"
                | "mindepth" | "maxdepth" | "size" => {
                    i += 1;
                    let Some(arg) = filter.get(i) else {
                        return Err(format!("'{word}' needs 1 arg"));
                    };
                    let Some(n) = node.filter(|_| check) else {
                        i += 1;
                        if active && not {
                            test = !test;
                        }
                        not = false;
                        continue;
                    };
                    match name {
                        "type" => test = type_matches(arg, n.meta)?,
                        "mindepth" | "maxdepth" => {
                            let limit: usize =
                                arg.parse().map_err(|_| format!("not integer '{arg}'"))?;
                            if name == "mindepth" {
                                test = n.depth >= limit;
                                recurse &= !(n.depth == limit && not);
                            } else {
                                test = n.depth <= limit;
                                recurse &= !(n.depth == limit && !not);
                            }
                        }
                        "size" => test = n.meta.is_file() && size_matches(n.meta.len(), arg)?,
                        _ => {
                            let fold = name.starts_with('i');
                            let whole = !name.ends_with("name") || name.ends_with("wholename");
                            let subject = if whole {
                                n.path.to_string()
                            } else {
                                Path::new(n.path)
                                    .file_name()
                                    .map(|f| f.to_string_lossy().into_owned())
                                    .unwrap_or_else(|| n.path.to_string())
                            };
                            test = if fold {
                                glob::fnmatch(&arg.to_lowercase(), &subject.to_lowercase())
                            } else {
                                glob::fnmatch(arg, &subject)
                            };
                        }
                    }
                }
                _ => return Err(bad(word)),
            }
            if active && not {
                test = !test;
            }
            not = false;
            i += 1;
        }
        if let (Some(n), false, true) = (node, print, test) {
            self.out
                .stdout
                .extend_from_slice(format!("{}\n", n.path).as_bytes());
        }
        Ok(recurse)
    }
}

/// `-type [bcdflps]` (letters may be listed, separated by commas).
fn type_matches(letters: &str, meta: &std::fs::Metadata) -> Result<bool, String> {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    let mut hit = false;
    for c in letters.chars().filter(|&c| c != ',') {
        hit |= match c {
            'b' => t.is_block_device(),
            'c' => t.is_char_device(),
            'd' => t.is_dir(),
            'f' => t.is_file(),
            'l' => t.is_symlink(),
            'p' => t.is_fifo(),
            's' => t.is_socket(),
            _ => return Err(format!("bad -type '{c}'")),
        };
    }
    Ok(hit)
}

/// `-size [+-]N[c]`: in 512-byte blocks rounded up, or bytes with `c`.
fn size_matches(size: u64, spec: &str) -> Result<bool, String> {
    let (sign, rest) = match spec.strip_prefix(['+', '-']) {
        Some(rest) => (spec.chars().next(), rest),
        None => (None, spec),
    };
    let (digits, bytes) = match rest.strip_suffix('c') {
        Some(d) => (d, true),
        None => (rest, false),
    };
    let want: u64 = digits.parse().map_err(|_| format!("{spec} not [+-]N"))?;
    let have = if bytes { size } else { size.div_ceil(512) };
    Ok(match sign {
        Some('+') => have > want,
        Some('-') => have < want,
        _ => have == want,
    })
}
