//! Inline SVG charts: grouped horizontal bars, a line chart with a logarithmic x axis, and
//! a time series over ticks with a logarithmic y axis ([`crate::series`]).
//! Every value is also in a `<title>` (shown on hover); all text is escaped. Elements that
//! draw data (bars, lines, dots) have the class `mark`, which the browser check counts.

use crate::format::{compact, html, nice_ceil, num, thousands};
use std::fmt::Write;

/// Fill colours, picked by index (series for bars, library for lines).
pub const PALETTE: &[&str] = &[
    "#3b6fb6", "#e3923b", "#5aa469", "#c8553d", "#8a6bb8", "#8c6d46", "#d470a2", "#7f7f7f",
    "#b5b02f", "#2fb5b0", "#1f3f7a", "#a33b20", "#4d7d2e",
];

/// A chart to draw.
#[derive(Debug, Clone)]
pub enum Chart {
    /// Grouped horizontal bars.
    Bars(Bars),
    /// Lines over a logarithmic x axis.
    Lines(Lines),
    /// Values per tick over a linear x axis and a logarithmic y axis.
    Series(crate::series::Series),
}

impl Chart {
    /// The chart as an `<svg>` element.
    pub fn render(&self) -> String {
        match self {
            Chart::Bars(b) => bars(b),
            Chart::Lines(l) => lines(l),
            Chart::Series(s) => crate::series::render(s),
        }
    }
}

/// Grouped horizontal bars: one group per row label, one bar per series.
#[derive(Debug, Clone)]
pub struct Bars {
    /// Heading inside the chart.
    pub title: String,
    /// Unit of the values (axis label).
    pub unit: String,
    /// Group labels (libraries), top to bottom.
    pub groups: Vec<String>,
    /// Series names (`raw`, `zstd`), one colour each.
    pub series: Vec<String>,
    /// `values[group][series]`; `None` is drawn as "not measured".
    pub values: Vec<Vec<Option<f64>>>,
}

/// Lines over a logarithmic x axis.
#[derive(Debug, Clone)]
pub struct Lines {
    /// Heading inside the chart.
    pub title: String,
    /// x axis label.
    pub x_label: String,
    /// y axis label.
    pub y_label: String,
    /// Where the x axis has ticks (its ends are the smallest and largest); empty: every
    /// power of ten around the points.
    pub x_ticks: Vec<f64>,
    /// The lines.
    pub series: Vec<Line>,
}

/// One line of a [`Lines`] chart.
#[derive(Debug, Clone)]
pub struct Line {
    /// Legend text.
    pub name: String,
    /// Index into [`PALETTE`].
    pub color: usize,
    /// Drawn dashed (decode, where encode is solid).
    pub dashed: bool,
    /// A dot with the value on hover at each point (always when there is one point only);
    /// otherwise the line's name is on hover.
    pub markers: bool,
    /// (x, y) points, x > 0.
    pub points: Vec<(f64, f64)>,
}

pub(crate) const WIDTH: f64 = 760.0;
const FONT: &str = "font-family=\"system-ui, sans-serif\" font-size=\"12\"";

pub(crate) fn color(i: usize) -> &'static str {
    PALETTE[i % PALETTE.len()]
}

/// Opens an `<svg>` with a title for assistive technology and the visible heading.
pub(crate) fn open(out: &mut String, height: f64, title: &str) {
    let _ = write!(
        out,
        "<svg class=\"chart\" viewBox=\"0 0 {WIDTH} {height}\" width=\"{WIDTH}\" height=\"{height}\" role=\"img\" {FONT}>\
         <title>{t}</title><text x=\"8\" y=\"18\" font-size=\"14\" font-weight=\"bold\">{t}</text>",
        t = html(title)
    );
}

/// Draws a legend row of coloured swatches from x = 8 at baseline `y`.
pub(crate) fn legend(out: &mut String, items: &[(String, &str, bool)], y: f64) -> f64 {
    let (mut x, mut y) = (8.0, y);
    for (name, fill, dashed) in items {
        let w = 28.0 + 7.0 * name.chars().count() as f64;
        if x + w > WIDTH - 8.0 {
            x = 8.0;
            y += 18.0;
        }
        if *dashed {
            let _ = write!(
                out,
                "<line x1=\"{x}\" y1=\"{ly}\" x2=\"{x2}\" y2=\"{ly}\" stroke=\"{fill}\" stroke-width=\"2\" stroke-dasharray=\"4 3\"/>",
                ly = y - 4.0,
                x2 = x + 16.0
            );
        } else {
            let _ = write!(
                out,
                "<rect x=\"{x}\" y=\"{ry}\" width=\"16\" height=\"10\" fill=\"{fill}\"/>",
                ry = y - 9.0
            );
        }
        let _ = write!(
            out,
            "<text x=\"{tx}\" y=\"{y}\">{}</text>",
            html(name),
            tx = x + 20.0
        );
        x += w;
    }
    y
}

/// `s` cut to `max` characters, with an ellipsis if cut.
fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        s.chars()
            .take(max - 1)
            .chain(std::iter::once('…'))
            .collect()
    }
}

/// Grouped horizontal bar chart.
pub fn bars(b: &Bars) -> String {
    let (label_w, right, bar_h, group_gap) = (190.0, 80.0, 13.0, 10.0);
    let plot_w = WIDTH - label_w - right;
    let max = b
        .values
        .iter()
        .flatten()
        .flatten()
        .fold(0.0f64, |m, v| m.max(*v));
    let top_max = nice_ceil(max);
    let mut out = String::new();
    let group_h = bar_h * b.series.len().max(1) as f64 + group_gap;
    // Legend first, so its height is known before the plot.
    let mut body = String::new();
    let items: Vec<(String, &str, bool)> = b
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| (s.clone(), color(i), false))
        .collect();
    let legend_end = legend(&mut body, &items, 40.0);
    let top = legend_end + 14.0;
    let plot_h = group_h * b.groups.len() as f64;
    let height = top + plot_h + 40.0;
    open(&mut out, height, &b.title);
    out.push_str(&body);
    // Grid and ticks.
    for i in 0..=5 {
        let v = top_max * i as f64 / 5.0;
        let x = label_w + plot_w * i as f64 / 5.0;
        let _ = write!(
            out,
            "<line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{y2}\" stroke=\"#ddd\"/>\
             <text x=\"{x:.1}\" y=\"{ty}\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            compact(v),
            y2 = top + plot_h,
            ty = top + plot_h + 14.0
        );
    }
    let _ = write!(
        out,
        "<text x=\"{x}\" y=\"{y}\" text-anchor=\"middle\" fill=\"#333\">{}</text>",
        html(&b.unit),
        x = label_w + plot_w / 2.0,
        y = top + plot_h + 32.0
    );
    for (g, label) in b.groups.iter().enumerate() {
        let gy = top + group_h * g as f64 + group_gap / 2.0;
        group_label(
            &mut out,
            label,
            label_w - 8.0,
            gy + bar_h * b.series.len() as f64 / 2.0,
        );
        for (s, series) in b.series.iter().enumerate() {
            let y = gy + bar_h * s as f64;
            let value = b.values.get(g).and_then(|v| v.get(s)).copied().flatten();
            match value {
                Some(v) => {
                    let w = (v / top_max * plot_w).max(0.5);
                    let _ = write!(
                        out,
                        "<rect class=\"mark\" x=\"{label_w}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h}\" fill=\"{c}\">\
                         <title>{t}</title></rect>\
                         <text x=\"{tx:.1}\" y=\"{ty:.1}\" font-size=\"10\" fill=\"#333\">{v}</text>",
                        h = bar_h - 2.0,
                        c = color(s),
                        t = html(&format!("{label}, {series}: {} {}", num(v), b.unit)),
                        tx = label_w + w + 4.0,
                        ty = y + bar_h - 3.5,
                        v = html(&num(v))
                    );
                }
                None => {
                    let _ = write!(
                        out,
                        "<text x=\"{x}\" y=\"{ty:.1}\" font-size=\"10\" fill=\"#999\">{}</text>",
                        html(&format!("{series}: not measured")),
                        x = label_w + 4.0,
                        ty = y + bar_h - 3.5
                    );
                }
            }
        }
    }
    out.push_str("</svg>");
    out
}

/// A bar group's label, right-aligned at `x` around the group's middle `mid`: "name
/// (detail)" is drawn on two lines, the detail smaller, each cut to fit the margin.
fn group_label(out: &mut String, label: &str, x: f64, mid: f64) {
    let (name, detail) = match label.split_once(" (") {
        Some((n, d)) => (n, Some(format!("({d}"))),
        None => (label, None),
    };
    let _ = write!(
        out,
        "<text x=\"{x}\" y=\"{y:.1}\" text-anchor=\"end\" dominant-baseline=\"middle\"><title>{full}</title>{}</text>",
        html(&clip(name, 26)),
        full = html(label),
        y = if detail.is_some() { mid - 7.0 } else { mid }
    );
    if let Some(d) = detail {
        let _ = write!(
            out,
            "<text x=\"{x}\" y=\"{y:.1}\" text-anchor=\"end\" dominant-baseline=\"middle\" font-size=\"10\" fill=\"#555\">{}</text>",
            html(&clip(&d, 34)),
            y = mid + 7.0
        );
    }
}

/// Line chart with a logarithmic x axis (powers of ten) and a linear y axis from 0.
pub fn lines(l: &Lines) -> String {
    let (left, right, plot_h) = (80.0, 24.0, 240.0);
    let plot_w = WIDTH - left - right;
    let (lo, hi) = x_range(l);
    let max_y = l
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(0.0f64, f64::max);
    let top_y = nice_ceil(max_y);
    let mut body = String::new();
    let items: Vec<(String, &str, bool)> = l
        .series
        .iter()
        .map(|s| (s.name.clone(), color(s.color), s.dashed))
        .collect();
    let legend_end = legend(&mut body, &items, 40.0);
    let top = legend_end + 16.0;
    let height = top + plot_h + 46.0;
    let px = |x: f64| left + (x.log10() - lo) / (hi - lo) * plot_w;
    let py = |y: f64| top + plot_h - y / top_y * plot_h;
    let mut out = String::new();
    open(&mut out, height, &l.title);
    out.push_str(&body);
    let explicit = !l.x_ticks.is_empty();
    for tick in x_tick_values(l, lo, hi) {
        let x = px(tick);
        let _ = write!(
            out,
            "<line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{y2}\" stroke=\"#ddd\"/>\
             <text x=\"{x:.1}\" y=\"{ty}\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            tick_label(tick, explicit),
            y2 = top + plot_h,
            ty = top + plot_h + 14.0
        );
    }
    for i in 0..=5 {
        let v = top_y * i as f64 / 5.0;
        y_gridline(&mut out, left, plot_w, py(v), v, "#eee");
    }
    axis_labels(
        &mut out,
        (left, top, plot_w, plot_h),
        &l.x_label,
        &l.y_label,
    );
    for s in &l.series {
        line(&mut out, l, s, &px, &py);
    }
    out.push_str("</svg>");
    out
}

/// The x axis' ends as powers of ten: the smallest and largest explicit tick (half a decade
/// either side of a single one), else [`decades`].
/// A horizontal grid line at `y` across a plot `plot_w` wide starting at `left`, with
/// the value `v` it marks at its left end.
pub(crate) fn y_gridline(out: &mut String, left: f64, plot_w: f64, y: f64, v: f64, stroke: &str) {
    let _ = write!(
        out,
        "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{x2}\" y2=\"{y:.1}\" stroke=\"{stroke}\"/>\
         <text x=\"{tx}\" y=\"{y:.1}\" text-anchor=\"end\" dominant-baseline=\"middle\" fill=\"#555\">{}</text>",
        compact(v),
        x2 = left + plot_w,
        tx = left - 6.0
    );
}

/// The x axis label under a plot and the y axis label turned along its left side; the
/// plot is `(left, top, width, height)`.
pub(crate) fn axis_labels(
    out: &mut String,
    plot: (f64, f64, f64, f64),
    x_label: &str,
    y_label: &str,
) {
    let (left, top, plot_w, plot_h) = plot;
    let _ = write!(
        out,
        "<text x=\"{x}\" y=\"{y}\" text-anchor=\"middle\" fill=\"#333\">{}</text>\
         <text transform=\"translate(14 {ym}) rotate(-90)\" text-anchor=\"middle\" fill=\"#333\">{}</text>",
        html(x_label),
        html(y_label),
        x = left + plot_w / 2.0,
        y = top + plot_h + 34.0,
        ym = top + plot_h / 2.0
    );
}

fn x_range(l: &Lines) -> (f64, f64) {
    let ticks = l.x_ticks.iter().copied().filter(|t| *t > 0.0);
    let (min, max) = ticks.fold((f64::INFINITY, 0.0f64), |(lo, hi), t| {
        (lo.min(t), hi.max(t))
    });
    if !min.is_finite() {
        return decades(l);
    }
    let (lo, hi) = (min.log10(), max.log10());
    if hi - lo < 1e-9 {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    }
}

/// An x tick's label: explicit whole ticks below 100,000 as they are (`1024`, not `1.02k`),
/// others compact.
fn tick_label(tick: f64, explicit: bool) -> String {
    if explicit && tick.fract() == 0.0 && tick < 1e5 {
        format!("{tick}")
    } else {
        compact(tick)
    }
}

/// Where the x axis is labelled: the explicit ticks, else each power of ten from `lo` to `hi`.
fn x_tick_values(l: &Lines, lo: f64, hi: f64) -> Vec<f64> {
    let explicit: Vec<f64> = l.x_ticks.iter().copied().filter(|t| *t > 0.0).collect();
    if explicit.is_empty() {
        ((lo as i32)..=(hi as i32)).map(|e| 10f64.powi(e)).collect()
    } else {
        explicit
    }
}

/// The powers of ten the x axis spans: from the one at or below the smallest x to the one
/// at or above the largest (at least one decade; 10^0..10^1 when there are no points).
fn decades(l: &Lines) -> (f64, f64) {
    let xs = l
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .filter(|x| *x > 0.0);
    let (min_x, max_x) = xs.fold((f64::INFINITY, 0.0f64), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    let (lo, mut hi) = if min_x.is_finite() {
        (min_x.log10().floor(), max_x.log10().ceil())
    } else {
        (0.0, 1.0)
    };
    if hi <= lo {
        hi = lo + 1.0;
    }
    (lo, hi)
}

/// One line of `l`: a polyline through its points (x > 0) placed by `px` and `py`, and a
/// dot with the value on hover at each.
fn line(out: &mut String, l: &Lines, s: &Line, px: &dyn Fn(f64) -> f64, py: &dyn Fn(f64) -> f64) {
    let pts: Vec<(f64, f64)> = s.points.iter().copied().filter(|p| p.0 > 0.0).collect();
    let path: Vec<String> = pts
        .iter()
        .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
        .collect();
    let dash = if s.dashed {
        " stroke-dasharray=\"5 4\""
    } else {
        ""
    };
    let markers = s.markers || pts.len() == 1;
    if pts.len() > 1 {
        let _ = write!(
            out,
            "<polyline class=\"mark\" points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"2\"{dash}>",
            path.join(" "),
            c = color(s.color)
        );
        if !markers {
            let _ = write!(out, "<title>{}</title>", html(&s.name));
        }
        out.push_str("</polyline>");
    }
    if !markers {
        return;
    }
    for &(x, y) in &pts {
        let _ = write!(
            out,
            "<circle class=\"mark\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{c}\"><title>{}</title></circle>",
            px(x),
            py(y),
            html(&format!(
                "{}: {} {} at {} {}",
                s.name,
                num(y),
                l.y_label,
                thousands(x.round() as i64),
                l.x_label
            )),
            c = color(s.color)
        );
    }
}
