//! android_env's accessibility forwarder on the embedded phone: a tonic `A11yService` server in
//! the test takes the place of android_env's `A11yGrpcWrapper`; the phone is driven only through
//! its shell, with the broadcasts and settings the wrapper sends, and the forests it sends are
//! checked field by field against the phone's own `uiautomator dump`.

use std::time::Duration;

use droidmcp::grpc::proto::android_env::{
    a11y_service_server::{A11yService, A11yServiceServer},
    android_accessibility_window_info::WindowType,
    AndroidAccessibilityAction, AndroidAccessibilityForest, AndroidAccessibilityNodeInfo,
    ForestResponse, ProtoRect,
};
use droidmcp::sim::Phone;
use tokio::sync::mpsc;
use tonic::{Request, Response, Status};

use crate::util::{boot, sh};

const COMPONENT: &str = "com.google.androidenv.accessibilityforwarder/com.google.androidenv.accessibilityforwarder.FlagsBroadcastReceiver";
const SERVICE: &str = "com.google.androidenv.accessibilityforwarder/com.google.androidenv.accessibilityforwarder.AccessibilityForwarder";

/// android_env's servicer, reduced to handing each forest to the test.
struct Servicer(mpsc::UnboundedSender<AndroidAccessibilityForest>);

#[tonic::async_trait]
impl A11yService for Servicer {
    async fn send_forest(
        &self,
        request: Request<AndroidAccessibilityForest>,
    ) -> Result<Response<ForestResponse>, Status> {
        let _ = self.0.send(request.into_inner());
        Ok(Response::new(ForestResponse::default()))
    }
}

/// A server on a free loopback port: its port and the forests it receives.
async fn server() -> (u16, mpsc::UnboundedReceiver<AndroidAccessibilityForest>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(A11yServiceServer::new(Servicer(tx)))
            .serve_with_incoming(tonic::transport::server::TcpIncoming::from(listener)),
    );
    (port, rx)
}

/// What android_env's wrapper sends (`_start_a11y_services`, `_enable_a11y_tree_logs`,
/// `_configure_grpc` of android-env 1.2.3, whose SET_GRPC names no host), run through
/// `Phone::exec` on a blocking thread as adbd would.
async fn shell(phone: &Phone, line: &str) -> String {
    let phone = phone.clone();
    let line = line.to_string();
    tokio::task::spawn_blocking(move || sh(&phone, &line))
        .await
        .unwrap()
}

async fn next_forest(
    rx: &mut mpsc::UnboundedReceiver<AndroidAccessibilityForest>,
) -> AndroidAccessibilityForest {
    tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("a forest within 10 s")
        .expect("the server is up")
}

/// The newest forest after everything already received (the forwarder sends every 100 ms).
async fn fresh_forest(
    rx: &mut mpsc::UnboundedReceiver<AndroidAccessibilityForest>,
) -> AndroidAccessibilityForest {
    tokio::time::sleep(Duration::from_millis(300)).await;
    while rx.try_recv().is_ok() {}
    next_forest(rx).await
}

/// `(class, text, resource-id, bounds)` of every node of a `uiautomator dump`.
fn dump_nodes(xml: &str) -> Vec<(String, String, String, String)> {
    let re = regex::Regex::new(
        r#"<node (?:NAF="true" )?index="\d+" text="([^"]*)" resource-id="([^"]*)" class="([^"]*)"[^>]*bounds="([^"]*)""#,
    )
    .unwrap();
    let mut v: Vec<_> = re
        .captures_iter(xml)
        .map(|c| {
            (
                c[3].to_string(),
                c[1].to_string(),
                c[2].to_string(),
                c[4].to_string(),
            )
        })
        .collect();
    v.sort();
    v
}

fn bounds_text(r: &ProtoRect) -> String {
    format!("[{},{}][{},{}]", r.left, r.top, r.right, r.bottom)
}

fn rect_of(bounds: &str) -> ProtoRect {
    let n: Vec<i32> = bounds
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    ProtoRect {
        left: n[0],
        top: n[1],
        right: n[2],
        bottom: n[3],
    }
}

fn actions(ids: &[i32]) -> Vec<AndroidAccessibilityAction> {
    ids.iter()
        .map(|&id| AndroidAccessibilityAction {
            id,
            label: String::new(),
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn set_grpc_makes_the_phone_send_forests_of_its_screen() {
    let phone = boot(0);
    let (port, mut rx) = server().await;

    assert_eq!(
        shell(&phone, "pm list packages accessibilityforwarder").await,
        "package:com.google.androidenv.accessibilityforwarder\n"
    );
    shell(
        &phone,
        &format!("settings put secure enabled_accessibility_services {SERVICE}"),
    )
    .await;
    assert_eq!(
        shell(
            &phone,
            &format!("am broadcast -a accessibility_forwarder.intent.action.ENABLE_ACCESSIBILITY_TREE_LOGS -n {COMPONENT}")
        )
        .await,
        "Broadcasting: Intent { act=accessibility_forwarder.intent.action.ENABLE_ACCESSIBILITY_TREE_LOGS flg=0x400000 cmp=com.google.androidenv.accessibilityforwarder/.FlagsBroadcastReceiver }\nBroadcast completed: result=0\n"
    );
    shell(
        &phone,
        "am start -a android.intent.action.INSERT -d content://com.android.contacts/contacts",
    )
    .await;
    // android_env's adb_call_parser puts the extras inside the action (`-a 'ACTION --ei "port" N'`).
    assert_eq!(
        shell(
            &phone,
            &format!("am broadcast -a accessibility_forwarder.intent.action.SET_GRPC --ei \"port\" {port} -n {COMPONENT}")
        )
        .await,
        "Broadcasting: Intent { act=accessibility_forwarder.intent.action.SET_GRPC flg=0x400000 cmp=com.google.androidenv.accessibilityforwarder/.FlagsBroadcastReceiver (has extras) }\nBroadcast completed: result=0\n"
    );
    let log = shell(&phone, "logcat -d -s FlagsBroadcastReceiver").await;
    assert!(
        log.contains(&format!(
            "FlagsBroadcastReceiver: Setting gRPC endpoint to 10.0.2.2:{port}."
        )),
        "{log}"
    );

    let forest = fresh_forest(&mut rx).await;
    let kinds: Vec<(i32, i32, bool, bool)> = forest
        .windows
        .iter()
        .map(|w| (w.window_type, w.layer, w.is_active, w.is_focused))
        .collect();
    assert_eq!(
        kinds,
        [
            (WindowType::TypeApplication as i32, 0, true, true),
            (WindowType::TypeSystem as i32, 1, false, false),
            (WindowType::TypeSystem as i32, 2, false, false),
            (WindowType::TypeInputMethod as i32, 3, false, false),
        ],
        "the app window, the status bar, the navigation bar, the keyboard (the editor focuses its first field), bottom to top"
    );
    for w in &forest.windows {
        let nodes = &w.tree.as_ref().unwrap().nodes;
        for (i, n) in nodes.iter().enumerate() {
            assert_eq!(n.unique_id, i as i32, "ids are the breadth-first order");
            assert_eq!(n.window_id, w.id);
            for &c in &n.child_ids {
                assert_eq!(
                    nodes[c as usize].depth,
                    n.depth + 1,
                    "a child is one level down"
                );
            }
        }
        assert_eq!(
            w.bounds_in_screen, nodes[0].bounds_in_screen,
            "a window is as large as its root"
        );
    }
    let app = forest.windows[0].tree.as_ref().unwrap();
    assert_eq!(
        (
            app.nodes[0].class_name.as_str(),
            app.nodes[0].depth,
            &app.nodes[0].bounds_in_screen
        ),
        (
            "android.widget.FrameLayout",
            0,
            &Some(ProtoRect {
                left: 0,
                top: 0,
                right: 1080,
                bottom: 2400
            })
        )
    );

    // Below the window's root, the tree is what `uiautomator dump --compressed` shows.
    let xml = shell(&phone, "uiautomator dump --compressed /dev/tty").await;
    let mut from_forest: Vec<_> = app.nodes[1..]
        .iter()
        .map(|n| {
            (
                n.class_name.clone(),
                n.text.clone(),
                n.view_id_resource_name.clone(),
                bounds_text(n.bounds_in_screen.as_ref().unwrap()),
            )
        })
        .collect();
    from_forest.sort();
    assert_eq!(from_forest, dump_nodes(&xml));

    // The first-name field, every field the forwarder fills.
    let first_bounds = dump_nodes(&xml)
        .into_iter()
        .find(|n| n.2 == "com.google.android.contacts:id/first_name")
        .expect("the editor shows a first-name field")
        .3;
    let first = app
        .nodes
        .iter()
        .find(|n| n.view_id_resource_name == "com.google.android.contacts:id/first_name")
        .unwrap();
    let expected =
        |text: &str, selection: i64, focusable_action: i32| AndroidAccessibilityNodeInfo {
            unique_id: first.unique_id,
            bounds_in_screen: Some(rect_of(&first_bounds)),
            class_name: "android.widget.EditText".into(),
            content_description: String::new(),
            hint_text: "First name".into(),
            package_name: "com.google.android.contacts".into(),
            text: text.into(),
            text_selection_start: selection,
            text_selection_end: selection,
            view_id_resource_name: "com.google.android.contacts:id/first_name".into(),
            window_id: forest.windows[0].id,
            is_checkable: false,
            is_checked: false,
            is_clickable: true,
            is_editable: true,
            is_enabled: true,
            is_focusable: true,
            is_focused: false,
            is_long_clickable: true,
            is_password: false,
            is_scrollable: false,
            is_selected: false,
            is_visible_to_user: true,
            actions: actions(&[focusable_action, 0x40, 0x10, 0x20, 0x200000, 0x01020036]),
            child_ids: vec![],
            clickable_spans: vec![],
            depth: first.depth,
            labeled_by_id: 0,
            label_for_id: 0,
            drawing_order: first.drawing_order,
            tooltip_text: String::new(),
        };
    // An empty field's text is its hint (`TextView.getTextForAccessibility`); it has input focus,
    // so it offers CLEAR_FOCUS, yet `is_focused` is false: the app never copies `isFocused`.
    assert_eq!(*first, expected("First name", 0, 0x2));

    // Typing into it: the next forest carries the text and the cursor after it.
    let r = first.bounds_in_screen.clone().unwrap();
    shell(
        &phone,
        &format!(
            "input tap {} {}",
            (r.left + r.right) / 2,
            (r.top + r.bottom) / 2
        ),
    )
    .await;
    shell(&phone, "input text Ada").await;
    let forest = fresh_forest(&mut rx).await;
    assert_eq!(
        forest.windows.last().map(|w| (w.window_type, w.layer)),
        Some((WindowType::TypeInputMethod as i32, 3))
    );
    let typed = forest.windows[0]
        .tree
        .as_ref()
        .unwrap()
        .nodes
        .iter()
        .find(|n| n.view_id_resource_name == "com.google.android.contacts:id/first_name")
        .unwrap();
    assert_eq!(*typed, expected("Ada", 3, 0x2));

    // Tree logging off: the phone stops sending.
    shell(
        &phone,
        &format!("am broadcast -a accessibility_forwarder.intent.action.DISABLE_ACCESSIBILITY_TREE_LOGS -n {COMPONENT}"),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    while rx.try_recv().is_ok() {}
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        rx.try_recv().is_err(),
        "no forest after tree logging is off"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unreachable_host_costs_the_phone_nothing() {
    let phone = boot(1);
    // A port nothing listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    shell(
        &phone,
        &format!("settings put secure enabled_accessibility_services {SERVICE}"),
    )
    .await;
    shell(&phone, &format!("am broadcast -a accessibility_forwarder.intent.action.ENABLE_ACCESSIBILITY_TREE_LOGS -n {COMPONENT}")).await;
    shell(&phone, &format!("am broadcast -a accessibility_forwarder.intent.action.SET_GRPC --ei port {port} --es host 10.0.2.2 -n {COMPONENT}")).await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let started = std::time::Instant::now();
    for _ in 0..20 {
        shell(&phone, "uiautomator dump /dev/null").await;
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "the phone answers while its forwarder fails ({:?} for 20 dumps)",
        started.elapsed()
    );
    // The app's own warning, once for the run of failures rather than ten times a second.
    let log = shell(&phone, "logcat -d -s AndroidRLTask").await;
    assert_eq!(
        log.matches("gRPC StatusException; are you sure networking is turned on?")
            .count(),
        1,
        "{log}"
    );
}
