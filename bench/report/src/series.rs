//! A time series chart: one value per tick for each line, over a linear x axis (the tick)
//! and a logarithmic y axis (decades), so that a 10 kB full snapshot and a 20 B delta are
//! both readable. Values ≤ 0 sit on the bottom of the axis. Each line (class `mark`) shows
//! its name and mean on hover. Used by the delta lab's report (bench/delta).

use crate::format::{compact, html, nice_ceil, num};
use crate::svg::{axis_labels, color, legend, open, y_gridline, WIDTH};
use std::fmt::Write;

/// Values per tick, one line each.
#[derive(Debug, Clone)]
pub struct Series {
    /// Heading inside the chart.
    pub title: String,
    /// x axis label.
    pub x_label: String,
    /// y axis label (the unit).
    pub y_label: String,
    /// The lines.
    pub lines: Vec<SeriesLine>,
}

/// One line of a [`Series`].
#[derive(Debug, Clone)]
pub struct SeriesLine {
    /// Legend text.
    pub name: String,
    /// Index into [`crate::svg::PALETTE`].
    pub color: usize,
    /// Drawn dashed.
    pub dashed: bool,
    /// The value at x = 0, 1, 2, …
    pub values: Vec<f64>,
}

/// The decades the y axis spans: from the one at or below the smallest positive value to
/// the one at or above the largest (at least one decade).
fn decades(s: &Series) -> (i32, i32) {
    let positive = s
        .lines
        .iter()
        .flat_map(|l| l.values.iter().copied())
        .filter(|v| *v > 0.0 && v.is_finite());
    let (min, max) = positive.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !min.is_finite() {
        return (0, 1);
    }
    let lo = min.log10().floor() as i32;
    let hi = (max.log10().ceil() as i32).max(lo + 1);
    (lo, hi)
}

/// The x axis' label spacing: 1, 2 or 5 times a power of ten, at most 6 steps to `x_max`.
fn x_step(x_max: f64) -> f64 {
    let raw = nice_ceil(x_max / 6.0);
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|s| x_max / s <= 6.0)
        .unwrap_or(raw)
}

/// The chart as an `<svg>` element.
pub fn render(s: &Series) -> String {
    let (left, right, plot_h) = (64.0, 24.0, 260.0);
    let plot_w = WIDTH - left - right;
    let points = s.lines.iter().map(|l| l.values.len()).max().unwrap_or(0);
    let x_max = (points.max(2) - 1) as f64;
    let x_step = x_step(x_max);
    let (lo, hi) = decades(s);
    let mut body = String::new();
    let items: Vec<(String, &str, bool)> = s
        .lines
        .iter()
        .map(|l| (l.name.clone(), color(l.color), l.dashed))
        .collect();
    let top = legend(&mut body, &items, 40.0) + 16.0;
    let height = top + plot_h + 46.0;
    let px = |x: f64| left + x / x_max * plot_w;
    let py = |y: f64| {
        let l = if y > 0.0 { y.log10() } else { f64::from(lo) };
        let l = l.clamp(f64::from(lo), f64::from(hi));
        top + plot_h - (l - f64::from(lo)) / f64::from(hi - lo) * plot_h
    };
    let mut out = String::new();
    open(&mut out, height, &s.title);
    out.push_str(&body);
    let ticks = (x_max / x_step).floor() as u32;
    for i in 0..=ticks {
        let v = x_step * f64::from(i);
        let x = px(v);
        let _ = write!(
            out,
            "<line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{y2}\" stroke=\"#eee\"/>\
             <text x=\"{x:.1}\" y=\"{ty}\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            compact(v),
            y2 = top + plot_h,
            ty = top + plot_h + 14.0
        );
    }
    for e in lo..=hi {
        let v = 10f64.powi(e);
        y_gridline(&mut out, left, plot_w, py(v), v, "#ddd");
    }
    let y_label = format!("{} (log scale)", s.y_label);
    axis_labels(&mut out, (left, top, plot_w, plot_h), &s.x_label, &y_label);
    for l in &s.lines {
        line(&mut out, s, l, &px, &py);
    }
    out.push_str("</svg>");
    out
}

fn line(
    out: &mut String,
    s: &Series,
    l: &SeriesLine,
    px: &dyn Fn(f64) -> f64,
    py: &dyn Fn(f64) -> f64,
) {
    if l.values.is_empty() {
        return;
    }
    let path: Vec<String> = l
        .values
        .iter()
        .enumerate()
        .map(|(x, y)| format!("{:.1},{:.1}", px(x as f64), py(*y)))
        .collect();
    let dash = if l.dashed {
        " stroke-dasharray=\"5 4\""
    } else {
        ""
    };
    let mean = l.values.iter().sum::<f64>() / l.values.len() as f64;
    let _ = write!(
        out,
        "<polyline class=\"mark\" points=\"{}\" fill=\"none\" stroke=\"{c}\" stroke-width=\"1.5\"{dash}>\
         <title>{}</title></polyline>",
        path.join(" "),
        html(&format!("{}: mean {} {}", l.name, num(mean), s.y_label)),
        c = color(l.color)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(values: Vec<f64>) -> Series {
        Series {
            title: "bytes <per> tick".into(),
            x_label: "tick".into(),
            y_label: "bytes".into(),
            lines: vec![SeriesLine {
                name: "a & b".into(),
                color: 0,
                dashed: false,
                values,
            }],
        }
    }

    #[test]
    fn a_line_per_series_with_escaped_text() {
        let svg = render(&chart(vec![10.0, 200.0, 3000.0, 0.0]));
        assert_eq!(svg.matches("class=\"mark\"").count(), 1);
        assert!(svg.contains("bytes &lt;per&gt; tick"));
        assert!(svg.contains("a &amp; b: mean"));
        assert!(!svg.contains("NaN"));
    }

    #[test]
    fn x_labels_are_round_and_few() {
        assert_eq!(x_step(599.0), 100.0);
        assert_eq!(x_step(119.0), 20.0);
        assert_eq!(x_step(1.0), 0.2);
    }

    #[test]
    fn the_y_axis_spans_whole_decades() {
        assert_eq!(decades(&chart(vec![12.0, 3400.0])), (1, 4));
        assert_eq!(decades(&chart(vec![0.0])), (0, 1));
        assert_eq!(decades(&chart(vec![100.0])), (2, 3));
    }
}
