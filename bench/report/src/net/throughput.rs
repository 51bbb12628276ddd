//! Throughput sections: the seed's table shape (per connection count and mode, size rows ×
//! server columns, the winner of each row marked) with a packets/s-by-size chart each, the
//! scaling over connection counts, and the framing overhead against the raw echoes.

use super::doc::{error_cell, seed_figure, value_cell};
use super::goals::{framing_cost, overhead_ratio, percent, MAX_FRAMING_COST};
use super::load::{Found, Key, NetResults, Server};
use crate::doc::{mark_best, Block, Cell, Notes, Table};
use crate::format::{num, thousands};
use crate::svg::{Chart, Line, Lines};

/// How the report names a mode.
pub fn mode_label(mode: &str) -> &str {
    match mode {
        "pingpong" => "ping-pong",
        "pipeline" => "pipelined",
        other => other,
    }
}

/// `1 connection`, `32 connections`.
pub fn connections_label(n: u64) -> String {
    if n == 1 {
        "1 connection".into()
    } else {
        format!("{n} connections")
    }
}

/// Framed servers first, then the raw echoes (the table's and chart's column order).
pub fn column_order(r: &NetResults) -> Vec<&Server> {
    let mut out = r.framed();
    out.extend(r.servers.iter().filter(|s| s.is_raw()));
    out
}

/// A line of a chart for `server`: raw echoes dashed and without dots.
pub fn server_line(r: &NetResults, server: &Server, points: Vec<(f64, f64)>) -> Line {
    Line {
        name: server.id.clone(),
        color: r.color(&server.id),
        dashed: server.is_raw(),
        markers: !server.is_raw(),
        points,
    }
}

/// The seed's table shape: per connection count and mode, packets/s by size and server.
pub fn seed_tables(r: &NetResults, notes: &mut Notes, out: &mut Vec<Block>) {
    out.push(Block::Heading(2, "Throughput (the seed's tables)".into()));
    out.push(Block::Para(format!(
        "Packets per second per connection count and mode: one row per packet size, one column \
         per server; the fastest framed server of each row in bold. Ping-pong: each connection \
         waits for the reply before it sends again (closed loop). Pipelined: each connection keeps \
         {} packets in flight.",
        r.settings.window
    )));
    for conns in r.connections() {
        out.push(Block::Heading(3, connections_label(conns)));
        let mut text = seed_figure(conns);
        for mode in r.modes() {
            if let Some((lo, hi, id, size)) = framed_range(r, mode, conns) {
                text.push_str(&format!(
                    " Here, {}: the framed servers served {}–{} packets/s (fastest: {id} at {size} B).",
                    mode_label(mode),
                    thousands(lo.round() as i64),
                    thousands(hi.round() as i64)
                ));
            }
        }
        out.push(Block::Para(text));
        for mode in r.modes() {
            out.push(Block::Heading(
                4,
                format!("{}, {}", mode_label(mode), connections_label(conns)),
            ));
            let (table, chart) = pps_by_size(r, mode, conns, notes);
            out.push(Block::Table(table));
            if let Some(chart) = chart {
                out.push(Block::Chart(Chart::Lines(chart)));
            }
        }
    }
}

/// The lowest and highest packets/s of the framed servers in a mode and connection count,
/// with the server and size of the highest.
pub fn framed_range<'a>(
    r: &'a NetResults,
    mode: &str,
    conns: u64,
) -> Option<(f64, f64, &'a str, u64)> {
    let mut lo = f64::INFINITY;
    let mut best: Option<(f64, &str, u64)> = None;
    for s in r.framed() {
        for size in r.sizes() {
            let key = Key {
                mode,
                connections: conns,
                size,
            };
            if let Some(p) = r.pps(&s.id, key) {
                lo = lo.min(p);
                if best.is_none_or(|(hi, _, _)| p > hi) {
                    best = Some((p, s.id.as_str(), size));
                }
            }
        }
    }
    best.map(|(hi, id, size)| (lo, hi, id, size))
}

/// One seed-shaped table (size rows × server columns) and its chart.
fn pps_by_size(
    r: &NetResults,
    mode: &str,
    conns: u64,
    notes: &mut Notes,
) -> (Table, Option<Lines>) {
    let servers = column_order(r);
    let mut points: Vec<Vec<(f64, f64)>> = vec![Vec::new(); servers.len()];
    let ids = servers.iter().map(|s| s.id.clone());
    let table = size_table(r, mode, conns, ids, |key| {
        let mut row = Vec::new();
        let mut contest = Vec::new();
        for (i, s) in servers.iter().enumerate() {
            let (cell, v) = value_cell(r.find(&s.id, key), |c| c.pps, num, notes);
            row.push(cell);
            contest.push(if s.is_raw() { None } else { v });
            if let Some(v) = v {
                points[i].push((key.size as f64, v));
            }
        }
        for (cell, best) in row.iter_mut().zip(mark_best(&contest, false)) {
            cell.best = best;
        }
        row
    });
    let series: Vec<Line> = servers
        .iter()
        .zip(points)
        .filter(|(_, p)| !p.is_empty())
        .map(|(s, p)| server_line(r, s, p))
        .collect();
    let chart = (!series.is_empty()).then(|| Lines {
        title: format!(
            "Packets/s by size: {}, {}",
            mode_label(mode),
            connections_label(conns)
        ),
        x_label: "bytes per packet".into(),
        y_label: "packets/s".into(),
        x_ticks: r.sizes().iter().map(|s| *s as f64).collect(),
        series,
    });
    (table, chart)
}

/// Packets/s over the connection counts at the reference size, per mode.
pub fn scaling(r: &NetResults, notes: &mut Notes, out: &mut Vec<Block>) {
    let Some(size) = r.reference_size() else {
        return;
    };
    let conns = r.connections();
    let path = conns
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" → ");
    out.push(Block::Heading(
        2,
        format!("Scaling: {path} connections at {size} B"),
    ));
    out.push(Block::Para(
        "Packets/s of every server as connections are added, at one size; the fastest framed \
         server of each column in bold."
            .into(),
    ));
    let servers = column_order(r);
    for mode in r.modes() {
        out.push(Block::Heading(3, mode_label(mode).to_string()));
        let mut headers = vec!["server".to_string()];
        headers.extend(conns.iter().map(|c| connections_label(*c)));
        let mut table = Table {
            headers,
            label_columns: 1,
            ..Table::default()
        };
        let mut columns: Vec<Vec<Option<f64>>> = vec![Vec::new(); conns.len()];
        let mut series = Vec::new();
        for s in &servers {
            let mut row = vec![Cell::text(&s.id)];
            let mut points = Vec::new();
            for (i, c) in conns.iter().enumerate() {
                let key = Key {
                    mode,
                    connections: *c,
                    size,
                };
                let (cell, v) = value_cell(r.find(&s.id, key), |x| x.pps, num, notes);
                row.push(cell);
                columns[i].push(if s.is_raw() { None } else { v });
                if let Some(v) = v {
                    points.push((*c as f64, v));
                }
            }
            table.rows.push(row);
            if !points.is_empty() {
                series.push(server_line(r, s, points));
            }
        }
        for (i, values) in columns.iter().enumerate() {
            for (row, best) in table.rows.iter_mut().zip(mark_best(values, false)) {
                row[1 + i].best = best;
            }
        }
        out.push(Block::Table(table));
        if !series.is_empty() {
            out.push(Block::Chart(Chart::Lines(Lines {
                title: format!("Scaling at {size} B: {}", mode_label(mode)),
                x_label: "connections".into(),
                y_label: "packets/s".into(),
                x_ticks: conns.iter().map(|c| *c as f64).collect(),
                series,
            })));
        }
    }
}

/// A table with a row per size (labelled in its first column) and a column per entry of
/// `columns`: `row` gives the cells of the row of `key` (`mode`, `conns`, the size).
pub fn size_table(
    r: &NetResults,
    mode: &str,
    conns: u64,
    columns: impl IntoIterator<Item = String>,
    mut row: impl FnMut(Key) -> Vec<Cell>,
) -> Table {
    let mut headers = vec!["size (B)".to_string()];
    headers.extend(columns);
    let rows = r
        .sizes()
        .into_iter()
        .map(|size| {
            let mut cells = vec![Cell::text(size.to_string())];
            cells.extend(row(Key {
                mode,
                connections: conns,
                size,
            }));
            cells
        })
        .collect();
    Table {
        headers,
        rows,
        label_columns: 1,
    }
}

/// Each framed server's packets/s over its raw echo's, per mode and connection count.
pub fn overhead(r: &NetResults, notes: &mut Notes, out: &mut Vec<Block>) {
    let servers: Vec<&Server> = r
        .framed()
        .into_iter()
        .filter(|s| s.baseline.is_some())
        .collect();
    if servers.is_empty() {
        return;
    }
    out.push(Block::Heading(2, "Framing overhead".into()));
    out.push(Block::Para(format!(
        "A server's packets/s over the raw echo of the same runtime in the same cell (1.00x: \
         framing is free), and in brackets the share of throughput it costs (1 − ratio; negative: \
         faster than the raw echo). ✗ marks a bitwire cell over the goal's {}.",
        percent(MAX_FRAMING_COST)
    )));
    for mode in r.modes() {
        for conns in r.connections() {
            out.push(Block::Heading(
                3,
                format!("{}, {}", mode_label(mode), connections_label(conns)),
            ));
            let columns = servers
                .iter()
                .map(|s| format!("{} / {}", s.id, s.baseline.as_deref().unwrap_or("")));
            let table = size_table(r, mode, conns, columns, |key| {
                servers
                    .iter()
                    .map(|s| overhead_cell(r, s, key, notes))
                    .collect()
            });
            out.push(Block::Table(table));
        }
    }
}

/// One overhead cell: the ratio and cost, an error when either side failed, a dash when
/// either is missing.
pub fn overhead_cell(r: &NetResults, s: &Server, key: Key, notes: &mut Notes) -> Cell {
    let base = s.baseline.as_deref().unwrap_or("");
    for found in [r.find(&s.id, key), r.find(base, key)] {
        if let Found::Failed(c) = found {
            return error_cell(c, notes);
        }
    }
    match overhead_ratio(r, &s.id, base, key) {
        Some(ratio) => {
            let cost = framing_cost(ratio);
            let over = s.kind == "bitwire" && cost > MAX_FRAMING_COST + 1e-12;
            Cell::text(format!(
                "{ratio:.2}x ({}){}",
                percent(cost),
                if over { " ✗" } else { "" }
            ))
        }
        None => Cell::text("–"),
    }
}
