//! Chrome's local pages on the embedded phone, driven as an agent drives them: an HTML file in
//! Download opened from Files, its elements read from `uiautomator dump` (a WebView whose children
//! carry the page's text and bounds), tapped, swiped and typed into with `input`, and its pixels
//! read back from `screencap`.
//!
//! With `CHROME_SHOTS=<dir>` the screens are also written there as PNGs to look at.

use droidmcp::geom::Bounds;
use droidmcp::hierarchy::Hierarchy;
use droidmcp::sim::Phone;

use crate::sim_system_ui::{find, screen, tap};
use crate::util::{boot, sh};

const FILES: &str = "com.google.android.documentsui/com.android.documentsui.files.FilesActivity";

/// A page with a counter button, a red box, and a result that a third tap fills.
const COUNTER: &str = r#"<!DOCTYPE html><html><head><title>Counter</title>
<style>.box { width: 100px; height: 40px; background-color: #ff0000; }</style></head>
<body><div class="box" id="box"></div><button id="b">Tap me</button><div id="out"></div>
<script>
  let n = 0;
  document.getElementById('b').addEventListener('click', () => {
    n++;
    document.getElementById('out').innerHTML = n === 3 ? '<h1>Success!</h1>' : '<p>' + n + '</p>';
  });
</script></body></html>"#;

/// A page with a canvas a finger draws blue on, a text field and a check of both.
const CANVAS: &str = r#"<!DOCTYPE html><html><head><title>Canvas</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body { text-align: center; } canvas { border: 1px solid black; }</style></head>
<body><canvas id="c" width="300" height="300"></canvas><br>
<input id="answer" placeholder="Answer"><button id="ok">Check</button><p id="result"></p>
<script>
  const c = document.getElementById('c');
  const ctx = c.getContext('2d');
  ctx.strokeStyle = '#0000ff';
  ctx.lineWidth = 6;
  let last = null;
  const at = (e) => {
    const r = c.getBoundingClientRect();
    return [(e.touches[0].clientX - r.left) * c.width / r.width, (e.touches[0].clientY - r.top) * c.height / r.height];
  };
  c.addEventListener('touchstart', (e) => { last = at(e); });
  c.addEventListener('touchmove', (e) => {
    const p = at(e);
    ctx.beginPath(); ctx.moveTo(last[0], last[1]); ctx.lineTo(p[0], p[1]); ctx.stroke();
    last = p;
  });
  document.getElementById('ok').addEventListener('click', () => {
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let blue = false;
    for (let i = 0; i < d.length; i += 4) if (d[i + 2] === 255 && d[i + 3] === 255) blue = true;
    const typed = document.getElementById('answer').value;
    document.getElementById('result').textContent = blue && typed === '42' ? 'Success!' : 'Not yet';
  });
</script></body></html>"#;

fn shot(phone: &Phone, name: &str) -> image::RgbaImage {
    sh(phone, "screencap -p /sdcard/chrome_shot.png");
    let png = phone
        .read_file("/sdcard/chrome_shot.png")
        .expect("the shot");
    sh(phone, "rm /sdcard/chrome_shot.png");
    if let Ok(dir) = std::env::var("CHROME_SHOTS") {
        std::fs::write(format!("{dir}/{name}.png"), &png).expect("write the shot");
    }
    image::load_from_memory(&png).expect("a PNG").to_rgba8()
}

fn node_bounds(h: &Hierarchy, pred: &dyn Fn(&droidmcp::hierarchy::Node) -> bool) -> Bounds {
    find(h, pred)
        .unwrap_or_else(|| panic!("not on screen: {}", h.xml))
        .bounds
}

fn tap_text(phone: &Phone, text: &str) {
    let h = screen(phone);
    tap(phone, node_bounds(&h, &|n| n.text == text));
}

/// Writes the page to Download and opens it as a person would: Files, Download, the file.
fn open_from_files(phone: &Phone, page: &str) {
    sh(phone, "mkdir -p /sdcard/Download");
    phone
        .write_file("/sdcard/Download/task.html", page.as_bytes(), 0o644)
        .expect("page written");
    let out = sh(phone, &format!("am start -W -n {FILES}"));
    assert!(out.contains("Status: ok"), "{out}");
    tap_text(phone, "Download");
    tap_text(phone, "task.html");
    let focus = sh(phone, "dumpsys window | grep mCurrentFocus");
    assert!(focus.contains("com.android.chrome"), "{focus}");
}

#[test]
fn a_page_opened_from_files_shows_in_chrome_and_its_buttons_run_its_script() {
    let phone = boot(7);
    open_from_files(&phone, COUNTER);
    let h = screen(&phone);
    let web = node_bounds(&h, &|n| n.class == "android.webkit.WebView");
    let url = find(&h, &|n| n.resource_id == "com.android.chrome:id/url_bar").unwrap();
    assert!(url.text.contains("task.html"), "{}", url.text);
    let button = find(&h, &|n| {
        n.class == "android.widget.Button" && n.text == "Tap me"
    })
    .unwrap_or_else(|| panic!("{}", h.xml));
    assert!(button.clickable);
    assert!(web.contains(button.bounds.center()));

    // The red box is drawn where the dump says it is.
    let img = shot(&phone, "counter");
    let boxed = node_bounds(&h, &|n| n.resource_id == "box");
    let c = boxed.center();
    assert_eq!(img.get_pixel(c.x as u32, c.y as u32).0, [255, 0, 0, 255]);

    for want in ["1", "2"] {
        tap(&phone, button.bounds);
        let h = screen(&phone);
        assert!(find(&h, &|n| n.text == want).is_some(), "{}", h.xml);
    }
    assert!(find(&screen(&phone), &|n| n.text == "Success!").is_none());
    tap(&phone, button.bounds);
    let h = screen(&phone);
    let success = find(&h, &|n| n.text == "Success!").unwrap_or_else(|| panic!("{}", h.xml));
    // The heading's glyphs are drawn inside its bounds.
    let img = shot(&phone, "counter_success");
    assert!(crate::util::inked(&img, success.bounds, [255, 255, 255, 255]) > 100);
}

#[test]
fn a_swipe_draws_on_a_page_canvas_and_typing_fills_its_input() {
    let phone = boot(8);
    open_from_files(&phone, CANVAS);
    let h = screen(&phone);
    let canvas = node_bounds(&h, &|n| n.resource_id == "c");
    let (y, x0, x1) = (
        canvas.center().y,
        canvas.left + canvas.width() / 5,
        canvas.right - canvas.width() / 5,
    );
    sh(&phone, &format!("input swipe {x0} {y} {x1} {y} 300"));
    let img = shot(&phone, "canvas_drawn");
    let p = img.get_pixel(canvas.center().x as u32, y as u32).0;
    assert!(p[2] > 200 && p[0] < 60 && p[1] < 60, "{p:?}");
    // Above the stroke the canvas is still blank.
    let above = img
        .get_pixel(canvas.center().x as u32, (canvas.top + 40) as u32)
        .0;
    assert_eq!(above, [255, 255, 255, 255]);

    let answer = |n: &droidmcp::hierarchy::Node| {
        n.class == "android.widget.EditText" && n.resource_id == "answer"
    };
    assert_eq!(find(&h, &answer).unwrap().hint, "Answer");
    tap(&phone, node_bounds(&h, &answer));
    sh(&phone, "input text 42");
    let h = screen(&phone);
    assert_eq!(find(&h, &answer).unwrap().text, "42");
    tap_text(&phone, "Check");
    let h = screen(&phone);
    assert!(find(&h, &|n| n.text == "Success!").is_some(), "{}", h.xml);
    shot(&phone, "canvas_success");
}
