//! The delta lines of the differential corpus ([`crate::corpus`]; spec §12), written
//! for every `delta message` of a suite from the reference codec:
//!
//! - `{"suite", "type", "baseline", "value", "delta"}` — a (baseline, value) pair and
//!   the delta of the value against the baseline; the delta decodes against the
//!   baseline to the value;
//! - `{"suite", "type", "baseline", "input", "outcome"}` — a hostile delta (the valid
//!   one mutated, zero or random bytes, decoded against another baseline, or against a
//!   baseline whose keyed list is out of order) and what the reference decoder makes of it against the
//!   baseline: `{"value": …}` or `{"error": {"kind", "bit", "path"}}`;
//! - `{"suite", "type", "baseline", "value", "outcome"}` — a pair the encoder rejects
//!   (a changed keyed list out of key order, in the value or the baseline):
//!   `{"error": {"kind", "path"}}` (encoder errors have no bit offset, §12.7).
//!
//! Baselines are what a receiver holds: random values with their keyed lists in key
//! order, decoded from their full encoding (so quantized floats are on their grid).
//! Values are perturbed copies of the baseline (`codec::random_delta::perturb`, at a
//! few rates) or unrelated random values, made canonical the same way.

use std::io::Write;

use bitwire_compiler::codec::random::{random_value, Rng};
use bitwire_compiler::codec::random_delta::{perturb, sort_keys};
use bitwire_compiler::codec::{self, CodecError, Value};
use bitwire_compiler::ir::{Schema, Type, TypeDefKind, TypeId};
use serde_json::{json, Value as Json};

use crate::corpus::{Counts, Suite};
use crate::mutate::mutations;

/// How far a value is from its baseline, by case number: an unrelated value, then
/// `perturb` at these rates (the chance of touching each part).
const RATES: [u64; 3] = [40, 70, 90];

/// What the reference delta decoder makes of `input` against `baseline`.
pub fn delta_outcome(schema: &Schema, id: TypeId, baseline: &Value, input: &[u8]) -> Json {
    match codec::decode_delta(schema, id, baseline, input) {
        Ok(v) => json!({ "value": codec::value_to_json(schema, id, &v) }),
        Err(CodecError::Wire { kind, bit, path }) => {
            json!({ "error": { "kind": kind.name(), "bit": bit, "path": path } })
        }
        Err(e) => panic!("reference decode_delta gave a non-wire error: {e}"),
    }
}

/// `v` as a receiver holds it: its full encoding decoded.
fn received(schema: &Schema, id: TypeId, v: &Value) -> Result<Value, CodecError> {
    codec::decode(schema, id, &codec::encode(schema, id, v)?)
}

/// One suite's delta message: where lines go and what they are counted as.
struct Writer<'a> {
    out: &'a mut dyn Write,
    suite: &'a str,
    schema: &'a Schema,
    id: TypeId,
}

impl Writer<'_> {
    fn line(&mut self, baseline: &Value, rest: Json) -> std::io::Result<()> {
        let (s, id) = (self.schema, self.id);
        let mut line = json!({
            "suite": self.suite, "type": s.types[id].name,
            "baseline": codec::value_to_json(s, id, baseline),
        });
        if let (Json::Object(line), Json::Object(rest)) = (&mut line, rest) {
            line.extend(rest);
        }
        writeln!(self.out, "{line}")
    }

    fn json(&self, v: &Value) -> Json {
        codec::value_to_json(self.schema, self.id, v)
    }

    /// A valid pair, when the reference decodes its own delta back to the value.
    fn pair(&mut self, b: &Value, v: &Value, delta: &[u8]) -> std::io::Result<bool> {
        match codec::decode_delta(self.schema, self.id, b, delta) {
            Ok(back) if &back == v => {
                let rest = json!({ "value": self.json(v), "delta": codec::to_hex(delta) });
                self.line(b, rest)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn input(&mut self, b: &Value, input: &[u8]) -> std::io::Result<()> {
        let outcome = delta_outcome(self.schema, self.id, b, input);
        self.line(
            b,
            json!({ "input": codec::to_hex(input), "outcome": outcome }),
        )
    }

    /// The encoder's outcome for `(b, v)`: an error line, or a valid pair when it
    /// encodes (an out-of-order list the encoder never walks: inside an added element).
    fn encode(&mut self, b: &Value, v: &Value, counts: &mut Counts) -> std::io::Result<()> {
        match codec::encode_delta(self.schema, self.id, b, v) {
            Ok(delta) => {
                if self.pair(b, v, &delta)? {
                    counts.deltas += 1;
                }
            }
            Err(CodecError::Wire { kind, path, .. }) => {
                let outcome = json!({ "error": { "kind": kind.name(), "path": path } });
                self.line(b, json!({ "value": self.json(v), "outcome": outcome }))?;
                counts.delta_encode_errors += 1;
            }
            Err(e) => panic!("reference encode_delta gave a non-wire error: {e}"),
        }
        Ok(())
    }
}

/// Writes the delta lines of the `delta message` `id` of `suite`: `opts.cases` pairs
/// (values drawn from `draw`, the suite's [`crate::values::value_schema`]), each with
/// its mutations, the delta against the previous pair's baseline, and keyed lists put
/// out of order in the value and in the baseline.
pub fn write_delta(
    out: &mut dyn Write,
    rng: &mut Rng,
    suite: &Suite,
    draw: &Schema,
    id: TypeId,
    cases: u64,
    counts: &mut Counts,
) -> std::io::Result<()> {
    let s = &suite.schema;
    let ty = Type::Named {
        id,
        name: s.types[id].name.clone(),
    };
    let mut w = Writer {
        out,
        suite: &suite.name,
        schema: s,
        id,
    };
    let mut previous: Option<Value> = None;
    for n in 0..cases {
        let canonical = |v: &Value| received(s, id, &sort_keys(s, &ty, v));
        let drawn = random_value(rng, draw, &ty);
        let pair = canonical(&drawn).and_then(|b| {
            let v = match (n % 4) as usize {
                0 => random_value(rng, draw, &ty),
                k => perturb(rng, draw, &ty, &b, RATES[k - 1]),
            };
            let v = canonical(&v)?;
            let delta = codec::encode_delta(s, id, &b, &v)?;
            Ok((b, v, delta))
        });
        let (b, v, delta) = match pair {
            Ok(p) => p,
            Err(e) => {
                let what = format!("the reference codec cannot encode its own random pair: {e}");
                counts
                    .rejected
                    .push((suite.name.clone(), ty_name(s, id), what, json!(null)));
                continue;
            }
        };
        if !w.pair(&b, &v, &delta)? {
            let what = "the reference delta decoder does not give back the value".to_string();
            counts
                .rejected
                .push((suite.name.clone(), ty_name(s, id), what, w.json(&v)));
            continue;
        }
        counts.deltas += 1;
        for m in mutations(rng, &delta)
            .into_iter()
            .chain(more_mutations(rng, &delta))
        {
            w.input(&b, &m)?;
            counts.delta_inputs += 1;
        }
        // A stale baseline: the delta decoded against another one.
        if let Some(p) = &previous {
            w.input(p, &delta)?;
            counts.delta_inputs += 1;
        }
        if let Some(unordered) = out_of_order(rng, s, &ty, &v) {
            w.encode(&b, &unordered, counts)?;
        }
        if let Some(unordered) = out_of_order(rng, s, &ty, &b) {
            w.encode(&unordered, &v, counts)?;
            w.input(&unordered, &delta)?;
            counts.delta_inputs += 1;
        }
        previous = Some(b);
    }
    Ok(())
}

/// Hostile deltas beyond [`mutations`]: zero bytes (gap and count codes of many
/// leading zeros), long random bytes, the delta cut and continued at random, and the
/// delta with its first byte all ones (every changed bit of the first fields set).
fn more_mutations(rng: &mut Rng, delta: &[u8]) -> Vec<Vec<u8>> {
    let len = delta.len() as u64;
    let random = |rng: &mut Rng, n: u64| (0..n).map(|_| rng.next_u64() as u8).collect::<Vec<u8>>();
    let mut cut = delta[..rng.below(len + 1) as usize].to_vec();
    let tail = rng.below(17);
    cut.extend(random(rng, tail));
    let mut ones = delta.to_vec();
    if let Some(first) = ones.first_mut() {
        *first = 0xff;
    }
    let long = rng.below(4 * len + 64) + 1;
    vec![
        vec![0; rng.below(2 * len + 16) as usize + 1],
        random(rng, long),
        cut,
        ones,
    ]
}

fn ty_name(s: &Schema, id: TypeId) -> String {
    s.types[id].name.clone()
}

/// `v` with two elements of one of its keyed lists (of two or more elements, picked at
/// random) swapped, or `None` when it has no such list.
pub fn out_of_order(rng: &mut Rng, s: &Schema, ty: &Type, v: &Value) -> Option<Value> {
    let mut lists = Vec::new();
    keyed_lists(s, ty, v, &mut Vec::new(), &mut lists);
    if lists.is_empty() {
        return None;
    }
    let at = &lists[rng.below(lists.len() as u64) as usize];
    let mut out = v.clone();
    let Value::Array(items) = place(&mut out, at) else {
        unreachable!("a keyed list")
    };
    let i = rng.below(items.len() as u64 - 1) as usize;
    let j = i + 1 + rng.below((items.len() - i - 1) as u64) as usize;
    items.swap(i, j);
    Some(out)
}

/// Collects into `out` where in `v` (a value of `ty`) the keyed lists of two or more
/// elements are: the steps from `v` down to each (field, element, payload indexes).
fn keyed_lists(s: &Schema, ty: &Type, v: &Value, at: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    let mut inner: Vec<(usize, &Type, &Value)> = Vec::new();
    match (ty, v) {
        (Type::Named { id, .. }, Value::Struct(values)) => {
            if let TypeDefKind::Struct { fields } = &s.types[*id].kind {
                for (i, (f, (_, fv))) in fields.iter().zip(values).enumerate() {
                    inner.push((i, &f.ty, fv));
                }
            }
        }
        (Type::Named { id, .. }, Value::Union { variant, payload }) => {
            if let (TypeDefKind::Union { variants, .. }, Some(p)) = (&s.types[*id].kind, payload) {
                if let Some(pty) = variants
                    .iter()
                    .find(|x| &x.name == variant)
                    .and_then(|x| x.payload.as_ref())
                {
                    inner.push((0, pty, p));
                }
            }
        }
        (Type::Optional { inner: t }, Value::Optional(Some(x))) => inner.push((0, t, x)),
        (Type::Array { elem, .. } | Type::List { elem, .. }, Value::Array(items)) => {
            if matches!(ty, Type::List { key: Some(_), .. }) && items.len() >= 2 {
                out.push(at.clone());
            }
            inner.extend(items.iter().enumerate().map(|(i, x)| (i, elem.as_ref(), x)));
        }
        _ => {}
    }
    for (i, ty, v) in inner {
        at.push(i);
        keyed_lists(s, ty, v, at, out);
        at.pop();
    }
}

/// The part of `v` that `steps` (from [`keyed_lists`]) lead to.
fn place<'a>(v: &'a mut Value, steps: &[usize]) -> &'a mut Value {
    let Some((&i, rest)) = steps.split_first() else {
        return v;
    };
    let next = match v {
        Value::Struct(fields) => &mut fields[i].1,
        Value::Array(items) => &mut items[i],
        Value::Optional(Some(x)) => x.as_mut(),
        Value::Union {
            payload: Some(p), ..
        } => p.as_mut(),
        _ => unreachable!("steps from keyed_lists"),
    };
    place(next, rest)
}
