//! RoleManager's role holders (the Permission module's RoleService and PermissionController's
//! RoleControllerServiceImpl, Android 14). Since Android 10 a default app *is* a role: telephony
//! delivers texts to the SMS role's holder (`SmsApplication.getDefaultSmsPackage` asks
//! `RoleManager.getSmsRoleHolder`), and the holder is the preferred activity for `SENDTO
//! sms:/smsto:/mms:/mmsto:`.
//!
//! `Settings.Secure.sms_default_application` is not the role: RoleService reads it only to migrate
//! a pre-role holder once (`RoleServicePlatformHelperImpl.getLegacyRoleState`) and nothing in the
//! role service or SmsApplication writes it, so `settings put secure sms_default_application X`
//! moves nothing, as on Android 14, and the setting keeps whatever was put there.
//!
//! Only the roles an app on this phone qualifies for are modelled; each holds its default holder
//! at boot (`config_default*`), lives in [`System`] and so travels with snapshots.

use super::system::{pid, System};

pub const SMS: &str = "android.app.role.SMS";
pub const DIALER: &str = "android.app.role.DIALER";
pub const BROWSER: &str = "android.app.role.BROWSER";
pub const HOME: &str = "android.app.role.HOME";

/// `RoleManager.MANAGE_HOLDERS_FLAG_DONT_KILL_APP`, the one flag the controller accepts.
const FLAG_DONT_KILL_APP: i32 = 1;

/// PermissionController's log tag (`RoleControllerServiceImpl.class.getSimpleName()`).
const CONTROLLER_TAG: &str = "RoleControllerServiceImpl";

/// One exclusive role: its default holder and the installed packages that declare what its
/// `required-components` ask for (roles.xml).
struct RoleDef {
    name: &'static str,
    default_holder: &'static str,
    qualifying: &'static [&'static str],
}

/// The SMS role qualifies apps with an SMS_DELIVER receiver, a WAP_PUSH_DELIVER receiver, a
/// RESPOND_VIA_MESSAGE service and a SENDTO `smsto:` activity: Google Messages and Simple SMS
/// Messenger (its 5.19.3 manifest declares all four).
const ROLES: &[RoleDef] = &[
    RoleDef {
        name: BROWSER,
        default_holder: "com.android.chrome",
        qualifying: &["com.android.chrome"],
    },
    RoleDef {
        name: DIALER,
        default_holder: "com.google.android.dialer",
        qualifying: &["com.google.android.dialer"],
    },
    RoleDef {
        name: HOME,
        default_holder: "com.google.android.apps.nexuslauncher",
        qualifying: &["com.google.android.apps.nexuslauncher"],
    },
    RoleDef {
        name: SMS,
        default_holder: "com.google.android.apps.messaging",
        qualifying: &[
            "com.google.android.apps.messaging",
            "com.simplemobiletools.smsmessenger",
        ],
    },
];

fn role_def(name: &str) -> Option<&'static RoleDef> {
    ROLES.iter().find(|r| r.name == name)
}

/// The packages that qualify for `role`, in the package manager's order (empty for an unknown
/// role): the request dialog lists them.
pub fn qualifying(role: &str) -> &'static [&'static str] {
    role_def(role).map(|r| r.qualifying).unwrap_or(&[])
}

/// Each role's holders, as RoleUserState keeps them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roles {
    holders: Vec<(&'static str, Vec<String>)>,
    /// `cmd role set-bypassing-role-qualification true`: any package may hold a role.
    pub bypass_qualification: bool,
    /// PermissionController's `UserDeniedManager`: requests the user turned down, by role and
    /// package.
    denied: Vec<(String, String, Denied)>,
}

/// How the user turned a role request down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Denied {
    /// Cancelled: the next request offers "Don't ask again".
    Once,
    /// "Don't ask again": later requests end at once.
    Always,
}

impl Default for Roles {
    /// Every role held by its default holder, as `grantDefaultRoles` leaves a first boot.
    fn default() -> Self {
        Roles {
            holders: ROLES
                .iter()
                .map(|r| (r.name, vec![r.default_holder.to_string()]))
                .collect(),
            bypass_qualification: false,
            denied: Vec::new(),
        }
    }
}

impl Roles {
    /// The role's holders (none for a role this phone does not have).
    pub fn holders(&self, role: &str) -> &[String] {
        self.holders
            .iter()
            .find(|(name, _)| *name == role)
            .map(|(_, h)| h.as_slice())
            .unwrap_or(&[])
    }

    pub fn holds(&self, role: &str, package: &str) -> bool {
        self.holders(role).iter().any(|p| p == package)
    }

    /// `RoleManager.getSmsRoleHolder`: the default SMS app, if any.
    pub fn sms_holder(&self) -> Option<&str> {
        self.holders(SMS).first().map(String::as_str)
    }

    pub fn denied(&self, role: &str, package: &str) -> Option<Denied> {
        self.denied
            .iter()
            .find(|(r, p, _)| r == role && p == package)
            .map(|(_, _, d)| *d)
    }

    pub fn set_denied(&mut self, role: &str, package: &str, denied: Denied) {
        self.clear_denied(role, package);
        self.denied
            .push((role.to_string(), package.to_string(), denied));
    }

    pub fn clear_denied(&mut self, role: &str, package: &str) {
        self.denied.retain(|(r, p, _)| !(r == role && p == package));
    }

    fn holders_mut(&mut self, role: &'static str) -> &mut Vec<String> {
        if let Some(pos) = self.holders.iter().position(|(name, _)| *name == role) {
            &mut self.holders[pos].1
        } else {
            self.holders.push((role, Vec::new()));
            let last = self.holders.len() - 1;
            &mut self.holders[last].1
        }
    }
}

/// Why the role controller refused a change; the shell prints only "Failed", the reason goes to
/// logcat in the controller's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoleError {
    #[error("flags is invalid, flags: 0x{0:x}")]
    InvalidFlags(i32),
    #[error("Unknown role: {0}")]
    UnknownRole(String),
    #[error("Package does not qualify for the role, package: {package}, role: {role}")]
    NotQualified { package: String, role: String },
}

/// Logs as PermissionController's role controller.
fn controller_log(sys: &mut System, level: char, message: impl Into<String>) {
    sys.log(pid::PERMISSION_CONTROLLER, level, CONTROLLER_TAG, message);
}

/// Checks the flags and the role as `onAddRoleHolder`/`onRemoveRoleHolder`/`onClearRoleHolders`
/// begin, logging a refusal as the controller does.
fn checked_role(sys: &mut System, role: &str, flags: i32) -> Result<&'static RoleDef, RoleError> {
    let result = if flags & !FLAG_DONT_KILL_APP != 0 {
        Err(RoleError::InvalidFlags(flags))
    } else {
        role_def(role).ok_or_else(|| RoleError::UnknownRole(role.to_string()))
    };
    if let Err(e) = &result {
        controller_log(sys, 'E', e.to_string());
    }
    result
}

/// `RoleManager.addRoleHolderAsUser`: an exclusive role drops its other holders first.
pub fn add_holder(
    sys: &mut System,
    role: &str,
    package: &str,
    flags: i32,
) -> Result<(), RoleError> {
    let def = checked_role(sys, role, flags)?;
    if !sys.roles.bypass_qualification && !def.qualifying.contains(&package) {
        let e = RoleError::NotQualified {
            package: package.to_string(),
            role: role.to_string(),
        };
        controller_log(sys, 'E', e.to_string());
        return Err(e);
    }
    if sys.roles.holds(def.name, package) {
        controller_log(
            sys,
            'I',
            format!("Package is already a role holder, package: {package}, role: {role}"),
        );
    }
    let holders = sys.roles.holders_mut(def.name);
    holders.clear();
    holders.push(package.to_string());
    Ok(())
}

/// `RoleManager.removeRoleHolderAsUser`: removing a package that does not hold the role changes
/// nothing; a role left empty goes back to its fallback holder, the default one.
pub fn remove_holder(
    sys: &mut System,
    role: &str,
    package: &str,
    flags: i32,
) -> Result<(), RoleError> {
    let def = checked_role(sys, role, flags)?;
    sys.roles.holders_mut(def.name).retain(|p| p != package);
    add_fallback_holder(sys, def);
    Ok(())
}

/// `RoleManager.clearRoleHoldersAsUser`: every holder goes, then the fallback holder comes back.
pub fn clear_holders(sys: &mut System, role: &str, flags: i32) -> Result<(), RoleError> {
    let def = checked_role(sys, role, flags)?;
    sys.roles.holders_mut(def.name).clear();
    add_fallback_holder(sys, def);
    Ok(())
}

/// `addFallbackRoleHolderMaybe`: an empty role gets its default holder again.
fn add_fallback_holder(sys: &mut System, def: &'static RoleDef) {
    if !sys.roles.holders(def.name).is_empty() {
        return;
    }
    controller_log(
        sys,
        'I',
        format!(
            "Adding package as fallback role holder, package: {}, role: {}",
            def.default_holder, def.name
        ),
    );
    sys.roles
        .holders_mut(def.name)
        .push(def.default_holder.to_string());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_role_starts_with_its_default_holder_and_stays_exclusive() {
        let mut roles = Roles::default();
        assert_eq!(
            roles.sms_holder(),
            Some("com.google.android.apps.messaging")
        );
        roles.holders_mut(SMS).push("x".into());
        assert_eq!(roles.holders(SMS).len(), 2);
        assert!(roles.holders("android.app.role.NOPE").is_empty());
        assert_eq!(qualifying(SMS).len(), 2);
    }
}
