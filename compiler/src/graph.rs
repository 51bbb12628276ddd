//! Strongly connected components of the type graph, found without recursion:
//! schemas are untrusted input, and a chain of thousands of named types must not
//! exhaust the stack of any pass.

/// The strongly connected components of the graph `edges` (node → successors), in
/// dependency order: a component comes after every component it has an edge to.
/// Nodes within a component are in ascending order. Tarjan's algorithm with an
/// explicit stack.
pub(crate) fn sccs(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    // (node, position of the next successor to look at)
    let mut work: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        work.push((root, 0));
        while let Some(&mut (v, ref mut pos)) = work.last_mut() {
            if *pos == 0 && index[v] == UNSEEN {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(*pos) {
                *pos += 1;
                if index[w] == UNSEEN {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                component.sort_unstable();
                out.push(component);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::sccs;

    #[test]
    fn components_in_dependency_order() {
        // 0 → 1 → 2 → 1, 3 → 3, 4 → 0
        let edges = vec![vec![1], vec![2], vec![1], vec![3], vec![0]];
        assert_eq!(sccs(&edges), vec![vec![1, 2], vec![0], vec![3], vec![4]]);
    }

    #[test]
    fn long_chains_need_no_stack() {
        let n = 200_000;
        let edges: Vec<Vec<usize>> = (0..n).map(|i| vec![(i + 1) % n]).collect();
        let all = sccs(&edges);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].len(), n);
        let chain: Vec<Vec<usize>> = (0..n)
            .map(|i| if i + 1 < n { vec![i + 1] } else { vec![] })
            .collect();
        let order = sccs(&chain);
        assert_eq!(order.first(), Some(&vec![n - 1]));
        assert_eq!(order.last(), Some(&vec![0]));
    }
}
