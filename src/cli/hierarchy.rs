//! `droidmcp hierarchy`: print the element list of a uiautomator dump, so anyone can check the
//! compression on their own dumps.

use std::io::Read;
use std::path::PathBuf;

use anyhow::Context;

use super::Global;
use crate::geom::Bounds;
use crate::hierarchy::{
    self, format, marks, ElementList, Filter, Format, Options, Page, RenderOptions, Role, Selector,
};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The dump to read (`uiautomator dump` output); `-` reads standard input.
    pub file: String,
    /// Output format: compact (default), json, or xml (the dump itself, cleaned).
    #[arg(long, default_value = "compact")]
    pub format: Format,
    /// Show bounds `[l,t,r,b]` instead of the centre point.
    #[arg(long)]
    pub bounds: bool,
    /// Only elements with this text (case-insensitive substring of text, description or resource id).
    #[arg(long)]
    pub text: Option<String>,
    /// Only elements of this role (btn, input, checkbox, switch, radio, tab, slider, progress, select,
    /// list, web, image, text, view).
    #[arg(long, value_parser = parse_role)]
    pub role: Option<Role>,
    /// Only elements meeting this rectangle, `l,t,r,b` in device pixels.
    #[arg(long, value_parser = parse_region)]
    pub region: Option<Bounds>,
    /// Skip this many matching elements.
    #[arg(long, default_value_t = 0)]
    pub offset: usize,
    /// Show at most this many elements.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Keep nodes marked visible-to-user="false".
    #[arg(long)]
    pub keep_invisible: bool,
    /// Do not fold descendants' text into tappable ancestors.
    #[arg(long)]
    pub no_fold: bool,
    /// Print the elements a selector finds (e.g. `text:OK`, `id:fab`, `desc~=alarm`) and their tap points.
    #[arg(long)]
    pub select: Option<String>,
    /// Print what changed from this older dump to FILE instead of the list.
    #[arg(long)]
    pub diff: Option<PathBuf>,
    /// Draw numbered marks on this screenshot (PNG/JPEG of the same screen); needs --out.
    #[arg(long, requires = "out")]
    pub mark: Option<PathBuf>,
    /// Where to write the marked screenshot (PNG).
    #[arg(long, requires = "mark")]
    pub out: Option<PathBuf>,
}

fn parse_role(s: &str) -> Result<Role, String> {
    Role::parse(s).ok_or_else(|| format!("unknown role {s:?}"))
}

fn parse_region(s: &str) -> Result<Bounds, String> {
    let parts: Vec<i32> = s
        .split(',')
        .map(|p| p.trim().parse::<i32>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("region {s:?}: expected l,t,r,b"))?;
    match parts[..] {
        [l, t, r, b] => Ok(Bounds::new(l, t, r, b)),
        _ => Err(format!("region {s:?}: expected four numbers l,t,r,b")),
    }
}

fn read_input(file: &str) -> anyhow::Result<Vec<u8>> {
    if file == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("reading standard input")?;
        Ok(bytes)
    } else {
        std::fs::read(file).with_context(|| format!("reading {file}"))
    }
}

fn load(file: &str, options: &Options) -> anyhow::Result<(hierarchy::Hierarchy, ElementList)> {
    let h = hierarchy::parse(&read_input(file)?).with_context(|| file.to_string())?;
    let list = ElementList::from_hierarchy(&h, options);
    Ok((h, list))
}

pub async fn run(_global: &Global, args: Args) -> anyhow::Result<i32> {
    let options = Options {
        keep_invisible: args.keep_invisible,
        fold: !args.no_fold,
        ..Options::default()
    };
    let (h, list) = load(&args.file, &options)?;

    if let Some(old) = &args.diff {
        let (_, old_list) = load(&old.to_string_lossy(), &options)?;
        print!(
            "{}",
            format::compact_diff(&hierarchy::diff(&old_list, &list), args.bounds)
        );
        return Ok(0);
    }
    if let Some(selector) = &args.select {
        let selector: Selector = selector.parse()?;
        let found = selector.select(&list);
        if found.is_empty() {
            eprintln!("no element matches {selector}");
            return Ok(1);
        }
        for e in found {
            println!("{}", format::compact_line(e, args.bounds));
        }
        return Ok(0);
    }
    if let (Some(shot), Some(out)) = (&args.mark, &args.out) {
        let image = image::open(shot)
            .with_context(|| format!("reading screenshot {}", shot.display()))?
            .to_rgba8();
        let screen_width = list.screen.width().max(1) as f32;
        let scale = image.width() as f32 / screen_width;
        let window = list.window(&filter_of(&args), page_of(&args));
        marks::annotate(&image, window.elements, scale)
            .save(out)
            .with_context(|| format!("writing {}", out.display()))?;
        return Ok(0);
    }

    let render = RenderOptions {
        format: args.format,
        bounds: args.bounds,
        filter: filter_of(&args),
        page: page_of(&args),
    };
    let text = hierarchy::render(&h, &list, &render);
    print!("{text}");
    if !text.ends_with('\n') {
        println!();
    }
    Ok(0)
}

fn filter_of(args: &Args) -> Filter {
    Filter {
        text: args.text.clone(),
        role: args.role,
        region: args.region,
    }
}

fn page_of(args: &Args) -> Page {
    Page {
        offset: args.offset,
        limit: args.limit,
    }
}
