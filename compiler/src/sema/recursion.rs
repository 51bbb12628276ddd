//! Rejects recursive types. A bitwire type may not contain itself by any path —
//! directly, through other types, or through `optional`, `list`, arrays or union
//! payloads — because every type must have a finite, statically known size bound
//! and generated code holds values inline. Each cycle (strongly connected group of
//! types) is reported once, at its first type in declaration order.
//!
//! Nothing here recurses: the groups come from [`crate::graph::sccs`] and the
//! cycle shown is found by a breadth-first search inside its group, so the check
//! is linear in the size of the schema however long the chains of types are.

use std::collections::VecDeque;

use super::model::Model;
use crate::diag::{Code, Diagnostic};
use crate::ir::TypeId;

/// An edge of the type graph: member `member` of one type refers to type `to`.
#[derive(Debug, Clone, Copy)]
struct Edge {
    member: usize,
    to: TypeId,
}

/// Scratch space for the cycle searches, allocated once per schema (a search per
/// group must not cost the size of the whole schema).
struct Search {
    parent: Vec<Option<(TypeId, Edge)>>,
    visited: Vec<bool>,
}

impl Search {
    /// The shortest path of edges from `start` back to `start` that stays inside
    /// `group` (every cycle through `start` does), as (from, edge) pairs. Only the
    /// entries of `group` are touched, and they are cleared again.
    fn shortest_cycle(
        &mut self,
        graph: &[Vec<Edge>],
        group: &[TypeId],
        in_group: &[bool],
    ) -> Option<Vec<(TypeId, Edge)>> {
        let start = group[0];
        let mut queue = VecDeque::from([start]);
        self.visited[start] = true;
        let mut found = None;
        'search: while let Some(t) = queue.pop_front() {
            for &edge in &graph[t] {
                if edge.to == start {
                    let mut path = vec![(t, edge)];
                    let mut at = t;
                    while let Some((from, e)) = self.parent[at] {
                        path.push((from, e));
                        at = from;
                    }
                    path.reverse();
                    found = Some(path);
                    break 'search;
                }
                if in_group[edge.to] && !self.visited[edge.to] {
                    self.visited[edge.to] = true;
                    self.parent[edge.to] = Some((t, edge));
                    queue.push_back(edge.to);
                }
            }
        }
        for &t in group {
            self.visited[t] = false;
            self.parent[t] = None;
        }
        found
    }
}

/// Reports every recursive type; returns whether there was one.
pub(crate) fn check(model: &Model, diags: &mut Vec<Diagnostic>) -> bool {
    let graph: Vec<Vec<Edge>> = model
        .edges()
        .into_iter()
        .map(|edges| {
            edges
                .into_iter()
                .map(|(member, to)| Edge { member, to })
                .collect()
        })
        .collect();
    let plain: Vec<Vec<usize>> = graph
        .iter()
        .map(|edges| edges.iter().map(|e| e.to).collect())
        .collect();
    let mut found = false;
    let mut in_group = vec![false; graph.len()];
    let mut search = Search {
        parent: vec![None; graph.len()],
        visited: vec![false; graph.len()],
    };
    for group in crate::graph::sccs(&plain) {
        group.iter().for_each(|&t| in_group[t] = true);
        // The group's first type in declaration order names the cycle.
        if let Some(path) = search.shortest_cycle(&graph, &group, &in_group) {
            found = true;
            diags.push(cycle_diagnostic(model, group[0], &path));
        }
        group.iter().for_each(|&t| in_group[t] = false);
    }
    found
}

fn cycle_diagnostic(model: &Model, start: TypeId, path: &[(TypeId, Edge)]) -> Diagnostic {
    let types = &model.types;
    let name = &types[start].name;
    let mut chain: Vec<String> = path
        .iter()
        .map(|(from, e)| {
            format!(
                "`{}.{}`",
                types[*from].name,
                types[*from].member(e.member).0
            )
        })
        .collect();
    chain.push(format!("`{name}`"));
    let (last_from, last_edge) = path[path.len() - 1];
    let (closing, spans) = types[last_from].member(last_edge.member);
    let closing_span = spans.ty.expect("an edge comes from a member with a type");
    let label = if last_from == start {
        format!("`{name}.{closing}` contains `{name}` itself")
    } else {
        format!(
            "`{}.{closing}` leads back to `{name}`, closing the cycle",
            types[last_from].name
        )
    };
    Diagnostic::error(
        Code::RecursiveType,
        format!("recursive type `{name}`"),
        types[start].spans.name,
        format!("`{name}` contains itself"),
    )
    .with_secondary(closing_span, label)
    .with_note(format!("cycle: {}", chain.join(" -> ")))
    .with_help(
        "types cannot contain themselves, not even through `optional`, `list` or a union; \
         refer to other values by an id (e.g. a `u32` index) instead",
    )
}
