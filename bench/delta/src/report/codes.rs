//! The format measurement ([`crate::codes`]) as tables: mean bits per changed scalar in
//! each code, mean bits per tick of each list walk, and the scalars per field. The same
//! tables go into the report and, as Markdown, to `deltabench codes` (for docs/spec.md §12).

use crate::codes::{CodesRow, ScalarCosts};
use bitwire_report::doc::{mark_best, Cell, Table};
use bitwire_report::format::num;

fn per(total: u64, count: u64) -> f64 {
    if count == 0 {
        0.0
    } else {
        total as f64 / count as f64
    }
}

fn scenario_name(id: &str) -> &str {
    match id {
        "world" => "moving world",
        "cubes" => "cube scene",
        other => other,
    }
}

/// Numeric cells with the smallest of them bold.
fn costs(values: &[f64]) -> Vec<Cell> {
    let present: Vec<Option<f64>> = values.iter().map(|v| Some(*v)).collect();
    values
        .iter()
        .zip(mark_best(&present, true))
        .map(|(v, best)| Cell {
            best,
            ..Cell::text(num(*v))
        })
        .collect()
}

fn scalar_cells(c: &ScalarCosts) -> Vec<Cell> {
    costs(&[
        per(c.raw, c.changed),
        per(c.diff, c.changed),
        per(c.exp_golomb, c.changed),
        per(c.varint, c.changed),
    ])
}

/// Mean bits per changed scalar in each code, per scenario and baseline age.
pub fn scalars_table(rows: &[CodesRow]) -> Table {
    let mut t = Table {
        headers: vec![
            "scenario".into(),
            "baseline age (ticks)".into(),
            "changed scalars / tick".into(),
            "raw (w bits)".into(),
            "§12.4 difference code".into(),
            "Exp-Golomb of z − 1".into(),
            "§5.4 varint of z".into(),
        ],
        label_columns: 2,
        ..Table::default()
    };
    for r in rows {
        let mut row = vec![
            Cell::text(scenario_name(&r.scenario)),
            Cell::text(r.age.to_string()),
            Cell::text(num(per(r.scalars.changed, r.ticks as u64))),
        ];
        row.extend(scalar_cells(&r.scalars));
        t.rows.push(row);
    }
    t
}

/// Mean bits per tick of the two list walks, per scenario and baseline age.
pub fn walk_table(rows: &[CodesRow]) -> Table {
    let mut t = Table {
        headers: vec![
            "scenario".into(),
            "baseline age (ticks)".into(),
            "baseline elements / tick".into(),
            "events / tick".into(),
            "bitmap: L + E bits".into(),
            "§12.5 Exp-Golomb gaps + op bits".into(),
        ],
        label_columns: 2,
        ..Table::default()
    };
    for r in rows {
        let ticks = r.ticks as u64;
        let mut row = vec![
            Cell::text(scenario_name(&r.scenario)),
            Cell::text(r.age.to_string()),
            Cell::text(num(per(r.walk.elements, ticks))),
            Cell::text(num(per(r.walk.events, ticks))),
        ];
        row.extend(costs(&[per(r.walk.bitmap, ticks), per(r.walk.gaps, ticks)]));
        t.rows.push(row);
    }
    t
}

/// Mean bits per changed scalar in each code, per field.
pub fn fields_table(rows: &[CodesRow]) -> Table {
    let mut t = scalars_table(&[]);
    t.headers.insert(2, "field".into());
    t.label_columns = 3;
    for r in rows {
        for (name, c) in r.fields.iter().filter(|f| f.1.changed > 0) {
            let mut row = vec![
                Cell::text(scenario_name(&r.scenario)),
                Cell::text(r.age.to_string()),
                Cell::text(name.clone()),
                Cell::text(num(per(c.changed, r.ticks as u64))),
            ];
            row.extend(scalar_cells(c));
            t.rows.push(row);
        }
    }
    t
}

/// A table as GitHub Markdown, best values bold.
pub fn table_markdown(t: &Table) -> String {
    let mut out = format!("| {} |\n|", t.headers.join(" | "));
    for i in 0..t.headers.len() {
        out.push_str(if i < t.label_columns { "---|" } else { "---:|" });
    }
    out.push('\n');
    for row in &t.rows {
        let cells: Vec<String> = row
            .iter()
            .map(|c| {
                if c.best {
                    format!("**{}**", c.text)
                } else {
                    c.text.clone()
                }
            })
            .collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    out
}

/// What the codes are, for the report and the Markdown.
pub const EXPLANATION: &str =
    "On the scenarios' wire values (docs/spec.md §12.2), tick t against the \
tick 1 or 6 ticks older (the baseline age; tick 0 for the first ticks), every tick but the first. A changed scalar of \
width w, with z the zigzag of its difference in w bits (z ≥ 1): raw = w bits; §12.4 = \
bits_for(w − 1) + bits_for(z) − 1; Exp-Golomb (order 0) of z − 1 = 2·bits_for(z) − 1; §5.4 = the \
prefix varint of z in varu16/varu32/varu64 by w. The changed bit before each field is the same for \
all and not counted. List walk over L baseline elements with E events (changed or removed): \
bitmap = L + E bits (a bit per element, an op bit per event); §12.5 = its Exp-Golomb gap codes \
plus E op bits. Added elements cost the same either way and are not counted. Bold: the smallest.";

/// The whole measurement as Markdown (`deltabench codes`).
pub fn markdown(rows: &[CodesRow]) -> String {
    format!(
        "{EXPLANATION}\n\nMean bits per changed scalar:\n\n{}\nMean bits per tick of the list walk:\n\n{}\n\
         Per field (mean bits per changed scalar):\n\n{}",
        table_markdown(&scalars_table(rows)),
        table_markdown(&walk_table(rows)),
        table_markdown(&fields_table(rows))
    )
}
