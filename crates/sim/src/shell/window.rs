//! The window manager and displays: `wm`, `dumpsys window` (windows and display contents),
//! `dumpsys display`, `dumpsys input`'s display viewports, `cmd display get-displays` and
//! `dumpsys SurfaceFlinger --display-id`, in Android 14's formats (`DisplayContent.dump`,
//! `DisplayRotation.dump`, `DisplayDeviceInfo`, `DisplayInfo`, native `DisplayViewport`).

use crate::apps;
use crate::framework::Framework;
use crate::screen::WindowKind;
use droidmcp_device::ShellOutput;

fn ok_empty() -> ShellOutput {
    ShellOutput::ok(Vec::new())
}

pub fn wm(fw: &mut Framework, args: &[String]) -> ShellOutput {
    let sub = args.first().map(String::as_str);
    let arg = args.get(1).map(String::as_str);
    match sub {
        Some("size") => {
            match arg {
                None => {
                    let p = fw.display.profile;
                    let mut s = format!("Physical size: {}x{}\n", p.width, p.height);
                    if let Some((w, h)) = fw.display.size_override {
                        s.push_str(&format!("Override size: {w}x{h}\n"));
                    }
                    return ShellOutput::ok(s);
                }
                Some("reset") => fw.display.size_override = None,
                Some(size) => {
                    let parsed = size
                        .split_once(['x', 'X'])
                        .and_then(|(w, h)| Some((w.parse::<i32>().ok()?, h.parse::<i32>().ok()?)))
                        .filter(|(w, h)| (1..=8192).contains(w) && (1..=8192).contains(h));
                    match parsed {
                        Some(s) => fw.display.size_override = Some(s),
                        None => return ShellOutput::fail(format!("Error: bad size {size}\n"), 255),
                    }
                }
            }
            fw.refresh_metrics();
            ok_empty()
        }
        Some("density") => {
            match arg {
                None => {
                    let mut s = format!("Physical density: {}\n", fw.display.profile.density);
                    if let Some(d) = fw.display.density_override {
                        s.push_str(&format!("Override density: {d}\n"));
                    }
                    return ShellOutput::ok(s);
                }
                Some("reset") => fw.display.density_override = None,
                Some(d) => match d.parse::<i32>() {
                    Ok(d) if (72..=1200).contains(&d) => fw.display.density_override = Some(d),
                    _ => return ShellOutput::fail(format!("Error: bad number {d}\n"), 255),
                },
            }
            fw.refresh_metrics();
            ok_empty()
        }
        Some("user-rotation") => ShellOutput::ok("lock 0\n"),
        _ => ShellOutput::ok(
            "Window manager (window) commands:\n  help\n      Print this help text.\n  size [reset|WxH|WdpxHdp] [-d DISPLAY_ID]\n    Return or override display size.\n    width and height in pixels unless suffixed with 'dp'.\n  density [reset|DENSITY] [-d DISPLAY_ID]\n    Return or override display density.\n",
        ),
    }
}

/// A stable pseudo object hash for `Window{…}` / `ActivityRecord{…}` names.
pub fn hash(seed: u64, salt: u32) -> String {
    let x = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((salt as u64).wrapping_mul(0x5851_F42D_4C95_7F2D));
    format!("{:07x}", (x >> 36) & 0xfff_ffff)
}

pub fn focus_lines(fw: &mut Framework) -> (String, String) {
    let seed = fw.config.seed;
    if !fw.screen_on {
        return ("mCurrentFocus=null".into(), "mFocusedApp=null".into());
    }
    let Some(task) = fw.foreground() else {
        return ("mCurrentFocus=null".into(), "mFocusedApp=null".into());
    };
    let activity = task.app.activity();
    let short = task.top_component();
    let window = if fw.shade_open {
        // SystemUI's NotificationShadeWindowView takes focus while the shade is down.
        format!("Window{{{} u0 NotificationShade}}", hash(seed, 2))
    } else if fw.overview {
        format!(
            "Window{{{} u0 {}/{}}}",
            hash(seed, 1),
            apps::launcher::PACKAGE,
            "com.google.android.apps.nexuslauncher.NexusLauncherActivity"
        )
    } else {
        format!(
            "Window{{{} u0 {}/{}}}",
            hash(seed, task.id),
            task.top_package(),
            activity
        )
    };
    (
        format!("mCurrentFocus={window}"),
        format!(
            "mFocusedApp=ActivityRecord{{{} u0 {short} t{}}}",
            hash(seed, task.id + 100),
            task.id
        ),
    )
}

/// `dumpsys window [windows|displays]`.
pub fn dumpsys_window(fw: &mut Framework, sub: &str) -> ShellOutput {
    fw.refresh_metrics();
    let (focus, app) = focus_lines(fw);
    let m = fw.sys.metrics;
    let p = fw.display.profile;
    let density = fw.display.density();
    let (w, h) = fw.display.size();
    // DisplayContent.dump: the focus lines follow mLayoutSeq, two spaces in, nothing before them
    // that contains "mCurrentFocus" (mobilecli reads the first such line).
    let displays = format!(
        "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0 (organized)\n    init={}x{} {}dpi mMinSizeOfResizeableTaskDp=220 cur={w}x{h} app={}x{} rng={}x{}-{}x{}\n    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion((0,0,{w},{h}))\n\n  mLayoutSeq={}\n  {focus}\n  {app}\n\n  mHoldScreenWindow=null\n  mObscuringWindow=null\n  mLastWakeLockHoldingWindow=null\n  mLastWakeLockObscuringWindow=null\n\n  DisplayRotation\n    mCurrentAppOrientation=SCREEN_ORIENTATION_UNSPECIFIED\n    mLastOrientation=-1\n    mRotation=0 mDeferredRotationPauseCount=0\n    mSupportAutoRotation=true\n    WindowOrientationListener\n      mEnabled=false\n      mCurrentRotation=ROTATION_0\n\n",
        p.width, p.height, density, m.width, m.content.bottom, m.width.min(m.height), m.width.min(m.height) - m.content.top, m.width.max(m.height), m.width.max(m.height) - m.content.top,
        fw.stack.len() * 13 + 241
    );
    if sub == "displays" {
        return ShellOutput::ok(displays);
    }
    let mut s = String::from("WINDOW MANAGER WINDOWS (dumpsys window windows)\n");
    let windows = fw.windows();
    for (i, w) in windows.iter().rev().enumerate() {
        let name = match w.kind {
            WindowKind::StatusBar => "StatusBar".to_string(),
            WindowKind::NavigationBar => "NavigationBar0".to_string(),
            WindowKind::HeadsUp | WindowKind::Shade => "NotificationShade".to_string(),
            WindowKind::Ime => "InputMethod".to_string(),
            WindowKind::App | WindowKind::Overview => {
                let act = fw
                    .foreground()
                    .map(|t| t.app.activity())
                    .unwrap_or_default();
                format!("{}/{}", w.package, act)
            }
        };
        s.push_str(&format!(
            "  Window #{i} Window{{{} u0 {name}}}:\n    mDisplayId=0 rootTaskId=1 mSession=Session{{{} 0:u0a10000}} mClient=android.os.BinderProxy@{}\n    mOwnerUid=10000 showForAllUsers=false package={} appop=NONE\n    mFrame={} isVisible=true\n",
            hash(fw.config.seed, i as u32 + 7),
            hash(fw.config.seed, i as u32 + 50),
            hash(fw.config.seed, i as u32 + 90),
            w.package,
            w.root.bounds
        ));
    }
    // WindowManagerService.dumpWindowsNoHeaderLocked: since Android 10 the focus lines live in
    // the display section, not here.
    s.push_str("\n  mHasPermanentDpad=false\n  mTopFocusedDisplayId=0\n  mInTouchMode=true\n");
    if fw.ime_visible {
        s.push_str(&format!(
            "  mInputMethodWindow=Window{{{} u0 InputMethod}}\n",
            hash(fw.config.seed, 3)
        ));
    }
    if sub == "windows" {
        return ShellOutput::ok(s);
    }
    s.push('\n');
    s.push_str(&displays);
    ShellOutput::ok(s)
}

/// The built-in display's physical id, as SurfaceFlinger names it (`local:` + this in unique ids).
const PHYSICAL_ID: &str = "4619827259835644672";

fn display_name(fw: &Framework) -> &'static str {
    fw.display.profile.model
}

/// `dumpsys SurfaceFlinger --display-id`.
pub fn surface_flinger_ids(fw: &Framework) -> ShellOutput {
    ShellOutput::ok(format!(
        "Display {PHYSICAL_ID} (HWC display 0): port=0 pnpId=GGL displayName=\"{}\"\n",
        display_name(fw)
    ))
}

/// `DisplayInfo.toString()` of the built-in display (what `cmd display get-displays` prints).
fn display_info(fw: &mut Framework) -> String {
    fw.refresh_metrics();
    let (w, h) = fw.display.size();
    let m = fw.sys.metrics;
    let density = fw.display.density();
    let state = if fw.screen_on { "ON" } else { "OFF" };
    let dpi = format!("{:.1}", density as f32 * 0.98);
    format!(
        "DisplayInfo{{\"Built-in Screen\", displayId 0, displayGroupId 0, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS, FLAG_TRUSTED, real {w} x {h}, largest app {} x {}, smallest app {} x {}, appVsyncOff 7500000, presDeadline 12666666, mode 1, defaultMode 1, modes [{{id=1, width={w}, height={h}, fps=60.0, alternativeRefreshRates=[], supportedHdrTypes=[]}}], hdrCapabilities HdrCapabilities{{mSupportedHdrTypes=[], mMaxLuminance=500.0, mMaxAverageLuminance=500.0, mMinLuminance=0.0}}, userDisabledHdrTypes [], minimalPostProcessingSupported false, rotation 0, state {state}, committedState {state}, type INTERNAL, uniqueId \"local:{PHYSICAL_ID}\", app {} x {}, density {density} ({dpi} x {dpi}) dpi, layerStack 0, colorMode 0, supportedColorModes [0], address {{port=0, model=0x401cec6a7a2b7b}}, deviceProductInfo DeviceProductInfo{{name=, manufacturerPnpId=GGL, productId=1, modelYear=null, manufactureDate=ManufactureDate{{week=27, year=2006}}, connectionToSinkType=0}}, removeMode 0, refreshRateOverride 0.0, brightnessMinimum 0.0, brightnessMaximum 1.0, brightnessDefault 0.4, installOrientation ROTATION_0}}",
        w.max(h),
        w.max(h) - m.content.top,
        w.min(h),
        w.min(h) - m.content.top,
        m.width,
        m.content.bottom
    )
}

/// `cmd display …`: `get-displays` (DisplayManagerShellCommand) and its help.
pub fn cmd_display(fw: &mut Framework, args: &[String]) -> ShellOutput {
    match args.first().map(String::as_str) {
        Some("get-displays") => {
            let info = display_info(fw);
            ShellOutput::ok(format!("Displays:\n  Display id 0: {info}\n"))
        }
        None | Some("help") => ShellOutput::ok("Display manager commands:\n  help\n    Print this help text.\n  get-displays [-c|--category CATEGORY] [-i|--ids-only] [-t|--type TYPE]\n    Returns the current displays.\n"),
        Some(other) => ShellOutput::fail(format!("Unknown command: {other}\n"), 255),
    }
}

/// Where the logical display (`wm size`, rotation 0: the phone never rotates) lands on the panel:
/// scaled to fit and centred, as DisplayManager maps an overridden size. `[left, top, right,
/// bottom]`.
fn physical_frame(fw: &Framework) -> [i32; 4] {
    let (lw, lh) = fw.display.size();
    let (pw, ph) = (fw.display.profile.width, fw.display.profile.height);
    let (fw_, fh) = if (lw as i64) * (ph as i64) > (lh as i64) * (pw as i64) {
        (pw, (lh as i64 * pw as i64 / lw.max(1) as i64) as i32)
    } else {
        ((lw as i64 * ph as i64 / lh.max(1) as i64) as i32, ph)
    };
    let (left, top) = ((pw - fw_) / 2, (ph - fh) / 2);
    [left, top, left + fw_, top + fh]
}

/// The input system's viewport of the built-in display, as native `DisplayViewport::toString`
/// (Android 14) prints it.
fn viewport(fw: &Framework) -> String {
    let (lw, lh) = fw.display.size();
    let (pw, ph) = (fw.display.profile.width, fw.display.profile.height);
    let [left, top, right, bottom] = physical_frame(fw);
    format!(
        "Viewport INTERNAL: displayId=0, uniqueId=local:{PHYSICAL_ID}, port=0, orientation=0, \
         logicalFrame=[0, 0, {lw}, {lh}], physicalFrame=[{left}, {top}, {right}, {bottom}], \
         deviceSize=[{pw}, {ph}], isActive=[1]"
    )
}

/// The touchscreen's entry in the reader's device list (`InputDevice::dump`'s first line, then
/// `TouchInputMapper::dump`'s header and its `dumpDisplay` block: the viewport, `DisplayBounds`,
/// `PhysicalFrameInRotatedDisplay`, `InputDeviceOrientation` as Android 14 prints it, a number).
/// android_env reads the screen's rotation from the `InputDeviceOrientation` line. The goldfish
/// emulator's touchscreen name; the mapper's parameters, axes and calibration are left out.
fn touchscreen(fw: &Framework) -> String {
    let [left, top, right, bottom] = physical_frame(fw);
    let (pw, ph) = (fw.display.profile.width, fw.display.profile.height);
    format!(
        "  Device 2: virtio_input_multi_touch_1\n    Touch Input Mapper (mode - DIRECT):\n      {}\n      \
         DisplayBounds: {pw}x{ph}\n      PhysicalFrameInRotatedDisplay: Rect{{{left}, {top}, {right}, {bottom}}}\n      \
         InputDeviceOrientation: 0\n",
        viewport(fw)
    )
}

/// `dumpsys input`: InputManager's dump as far as the phone has it: the touchscreen in the reader's
/// device list, the reader's configured viewports (the lines tools grep for `logicalFrame`/
/// `physicalFrame`; a real dump prints the viewport in both places too) and the dispatcher's focus.
/// Other devices, the mappers' parameters and the event log of a real dump are left out.
pub fn dumpsys_input(fw: &mut Framework) -> ShellOutput {
    // The input window is named `HASH TITLE` where WindowManager writes `Window{HASH u0 TITLE}`.
    let (focus, _) = focus_lines(fw);
    let focused = focus
        .strip_prefix("mCurrentFocus=Window{")
        .and_then(|w| w.strip_suffix('}'))
        .map(|w| w.replacen(" u0 ", " ", 1));
    let focused = match focused {
        Some(name) => format!("    displayId=0, name='{name}'\n"),
        None => String::new(),
    };
    ShellOutput::ok(format!(
        "INPUT MANAGER (dumpsys input)\n\nInput Reader State (Nums of device: 1):\n{}  Configuration:\n    Viewports:\n      {}\n\nInput Dispatcher State:\n  DispatchEnabled: true\n  DispatchFrozen: false\n  InputFilterEnabled: false\n  FocusedDisplayId: 0\n  FocusedWindows:\n{focused}",
        touchscreen(fw),
        viewport(fw)
    ))
}

/// `dumpsys display`: the display manager's state, viewports and the logical display.
pub fn dumpsys_display(fw: &mut Framework) -> ShellOutput {
    let info = display_info(fw);
    let (w, h) = fw.display.size();
    let state = if fw.screen_on { "ON" } else { "OFF" };
    ShellOutput::ok(format!(
        "DISPLAY MANAGER (dumpsys display)\n  mSafeMode=false\n  mPendingTraversal=false\n  mViewports=[DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, uniqueId='local:{PHYSICAL_ID}', physicalPort=0, orientation=0, logicalFrame=Rect(0, 0 - {w}, {h}), physicalFrame=Rect(0, 0 - {w}, {h}), deviceWidth={w}, deviceHeight={h}}}]\n  mDefaultDisplayDefaultColorMode=0\n  mWifiDisplayScanRequestCount=0\n\nDisplay Adapters: size=1\n  LocalDisplayAdapter\n\nDisplay Devices: size=1\n  DisplayDeviceInfo{{\"Built-in Screen\": uniqueId=\"local:{PHYSICAL_ID}\", {w} x {h}, modeId 1, renderFrameRate 60.0, defaultModeId 1, state {state}, committedState {state}}}\n\nLogical Displays: size=1\n  Display 0:\n    mDisplayId=0\n    mIsEnabled=true\n    mBaseDisplayInfo={info}\n\n  Display Id=0\n  Display State={state}\n"
    ))
}
