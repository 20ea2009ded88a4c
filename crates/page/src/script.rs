//! A page's scripts in QuickJS (through `rquickjs`): the native calls the DOM prelude
//! (`prelude.js`) is written over, each reading or changing the shared [`Document`].
//!
//! Why QuickJS: a complete ES2023 engine in one small C library that builds with the crate
//! (no prebuilt binary to download), starts in well under a millisecond, and `rquickjs` is
//! maintained and safe to call. The page's scripts are trusted no more than a browser trusts
//! them: each run is bounded in memory and in time, and an exception is reported in the
//! document's errors as a console would show it, without stopping the page.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::{Duration, Instant};

use rquickjs::context::EvalOptions;
use rquickjs::function::Opt;
use rquickjs::{Context, Ctx, Function, IntoJs, Object, Runtime, TypedArray};

use crate::canvas::Canvas;
use crate::css::parse_color;
use crate::dom::{Document, NodeId, NodeKind};
use crate::PageError;

const PRELUDE: &str = include_str!("prelude.js");
/// What one script or one input may take before the engine interrupts it (a page stuck in a
/// loop must not hang the phone).
const BUDGET: Duration = Duration::from_secs(5);
const MEMORY_LIMIT: usize = 256 << 20;

pub(crate) struct Engine {
    // Field order matters: the context must go before its runtime.
    context: Context,
    _runtime: Runtime,
    deadline: Rc<Cell<Instant>>,
}

type Shared = Rc<RefCell<Document>>;

fn set<'js, P, F>(obj: &Object<'js>, ctx: &Ctx<'js>, name: &str, f: F) -> rquickjs::Result<()>
where
    F: rquickjs::function::IntoJsFunc<'js, P> + 'js,
{
    obj.set(name, Function::new(ctx.clone(), f)?.with_name(name)?)
}

/// A node id from script, checked against the arena.
fn node(doc: &Document, id: u32) -> Option<NodeId> {
    let id = id as NodeId;
    doc.exists(id).then_some(id)
}

fn bind_tree<'js>(ctx: &Ctx<'js>, n: &Object<'js>, doc: &Shared) -> rquickjs::Result<()> {
    let d = doc.clone();
    set(n, ctx, "kind", move |id: u32| {
        match d.borrow().nodes.get(id as usize).map(|n| &n.kind) {
            Some(NodeKind::Document) => 9,
            Some(NodeKind::Element(_)) => 1,
            _ => 3,
        }
    })?;
    let d = doc.clone();
    set(n, ctx, "parent", move |id: u32| {
        let doc = d.borrow();
        node(&doc, id).and_then(|i| doc.nodes[i].parent.map(|p| p as u32))
    })?;
    let d = doc.clone();
    set(n, ctx, "children", move |id: u32| {
        let doc = d.borrow();
        node(&doc, id).map_or_else(Vec::new, |i| {
            doc.nodes[i].children.iter().map(|&c| c as u32).collect()
        })
    })?;
    let d = doc.clone();
    set(n, ctx, "tag", move |id: u32| {
        d.borrow()
            .element(id as usize)
            .map(|e| e.tag.clone())
            .unwrap_or_default()
    })?;
    let d = doc.clone();
    set(n, ctx, "attr", move |id: u32, name: String| {
        d.borrow()
            .element(id as usize)
            .and_then(|e| e.attr(&name).map(str::to_string))
    })?;
    let d = doc.clone();
    set(
        n,
        ctx,
        "setAttr",
        move |id: u32, name: String, value: String| {
            if let Some(e) = d.borrow_mut().element_mut(id as usize) {
                e.set_attr(&name.to_ascii_lowercase(), &value);
            }
        },
    )?;
    let d = doc.clone();
    set(n, ctx, "text", move |id: u32| {
        let doc = d.borrow();
        node(&doc, id)
            .map(|i| doc.text_content(i))
            .unwrap_or_default()
    })?;
    let d = doc.clone();
    set(n, ctx, "setText", move |id: u32, text: String| {
        let mut doc = d.borrow_mut();
        match node(&doc, id) {
            Some(i) if matches!(doc.nodes[i].kind, NodeKind::Text(_)) => {
                doc.nodes[i].kind = NodeKind::Text(text)
            }
            Some(i) => doc.set_text_content(i, &text),
            None => {}
        }
    })?;
    let d = doc.clone();
    set(n, ctx, "setHtml", move |id: u32, html: String| {
        let mut doc = d.borrow_mut();
        if let Some(i) = node(&doc, id) {
            doc.set_inner_html(i, &html);
        }
    })?;
    let d = doc.clone();
    set(n, ctx, "create", move |tag: String| {
        d.borrow_mut().create_element(&tag) as u32
    })?;
    let d = doc.clone();
    set(n, ctx, "createText", move |text: String| {
        d.borrow_mut().create(NodeKind::Text(text)) as u32
    })?;
    let d = doc.clone();
    set(
        n,
        ctx,
        "append",
        move |parent: u32, child: u32| -> rquickjs::Result<()> {
            let mut doc = d.borrow_mut();
            let (Some(p), Some(c)) = (node(&doc, parent), node(&doc, child)) else {
                return Err(rquickjs::Error::new_from_js("value", "Node"));
            };
            // A node cannot become its own descendant (HierarchyRequestError).
            if doc.descendants(c).contains(&p) {
                return Err(rquickjs::Error::new_from_js_message(
                    "Node",
                    "Node",
                    "HierarchyRequestError: the new child is an ancestor of the parent",
                ));
            }
            doc.append(p, c);
            Ok(())
        },
    )?;
    let d = doc.clone();
    set(n, ctx, "remove", move |id: u32| {
        let mut doc = d.borrow_mut();
        if let Some(i) = node(&doc, id) {
            doc.detach(i);
        }
    })?;
    let d = doc.clone();
    set(n, ctx, "byId", move |wanted: String| {
        d.borrow().by_id(&wanted).map(|i| i as u32)
    })?;
    let d = doc.clone();
    set(n, ctx, "body", move || d.borrow().body().map(|i| i as u32))?;
    let d = doc.clone();
    set(n, ctx, "title", move || d.borrow().title())?;
    Ok(())
}

fn bind_element<'js>(ctx: &Ctx<'js>, n: &Object<'js>, doc: &Shared) -> rquickjs::Result<()> {
    let d = doc.clone();
    set(n, ctx, "style", move |id: u32, property: String| {
        d.borrow()
            .element(id as usize)
            .and_then(|e| e.inline(&property).map(str::to_string))
            .unwrap_or_default()
    })?;
    let d = doc.clone();
    set(
        n,
        ctx,
        "setStyle",
        move |id: u32, property: String, value: String| {
            if let Some(e) = d.borrow_mut().element_mut(id as usize) {
                e.set_inline(&property, &value);
            }
        },
    )?;
    let d = doc.clone();
    set(n, ctx, "value", move |id: u32| {
        d.borrow()
            .element(id as usize)
            .map(|e| e.value.clone())
            .unwrap_or_default()
    })?;
    let d = doc.clone();
    set(n, ctx, "setValue", move |id: u32, value: String| {
        if let Some(e) = d.borrow_mut().element_mut(id as usize) {
            e.value = value;
        }
    })?;
    let d = doc.clone();
    set(n, ctx, "listen", move |id: u32, kind: String| {
        let mut doc = d.borrow_mut();
        if let Some(i) = node(&doc, id) {
            let types = doc.listeners.entry(i).or_default();
            if !types.contains(&kind) {
                types.push(kind);
            }
        }
    })?;
    let d = doc.clone();
    set(n, ctx, "rect", move |id: u32| {
        let doc = d.borrow();
        let root = crate::layout::layout(&doc);
        root.find(id as usize)
            .map(|b| {
                vec![
                    b.rect.x as f64,
                    b.rect.y as f64,
                    b.rect.w as f64,
                    b.rect.h as f64,
                ]
            })
            .unwrap_or_else(|| vec![0.0; 4])
    })?;
    // Nothing on the phone reads console.log (Chrome's goes to its devtools only).
    set(n, ctx, "log", |_line: String| {})?;
    let d = doc.clone();
    set(n, ctx, "error", move |line: String| {
        d.borrow_mut().errors.push(line)
    })?;
    Ok(())
}

fn bind_canvas<'js>(ctx: &Ctx<'js>, n: &Object<'js>, doc: &Shared) -> rquickjs::Result<()> {
    let d = doc.clone();
    set(n, ctx, "canvasInit", move |id: u32| {
        let mut doc = d.borrow_mut();
        let Some(e) = doc.element(id as usize) else {
            return;
        };
        let dim = |name: &str, default: u32| {
            e.attr(name)
                .and_then(|v| v.trim().parse::<u32>().ok())
                .unwrap_or(default)
                .min(4096)
        };
        let canvas = Canvas::new(dim("width", 300), dim("height", 150));
        doc.canvases.entry(id as usize).or_insert(canvas);
    })?;
    set(n, ctx, "isColor", |c: String| parse_color(&c).is_some())?;
    let d = doc.clone();
    set(
        n,
        ctx,
        "stroke",
        move |id: u32, coords: Vec<f64>, width: f64, color: String| {
            let Some(c) = parse_color(&color) else {
                return;
            };
            let points: Vec<(f64, f64)> = coords.chunks_exact(2).map(|p| (p[0], p[1])).collect();
            if let Some(canvas) = d.borrow_mut().canvases.get_mut(&(id as usize)) {
                canvas.stroke(&points, width, c);
            }
        },
    )?;
    let d = doc.clone();
    set(
        n,
        ctx,
        "fillRect",
        move |id: u32, x: f64, y: f64, w: f64, h: f64, color: String| {
            let Some(c) = parse_color(&color) else {
                return;
            };
            if let Some(canvas) = d.borrow_mut().canvases.get_mut(&(id as usize)) {
                canvas.fill_rect(x, y, w, h, c);
            }
        },
    )?;
    let d = doc.clone();
    set(
        n,
        ctx,
        "clearRect",
        move |id: u32, x: f64, y: f64, w: f64, h: f64| {
            if let Some(canvas) = d.borrow_mut().canvases.get_mut(&(id as usize)) {
                canvas.clear_rect(x, y, w, h);
            }
        },
    )?;
    let d = doc.clone();
    set(
        n,
        ctx,
        "imageData",
        move |ctx: Ctx<'js>, id: u32, x: i32, y: i32, w: u32, h: u32| {
            let data = d
                .borrow()
                .canvases
                .get(&(id as usize))
                .map(|c| c.image_data(x as i64, y as i64, w.min(4096), h.min(4096)))
                .unwrap_or_default();
            TypedArray::<u8>::new(ctx, data)
        },
    )?;
    Ok(())
}

impl Engine {
    /// A runtime with the DOM bound to `doc` and the prelude run.
    pub(crate) fn new(doc: Shared) -> Result<Engine, PageError> {
        let runtime = Runtime::new().map_err(|e| PageError::Engine(e.to_string()))?;
        runtime.set_memory_limit(MEMORY_LIMIT);
        let deadline = Rc::new(Cell::new(Instant::now() + BUDGET));
        let clock = deadline.clone();
        runtime.set_interrupt_handler(Some(Box::new(move || Instant::now() > clock.get())));
        let context = Context::full(&runtime).map_err(|e| PageError::Engine(e.to_string()))?;
        let engine = Engine {
            context,
            _runtime: runtime,
            deadline,
        };
        engine
            .context
            .with(|ctx| -> rquickjs::Result<()> {
                let n = Object::new(ctx.clone())?;
                bind_tree(&ctx, &n, &doc)?;
                bind_element(&ctx, &n, &doc)?;
                bind_canvas(&ctx, &n, &doc)?;
                ctx.globals().set("__dom", n)?;
                Ok(())
            })
            .map_err(|e| PageError::Engine(e.to_string()))?;
        engine.eval(PRELUDE).map_err(PageError::Engine)?;
        Ok(engine)
    }

    /// Runs a classic script (sloppy mode, global scope: `x = 1` without a declaration makes a
    /// global, as in a browser); an uncaught exception comes back as its message and stack.
    pub(crate) fn eval(&self, source: &str) -> Result<(), String> {
        self.deadline.set(Instant::now() + BUDGET);
        let mut options = EvalOptions::default();
        options.global = true;
        options.strict = false;
        self.context.with(|ctx| {
            ctx.eval_with_options::<(), _>(source, options)
                .map_err(|e| match e {
                    rquickjs::Error::Exception => describe(&ctx.catch()),
                    other => other.to_string(),
                })
        })
    }

    /// Calls the prelude's `__input(kind, node, x, y, text)`.
    pub(crate) fn input(
        &self,
        kind: &str,
        node: NodeId,
        x: f32,
        y: f32,
        text: Option<&str>,
    ) -> Result<(), String> {
        self.deadline.set(Instant::now() + BUDGET);
        self.context.with(|ctx| {
            let run = || -> rquickjs::Result<()> {
                let f: Function = ctx.globals().get("__input")?;
                let text = text.map(str::to_string).into_js(&ctx)?;
                f.call::<_, ()>((kind, node as u32, x as f64, y as f64, Opt(Some(text))))
            };
            run().map_err(|e| match e {
                rquickjs::Error::Exception => describe(&ctx.catch()),
                other => other.to_string(),
            })
        })
    }
}

fn describe(value: &rquickjs::Value) -> String {
    if let Some(ex) = value.as_exception() {
        let message = ex.message().unwrap_or_default();
        return match ex.stack() {
            Some(stack) if !stack.is_empty() => format!("{message}\n{stack}"),
            _ => message,
        };
    }
    value
        .as_string()
        .and_then(|s| s.to_string().ok())
        .unwrap_or_else(|| format!("{value:?}"))
}
