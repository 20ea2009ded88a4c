//! The run's success plot (`success.svg`): a bar per group with its Wilson interval, over a
//! labelled axis of success rate.

use std::fmt::Write as _;

use super::RunReport;
use crate::run::stats::Rate;

impl RunReport {
    /// Success by tag (and by environment, when the run has several; by B-MoCA category for
    /// B-MoCA's tasks) as horizontal bars with their Wilson intervals as whiskers, over an x axis
    /// of success from 0 to 100% with a tick and a grid line every 20%.
    pub fn svg(&self) -> String {
        let mut bars: Vec<(String, Rate)> = self
            .by_tag()
            .into_iter()
            .filter_map(|(tag, cols)| cols.get("all").map(|r| (format!("tag {tag}"), *r)))
            .collect();
        let (categories, _) = self.by_category_and_task();
        bars.extend(
            categories
                .into_iter()
                .map(|(c, r)| (format!("B-MoCA {c}"), r)),
        );
        let (envs, _) = self.by_env();
        if envs.len() > 1 {
            bars.extend(envs.into_iter().map(|(e, r)| (format!("env {e}"), r)));
        }
        let (label_w, bar_w, row_h, top) = (180.0, 420.0, 22.0, 62.0);
        let plot_h = row_h * bars.len().max(1) as f64;
        let axis_y = top + plot_h + 4.0;
        let height = axis_y + 44.0;
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n<text x=\"8\" y=\"20\" font-weight=\"bold\">Run {} — success rate by group</text>\n<text x=\"8\" y=\"36\" fill=\"#555\">bars: success rate of scored instances; whiskers: 95% Wilson interval; right: rate (successes/scored)</text>\n",
            label_w + bar_w + 110.0,
            xml_escape(&self.name)
        );
        // The scale: grid lines and ticks every 20%, labelled below the axis.
        for step in 0..=5 {
            let x = label_w + bar_w * step as f64 / 5.0;
            let _ = writeln!(
                out,
                "<line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{top:.1}\" y2=\"{axis_y:.1}\" stroke=\"#ddd\"/><line x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{axis_y:.1}\" y2=\"{:.1}\" stroke=\"#222\"/><text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}%</text>",
                axis_y + 5.0,
                axis_y + 18.0,
                step * 20
            );
        }
        let _ = writeln!(
            out,
            "<line x1=\"{label_w}\" x2=\"{:.1}\" y1=\"{axis_y:.1}\" y2=\"{axis_y:.1}\" stroke=\"#222\"/><line x1=\"{label_w}\" x2=\"{label_w}\" y1=\"{top:.1}\" y2=\"{axis_y:.1}\" stroke=\"#222\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">success rate (%)</text><text x=\"8\" y=\"{:.1}\" fill=\"#555\">group</text>",
            label_w + bar_w,
            label_w + bar_w / 2.0,
            axis_y + 36.0,
            top - 6.0,
        );
        for (i, (label, rate)) in bars.iter().enumerate() {
            let y = top + 3.0 + row_h * i as f64;
            let p = rate.value().unwrap_or(0.0);
            let (lo, hi) = rate.wilson();
            let mid = y + (row_h - 6.0) / 2.0;
            let _ = writeln!(
                out,
                "<text x=\"8\" y=\"{:.1}\">{}</text><rect x=\"{label_w}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#4a7bd0\"/><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{mid:.1}\" y2=\"{mid:.1}\" stroke=\"#222\"/><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#222\"/><line x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#222\"/><text x=\"{:.1}\" y=\"{:.1}\">{} ({}/{})</text>",
                y + 14.0,
                xml_escape(label),
                bar_w * p,
                row_h - 6.0,
                label_w + bar_w * lo,
                label_w + bar_w * hi,
                label_w + bar_w * lo,
                label_w + bar_w * lo,
                mid - 4.0,
                mid + 4.0,
                label_w + bar_w * hi,
                label_w + bar_w * hi,
                mid - 4.0,
                mid + 4.0,
                label_w + bar_w + 8.0,
                y + 14.0,
                rate.value().map_or("-".to_string(), |p| format!("{:.0}%", p * 100.0)),
                rate.k,
                rate.n
            );
        }
        out.push_str("</svg>\n");
        out
    }
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
