//! Whether the phone restarted under an episode. A phone that reboots, or an emulator or
//! `droidmcp sim` started again on the same port, comes back under the same serial without any
//! command failing, so no transport error tells; but that phone never ran the task's setup, and a
//! verdict read from it is about another phone. The kernel's boot id tells: a fresh UUID at every
//! boot, readable by the shell user. An episode reads it after setup and again before each check.

use droidmcp_device::{Shell, ShellError};

/// Where Linux keeps the boot id (`random(4)`).
pub const BOOT_ID: &str = "/proc/sys/kernel/random/boot_id";

/// The phone's boot id; `None` when it has none to read (a failed `cat`, an answer that is no
/// UUID), so an episode there cannot tell a restart and does not pretend to.
pub async fn read(shell: &dyn Shell) -> Result<Option<String>, ShellError> {
    let out = shell.exec(&format!("cat {BOOT_ID}")).await?;
    let id = out.stdout_text().trim().to_string();
    Ok((out.success() && is_uuid(&id)).then_some(id))
}

/// `8-4-4-4-12` hex digits, as the kernel prints a UUID.
fn is_uuid(s: &str) -> bool {
    s.len() == 36
        && s.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_hexdigit(),
        })
}

#[cfg(test)]
mod tests {
    use super::is_uuid;

    #[test]
    fn only_the_kernels_uuid_form_is_a_boot_id() {
        assert!(is_uuid("0b1e6e4c-5d1f-4c8e-9a5e-3f6f1f2a7c11"));
        assert!(!is_uuid(""));
        assert!(!is_uuid(
            "cat: /proc/sys/kernel/random/boot_id: No such file or directory"
        ));
        assert!(!is_uuid("0b1e6e4c5d1f4c8e9a5e3f6f1f2a7c11----"));
        assert!(!is_uuid("0b1e6e4c-5d1f-4c8e-9a5e-3f6f1f2a7c1g"));
    }
}
