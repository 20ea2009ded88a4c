//! Android behaviour over a [`Shell`]: actions, observations and app management expressed as shell
//! commands and file pulls, identical for real phones and the embedded phone.

pub mod shell;

pub use shell::{Shell, ShellError, ShellOutput};
