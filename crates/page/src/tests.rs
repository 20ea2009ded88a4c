//! The engine end to end: pages whose scripts build the DOM, react to taps, typing and finger
//! paths, and read their canvas back.

use crate::layout::layout;
use crate::{replay, Input, Page};

const WIDTH: f32 = 393.0;

fn tap(page: &Page, id: &str) -> Input {
    let doc = page.document();
    let node = doc.by_id(id).unwrap_or_else(|| panic!("no #{id}"));
    let b = layout(&doc).find(node).expect("laid out").rect;
    Input::Tap {
        node,
        x: b.x + b.w / 2.0,
        y: b.y + b.h / 2.0,
    }
}

#[test]
fn inline_handlers_and_listeners_change_the_document() {
    let html = r#"<body><div id=out>0</div>
        <button id=inc onclick="bump(1)">+1</button><button id=big>+10</button>
        <script>
          let n = 0;
          function bump(k) { n += k; document.getElementById('out').textContent = n; }
          document.getElementById('big').addEventListener('click', () => bump(10));
        </script>"#;
    let mut page = Page::load(html, WIDTH).unwrap();
    let (inc, big) = (tap(&page, "inc"), tap(&page, "big"));
    page.input(&inc).unwrap();
    page.input(&big).unwrap();
    page.input(&inc).unwrap();
    let doc = page.document();
    assert_eq!(doc.text_content(doc.by_id("out").unwrap()), "12");
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
}

#[test]
fn inner_html_replaces_the_body_and_created_elements_get_styles() {
    let html = r#"<body><div id=grid></div><script>
        const grid = document.getElementById('grid');
        for (let i = 0; i < 3; i++) {
          const cell = document.createElement('div');
          cell.className = 'cell';
          cell.classList.add('wall');
          cell.style.backgroundColor = '#ff1493';
          cell.style.width = '50px';
          cell.style.display = 'inline-block';
          cell.style.height = '20px';
          grid.appendChild(cell);
        }
        window.done = () => { document.body.innerHTML = '<h1>Success!</h1>'; };
        </script><button id=b onclick="done()">Go</button>"#;
    let mut page = Page::load(html, WIDTH).unwrap();
    let doc = page.document();
    let grid = doc.by_id("grid").unwrap();
    let cells = &doc.nodes[grid].children;
    assert_eq!(cells.len(), 3);
    let root = layout(&doc);
    let first = root.find(cells[0]).unwrap();
    assert_eq!(first.style.background, Some([255, 20, 147, 255]));
    assert_eq!((first.rect.w, first.rect.h), (50.0, 20.0));
    assert_eq!(root.find(cells[1]).unwrap().rect.x, first.rect.x + 50.0);
    let go = tap(&page, "b");
    page.input(&go).unwrap();
    let doc = page.document();
    let body = doc.body().unwrap();
    let h1 = doc.nodes[body].children[0];
    assert_eq!(doc.element(h1).unwrap().tag, "h1");
    assert_eq!(doc.text_content(body), "Success!");
}

#[test]
fn typing_sets_an_inputs_value_and_hidden_elements_leave_the_layout() {
    let html = r#"<body><div id=form style="display: none"><input id=answer type=number>
        <button id=ok>Submit</button></div><div id=result></div><button id=show>Show</button>
        <script>
          document.getElementById('show').onclick = () => {
            document.getElementById('form').style.display = 'block';
          };
          document.getElementById('ok').addEventListener('click', () => {
            const v = parseInt(document.getElementById('answer').value);
            document.getElementById('result').innerHTML = v === 42 ? '<h2>Success!</h2>' : '';
          });
        </script>"#;
    let mut page = Page::load(html, WIDTH).unwrap();
    let form = page.document().by_id("form").unwrap();
    assert!(layout(&page.document()).find(form).is_none());
    let show = tap(&page, "show");
    page.input(&show).unwrap();
    assert!(layout(&page.document()).find(form).is_some());
    let answer = page.document().by_id("answer").unwrap();
    page.input(&Input::Text {
        node: answer,
        text: "42".into(),
    })
    .unwrap();
    let ok = tap(&page, "ok");
    page.input(&ok).unwrap();
    let doc = page.document();
    assert_eq!(doc.text_content(doc.by_id("result").unwrap()), "Success!");
}

#[test]
fn a_finger_path_draws_on_the_canvas_and_the_page_reads_its_pixels() {
    let html = r#"<meta name="viewport" content="width=device-width">
        <canvas id=c width=100 height=100 style="border: 1px solid black"></canvas>
        <button id=red>red</button><button id=check>check</button><p id=result></p>
        <script>
          const canvas = document.getElementById('c');
          const ctx = canvas.getContext('2d');
          let last = null;
          const at = (e) => {
            const r = canvas.getBoundingClientRect();
            return [(e.touches[0].clientX - r.left) * canvas.width / r.width,
                    (e.touches[0].clientY - r.top) * canvas.height / r.height];
          };
          canvas.addEventListener('touchstart', (e) => { last = at(e); });
          canvas.addEventListener('touchmove', (e) => {
            const p = at(e);
            ctx.beginPath(); ctx.moveTo(last[0], last[1]); ctx.lineTo(p[0], p[1]); ctx.stroke();
            last = p;
          });
          document.getElementById('red').onclick = () => { ctx.strokeStyle = '#ff0000'; };
          document.getElementById('check').onclick = () => {
            const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
            let red = 0;
            for (let i = 0; i < d.length; i += 4) if (d[i] === 255 && d[i + 1] === 0 && d[i + 3] === 255) red++;
            document.getElementById('result').textContent = String(red);
          };
        </script>"#;
    let page = Page::load(html, WIDTH).unwrap();
    let doc = page.document();
    let canvas = doc.by_id("c").unwrap();
    assert!(doc.takes_touch(canvas));
    let r = layout(&doc).find(canvas).unwrap().rect;
    // Left to right across the middle of the canvas.
    let (y, x0, x1) = (r.y + r.h / 2.0, r.x + 10.0, r.x + 90.0);
    let inputs = vec![
        tap(&page, "red"),
        Input::Down {
            node: canvas,
            x: x0,
            y,
        },
        Input::Move {
            node: canvas,
            x: x1,
            y,
        },
        Input::Up {
            node: canvas,
            x: x1,
            y,
        },
        tap(&page, "check"),
    ];
    let doc = replay(html, WIDTH, &inputs).unwrap();
    let bitmap = &doc.canvases[&canvas].bitmap;
    let mid = (r.h / 2.0 - 1.0) as u32;
    assert_eq!(bitmap.get_pixel(50, mid).0, [255, 0, 0, 255]);
    assert_eq!(bitmap.get_pixel(50, 10).0, [0, 0, 0, 0]);
    let count: usize = doc
        .text_content(doc.by_id("result").unwrap())
        .parse()
        .unwrap();
    assert!((70..=200).contains(&count), "{count} red pixels");
}

#[test]
fn scripts_are_classic_scripts_sharing_one_global_scope() {
    // Sloppy mode: an undeclared assignment makes a global; a later script sees the earlier
    // one's `let` and `class` declarations.
    let html = r#"<div id=a></div><script>counter = 2; let base = 40;
        class Box { constructor(v) { this.v = v; } }</script>
        <script>document.getElementById('a').textContent = new Box(base + counter).v;</script>"#;
    let page = Page::load(html, WIDTH).unwrap();
    let doc = page.document();
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    assert_eq!(doc.text_content(doc.by_id("a").unwrap()), "42");
}

#[test]
fn script_errors_are_reported_and_later_scripts_still_run() {
    let html = r#"<div id=a></div><script>undefinedFunction();</script>
        <script>document.getElementById('a').textContent = 'ran';</script>"#;
    let page = Page::load(html, WIDTH).unwrap();
    let doc = page.document();
    assert_eq!(doc.text_content(doc.by_id("a").unwrap()), "ran");
    assert_eq!(doc.errors.len(), 1);
    assert!(
        doc.errors[0].contains("undefinedFunction"),
        "{:?}",
        doc.errors
    );
}

#[test]
fn an_input_for_a_node_not_in_the_page_is_an_error() {
    let mut page = Page::load("<p>x</p>", WIDTH).unwrap();
    assert_eq!(
        page.input(&Input::Tap {
            node: 999,
            x: 0.0,
            y: 0.0
        }),
        Err(crate::PageError::NoNode(999))
    );
}
