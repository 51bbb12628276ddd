//! Latency (percentiles and CDF per connection count, the p99 of every cell), CPU per packet
//! (server and driver, with how busy each one's core was) and bytes on the wire.

use super::doc::value_cell;
use super::load::{Cell as NetCell, Key, NetResults, Server};
use super::throughput::{column_order, connections_label, mode_label, server_line, size_table};
use crate::doc::{mark_best, Block, Cell, Notes, Table};
use crate::format::{num, thousands};
use crate::svg::{Chart, Lines};

/// The mode latency is read in: ping-pong (a round trip without queueing) if measured.
fn latency_mode(r: &NetResults) -> Option<&str> {
    let modes = r.modes();
    modes
        .iter()
        .find(|m| **m == "pingpong")
        .or(modes.first())
        .copied()
}

/// A latency figure of a cell.
type Figure = fn(&NetCell) -> Option<f64>;

/// The columns of a latency table.
const PERCENTILES: &[(&str, Figure)] = &[
    ("mean µs", |c| c.latency_us.as_ref().and_then(|l| l.mean)),
    ("p50 µs", |c| c.latency_us.as_ref().and_then(|l| l.p50)),
    ("p90 µs", |c| c.latency_us.as_ref().and_then(|l| l.p90)),
    ("p99 µs", |c| c.latency_us.as_ref().and_then(|l| l.p99)),
    ("p999 µs", |c| c.latency_us.as_ref().and_then(|l| l.p999)),
    ("max µs", |c| c.latency_us.as_ref().and_then(|l| l.max)),
];

/// Percentiles and a CDF per connection count at the reference size, then every cell's p99.
pub fn latency(r: &NetResults, notes: &mut Notes, out: &mut Vec<Block>) {
    let (Some(mode), Some(size)) = (latency_mode(r), r.reference_size()) else {
        return;
    };
    out.push(Block::Heading(2, "Latency".into()));
    out.push(Block::Para(format!(
        "Round trip of each measured packet in {} mode at {size} B, in µs; the lowest framed \
         figure of each column in bold. The seed reported an average of 0.15–0.72 ms \
         (150–720 µs) with spikes to 12 ms (12,000 µs).{}",
        mode_label(mode),
        mean_range(r, mode, size)
    )));
    let servers = column_order(r);
    for conns in r.connections() {
        let key = Key {
            mode,
            connections: conns,
            size,
        };
        out.push(Block::Heading(3, connections_label(conns)));
        let mut headers = vec!["server".to_string()];
        headers.extend(PERCENTILES.iter().map(|(h, _)| h.to_string()));
        let mut table = Table {
            headers,
            label_columns: 1,
            ..Table::default()
        };
        let mut columns: Vec<Vec<Option<f64>>> = vec![Vec::new(); PERCENTILES.len()];
        let mut series = Vec::new();
        for s in &servers {
            let found = r.find(&s.id, key);
            let mut row = vec![Cell::text(&s.id)];
            for (i, (_, figure)) in PERCENTILES.iter().enumerate() {
                let (cell, v) = value_cell(found, figure, num, notes);
                row.push(cell);
                columns[i].push(if s.is_raw() { None } else { v });
            }
            table.rows.push(row);
            if let Some(c) = found.ok() {
                series.extend(cdf_line(r, s, c));
            }
        }
        for (i, values) in columns.iter().enumerate() {
            for (row, best) in table.rows.iter_mut().zip(mark_best(values, true)) {
                row[1 + i].best = best;
            }
        }
        out.push(Block::Table(table));
        if !series.is_empty() {
            out.push(Block::Chart(Chart::Lines(Lines {
                title: format!(
                    "Latency CDF: {}, {}, {size} B",
                    mode_label(mode),
                    connections_label(conns)
                ),
                x_label: "µs round trip".into(),
                y_label: "fraction of packets".into(),
                x_ticks: vec![],
                series,
            })));
        }
    }
    let p99: Figure = |c| c.p99();
    out.push(every_cell(
        r,
        "p99 latency of every cell (µs)",
        "The 99th percentile round trip of every cell; pipelined latency includes the wait \
         behind the window.",
        p99,
        notes,
    ));
}

/// " Here: mean a–b µs, max up to c µs." over the framed servers at `size` in `mode`.
fn mean_range(r: &NetResults, mode: &str, size: u64) -> String {
    let mut means = Vec::new();
    let mut max = 0.0f64;
    for s in r.framed() {
        for conns in r.connections() {
            let key = Key {
                mode,
                connections: conns,
                size,
            };
            if let Some(l) = r.find(&s.id, key).ok().and_then(|c| c.latency_us.as_ref()) {
                means.extend(l.mean);
                max = max.max(l.max.unwrap_or(0.0));
            }
        }
    }
    if means.is_empty() {
        return String::new();
    }
    let lo = means.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = means.iter().copied().fold(0.0, f64::max);
    format!(
        " Here the framed servers' means were {}–{} µs over these connection counts, their \
         slowest packet {} µs.",
        num(lo),
        num(hi),
        num(max)
    )
}

/// A server's CDF as a line (x: µs, y: fraction), if the cell has one.
fn cdf_line(r: &NetResults, s: &Server, c: &NetCell) -> Option<crate::svg::Line> {
    let l = c.latency_us.as_ref()?;
    let points: Vec<(f64, f64)> = l
        .cdf
        .iter()
        .map(|(f, us)| (*us, *f))
        .filter(|p| p.0 > 0.0)
        .collect();
    if points.is_empty() {
        return None;
    }
    let mut line = server_line(r, s, points);
    line.markers = false;
    Some(line)
}

/// A folded section with one table per mode and connection count: sizes × servers, the
/// figure `value` of every cell.
fn every_cell(
    r: &NetResults,
    summary: &str,
    text: &str,
    value: Figure,
    notes: &mut Notes,
) -> Block {
    let servers = column_order(r);
    let mut blocks = vec![Block::Para(text.into())];
    for mode in r.modes() {
        for conns in r.connections() {
            blocks.push(Block::Heading(
                4,
                format!("{}, {}", mode_label(mode), connections_label(conns)),
            ));
            let ids = servers.iter().map(|s| s.id.clone());
            let table = size_table(r, mode, conns, ids, |key| {
                servers
                    .iter()
                    .map(|s| value_cell(r.find(&s.id, key), value, num, notes).0)
                    .collect()
            });
            blocks.push(Block::Table(table));
        }
    }
    Block::Details(summary.into(), blocks)
}

/// Server and driver CPU per packet at the reference size, and the server's for every cell.
pub fn cpu(r: &NetResults, notes: &mut Notes, out: &mut Vec<Block>) {
    let Some(size) = r.reference_size() else {
        return;
    };
    out.push(Block::Heading(2, "CPU per packet".into()));
    out.push(Block::Para(format!(
        "CPU time (user + system) of the server process and of the driver over the measured \
         phase, per packet, in µs, at {size} B; \"busy\" is that CPU time per second, as a share of \
         one core (a side near 100% is the bottleneck). The lowest framed server figure in bold."
    )));
    let servers = column_order(r);
    let figures: [(&str, Figure); 5] = [
        ("packets/s", |c| c.pps),
        ("server µs/packet", |c| c.server_cpu_us_per_packet),
        ("server core busy", |c| {
            Some(c.server_cpu_us_per_packet? * c.pps? / 1e4)
        }),
        ("driver µs/packet", |c| c.driver_cpu_us_per_packet),
        ("driver core busy", |c| {
            Some(c.driver_cpu_us_per_packet? * c.pps? / 1e4)
        }),
    ];
    for mode in r.modes() {
        for conns in r.connections() {
            let key = Key {
                mode,
                connections: conns,
                size,
            };
            out.push(Block::Heading(
                3,
                format!("{}, {}", mode_label(mode), connections_label(conns)),
            ));
            let mut headers = vec!["server".to_string()];
            headers.extend(figures.iter().map(|(h, _)| h.to_string()));
            let mut table = Table {
                headers,
                label_columns: 1,
                ..Table::default()
            };
            let mut server_cpu = Vec::new();
            for s in &servers {
                let found = r.find(&s.id, key);
                let mut row = vec![Cell::text(&s.id)];
                for (i, (_, figure)) in figures.iter().enumerate() {
                    let format: fn(f64) -> String = if i == 2 || i == 4 {
                        |v| format!("{v:.0}%")
                    } else {
                        num
                    };
                    let (cell, v) = value_cell(found, figure, format, notes);
                    row.push(cell);
                    if i == 1 {
                        server_cpu.push(if s.is_raw() { None } else { v });
                    }
                }
                table.rows.push(row);
            }
            for (row, best) in table.rows.iter_mut().zip(mark_best(&server_cpu, true)) {
                row[2].best = best;
            }
            out.push(Block::Table(table));
        }
    }
    let server_cpu: Figure = |c| c.server_cpu_us_per_packet;
    out.push(every_cell(
        r,
        "Server CPU per packet of every cell (µs)",
        "Server CPU time per packet of every cell.",
        server_cpu,
        notes,
    ));
}

/// Bytes per packet on the wire, per size, over every measured cell.
pub fn wire(r: &NetResults, out: &mut Vec<Block>) {
    out.push(Block::Heading(2, "Bytes on the wire".into()));
    out.push(Block::Para(
        "Per size: the request frame (the frame's Data plus its Length and PacketID VarInts) and \
         the bytes the driver sent and received per measured packet, over every cell measured \
         without errors (a range where cells differ)."
            .into(),
    ));
    let mut table = Table {
        headers: [
            "size (B)",
            "frame (B)",
            "framing (B)",
            "sent per packet (B)",
            "received per packet (B)",
            "cells",
        ]
        .map(String::from)
        .to_vec(),
        label_columns: 1,
        ..Table::default()
    };
    for size in r.sizes() {
        let cells: Vec<&NetCell> = r
            .cells
            .iter()
            .filter(|c| c.size == size && !c.failed())
            .collect();
        let per_packet = |bytes: fn(&NetCell) -> Option<u64>| {
            range(cells.iter().filter_map(|c| {
                let packets = c.packets.filter(|p| *p > 0)?;
                Some(bytes(c)? as f64 / packets as f64)
            }))
        };
        let frame = range(cells.iter().filter_map(|c| c.frame_bytes.map(|b| b as f64)));
        let framing = range(
            cells
                .iter()
                .filter_map(|c| c.frame_bytes.map(|b| b as f64 - size as f64)),
        );
        table.rows.push(vec![
            Cell::text(size.to_string()),
            Cell::text(frame),
            Cell::text(framing),
            Cell::text(per_packet(|c| c.bytes_sent)),
            Cell::text(per_packet(|c| c.bytes_received)),
            Cell::text(thousands(cells.len() as i64)),
        ]);
    }
    out.push(Block::Table(table));
}

/// `min–max` of the values (one number when they agree to 0.005, a dash when none).
fn range(values: impl Iterator<Item = f64>) -> String {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !lo.is_finite() {
        "–".into()
    } else if hi - lo < 0.005 {
        num(lo)
    } else {
        format!("{}–{}", num(lo), num(hi))
    }
}
