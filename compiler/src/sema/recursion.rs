//! Rejects recursive types. A bitwire type may not contain itself by any path —
//! directly, through other types, or through `optional`, `list`, arrays or union
//! payloads — because every type must have a finite, statically known size bound
//! and generated code holds values inline. Each cycle (strongly connected group of
//! types) is reported once, at its first type in declaration order.

use std::collections::VecDeque;

use super::lower::TypeInfo;
use crate::diag::{Code, Diagnostic};
use crate::ir::{Type, TypeDef, TypeDefKind, TypeId};

/// An edge of the type graph: member `member` of one type refers to type `to`.
#[derive(Debug, Clone, Copy)]
struct Edge {
    member: usize,
    to: TypeId,
}

fn named_in(ty: &Type, out: &mut Vec<TypeId>) {
    match ty {
        Type::Named { id, .. } => out.push(*id),
        Type::Optional { inner } => named_in(inner, out),
        Type::Array { elem, .. } | Type::List { elem, .. } => named_in(elem, out),
        _ => {}
    }
}

fn edges_of(def: &TypeDef) -> Vec<Edge> {
    let member_types: Vec<Option<&Type>> = match &def.kind {
        TypeDefKind::Struct { fields } => fields.iter().map(|f| Some(&f.ty)).collect(),
        TypeDefKind::Union { variants, .. } => {
            variants.iter().map(|v| v.payload.as_ref()).collect()
        }
        TypeDefKind::Enum { .. } => Vec::new(),
    };
    let mut edges = Vec::new();
    for (member, ty) in member_types.into_iter().enumerate() {
        let mut targets = Vec::new();
        if let Some(ty) = ty {
            named_in(ty, &mut targets);
        }
        edges.extend(targets.into_iter().map(|to| Edge { member, to }));
    }
    edges
}

/// Every type reachable from `start` by at least one edge.
fn reachable(graph: &[Vec<Edge>], start: TypeId) -> Vec<bool> {
    let mut seen = vec![false; graph.len()];
    let mut queue: VecDeque<TypeId> = graph[start].iter().map(|e| e.to).collect();
    while let Some(t) = queue.pop_front() {
        if !seen[t] {
            seen[t] = true;
            queue.extend(graph[t].iter().map(|e| e.to));
        }
    }
    seen
}

/// The shortest path of edges from `start` back to `start`, as (from, edge) pairs.
fn shortest_cycle(graph: &[Vec<Edge>], start: TypeId) -> Option<Vec<(TypeId, Edge)>> {
    let mut parent: Vec<Option<(TypeId, Edge)>> = vec![None; graph.len()];
    let mut queue = VecDeque::from([start]);
    let mut visited = vec![false; graph.len()];
    visited[start] = true;
    while let Some(t) = queue.pop_front() {
        for &edge in &graph[t] {
            if edge.to == start {
                let mut path = vec![(t, edge)];
                let mut at = t;
                while let Some((from, e)) = parent[at] {
                    path.push((from, e));
                    at = from;
                }
                path.reverse();
                return Some(path);
            }
            if !visited[edge.to] {
                visited[edge.to] = true;
                parent[edge.to] = Some((t, edge));
                queue.push_back(edge.to);
            }
        }
    }
    None
}

/// Reports every recursive type; returns whether there was one.
pub(crate) fn check(types: &[TypeDef], info: &[TypeInfo], diags: &mut Vec<Diagnostic>) -> bool {
    let graph: Vec<Vec<Edge>> = types.iter().map(edges_of).collect();
    let mut reported = vec![false; types.len()];
    let mut found = false;
    for start in 0..types.len() {
        if reported[start] {
            continue;
        }
        let Some(path) = shortest_cycle(&graph, start) else {
            continue;
        };
        found = true;
        // Mark the whole strongly connected group, so it is reported once.
        let from_start = reachable(&graph, start);
        for (t, r) in from_start.iter().enumerate() {
            if *r && reachable(&graph, t)[start] {
                reported[t] = true;
            }
        }
        let name = &types[start].name;
        let mut chain: Vec<String> = path
            .iter()
            .map(|(from, e)| {
                format!(
                    "`{}.{}`",
                    types[*from].name, info[*from].members[e.member].name
                )
            })
            .collect();
        chain.push(format!("`{name}`"));
        let (last_from, last_edge) = path[path.len() - 1];
        let closing = &info[last_from].members[last_edge.member];
        let closing_span = closing
            .ty_span
            .expect("an edge comes from a member with a type");
        let label = if last_from == start {
            format!("`{name}.{}` contains `{name}` itself", closing.name)
        } else {
            format!(
                "`{}.{}` leads back to `{name}`, closing the cycle",
                types[last_from].name, closing.name
            )
        };
        diags.push(
            Diagnostic::error(
                Code::RecursiveType,
                format!("recursive type `{name}`"),
                info[start].name_span,
                format!("`{name}` contains itself"),
            )
            .with_secondary(closing_span, label)
            .with_note(format!("cycle: {}", chain.join(" -> ")))
            .with_help(
                "types cannot contain themselves, not even through `optional`, `list` or a union; \
                 refer to other values by an id (e.g. a `u32` index) instead",
            ),
        );
    }
    found
}
