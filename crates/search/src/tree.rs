//! The search tree: an arena of nodes, children linked first-child/next-sibling, so growing
//! the tree costs one push per expansion and no allocation per node.

use engine::Seat;

/// No node (the end of a child list).
pub(crate) const NONE: u32 = u32::MAX;
pub(crate) const ROOT: u32 = 0;

#[derive(Clone, Debug)]
pub(crate) struct Node<A> {
    /// The seat whose action led here (the observer, for the root), and that action.
    pub seat: Seat,
    pub action: Option<A>,
    pub first_child: u32,
    pub next_sibling: u32,
    pub visits: u32,
    /// How many times this node's action was legal when its parent was selected through.
    pub avail: u32,
    /// Sum of `seat`'s rewards over the visits.
    pub reward: f64,
    /// Where `action` stood in its parent's list when last found (where to look first).
    pub hint: u32,
}

#[derive(Debug)]
pub(crate) struct Tree<A> {
    pub nodes: Vec<Node<A>>,
}

impl<A> Tree<A> {
    pub fn new() -> Self {
        Tree { nodes: Vec::new() }
    }

    /// Empties the tree (keeping its storage) and plants a root.
    pub fn reset(&mut self, observer: Seat) {
        self.nodes.clear();
        self.nodes.push(Node {
            seat: observer,
            action: None,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            avail: 0,
            reward: 0.0,
            hint: 0,
        });
    }

    /// Adds a child of `parent` (at the front of its list), found at `hint` in the parent's
    /// list, and returns it.
    pub fn add_child(&mut self, parent: u32, seat: Seat, action: A, hint: u32) -> u32 {
        let id = u32::try_from(self.nodes.len()).expect("tree under 4 billion nodes");
        let p = &mut self.nodes[parent as usize];
        let next_sibling = p.first_child;
        p.first_child = id;
        self.nodes.push(Node {
            seat,
            action: Some(action),
            first_child: NONE,
            next_sibling,
            visits: 0,
            avail: 1,
            reward: 0.0,
            hint,
        });
        id
    }

    pub fn node(&self, id: u32) -> &Node<A> {
        &self.nodes[id as usize]
    }

    pub fn node_mut(&mut self, id: u32) -> &mut Node<A> {
        &mut self.nodes[id as usize]
    }

    /// The children of `parent`, most recently added first.
    pub fn children(&self, parent: u32) -> impl Iterator<Item = u32> + '_ {
        let mut c = self.node(parent).first_child;
        std::iter::from_fn(move || {
            (c != NONE).then(|| {
                let id = c;
                c = self.node(id).next_sibling;
                id
            })
        })
    }
}
