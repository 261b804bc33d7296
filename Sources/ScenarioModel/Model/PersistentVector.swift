/// An immutable-node vector: a 32-way trie whose leaves hold up to 32 elements (the shape of Clojure's
/// persistent vector, without its tail buffer).
///
/// Copies share every node. Replacing or appending an element copies only the nodes on the path to its
/// leaf: at most ⌈log32 n⌉ + 1 nodes of at most 32 entries (4 nodes for 100,000 elements), so a change
/// costs O(log n) however many elements there are, while a reader holding the previous value keeps it
/// unchanged. Reading one element walks the same path. Built from a sequence in O(n).
struct PersistentVector<Element: Sendable>: Sendable {
    /// An inner node (`children`) or a leaf (`elements`); never changed after it is made.
    final class Node: Sendable {
        let children: [Node]
        let elements: [Element]

        init(children: [Node] = [], elements: [Element] = []) {
            self.children = children
            self.elements = elements
        }
    }

    private static var bits: Int { 5 }
    private static var width: Int { 1 << bits }
    private static var mask: Int { width - 1 }

    private(set) var count = 0
    private var root: Node?
    /// Bits of the position consumed above the leaves (`bits` × levels of inner nodes).
    private var shift = 0

    init() {}

    /// All of `elements` in order: leaves of 32, then parents of 32 leaves, … (O(n), nothing copied twice).
    init<Elements: Sequence>(_ elements: Elements) where Elements.Element == Element {
        let all = Array(elements)
        guard !all.isEmpty else { return }
        var level = stride(from: 0, to: all.count, by: Self.width).map { start in
            Node(elements: Array(all[start..<min(start + Self.width, all.count)]))
        }
        while level.count > 1 {
            level = stride(from: 0, to: level.count, by: Self.width).map { start in
                Node(children: Array(level[start..<min(start + Self.width, level.count)]))
            }
            shift += Self.bits
        }
        root = level[0]
        count = all.count
    }

    subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "PersistentVector index out of range")
            var node = root!
            var level = shift
            while level > 0 {
                node = node.children[(position >> level) & Self.mask]
                level -= Self.bits
            }
            return node.elements[position & Self.mask]
        }
        set {
            precondition(position >= 0 && position < count, "PersistentVector index out of range")
            root = Self.replacing(root!, level: shift, position: position, with: newValue)
        }
    }

    mutating func append(_ element: Element) {
        guard let root else {
            self.root = Node(elements: [element])
            count = 1
            return
        }
        if count == 1 << (shift + Self.bits) {
            // Every leaf is full: a new root over the old one and a fresh path to the new leaf.
            self.root = Node(children: [root, Self.path(level: shift, to: element)])
            shift += Self.bits
        } else {
            self.root = Self.appending(element, to: root, level: shift, position: count)
        }
        count += 1
    }

    private static func replacing(_ node: Node, level: Int, position: Int, with element: Element) -> Node {
        if level == 0 {
            var elements = node.elements
            elements[position & mask] = element
            return Node(elements: elements)
        }
        var children = node.children
        let slot = (position >> level) & mask
        children[slot] = replacing(children[slot], level: level - bits, position: position, with: element)
        return Node(children: children)
    }

    private static func appending(_ element: Element, to node: Node, level: Int, position: Int) -> Node {
        if level == 0 { return Node(elements: node.elements + [element]) }
        var children = node.children
        let slot = (position >> level) & mask
        if slot < children.count {
            children[slot] = appending(element, to: children[slot], level: level - bits, position: position)
        } else {
            children.append(path(level: level - bits, to: element))
        }
        return Node(children: children)
    }

    /// A chain of single-child nodes down to a leaf holding `element`.
    private static func path(level: Int, to element: Element) -> Node {
        level == 0 ? Node(elements: [element]) : Node(children: [path(level: level - bits, to: element)])
    }

    /// Every node of this vector, for tests that check how much two versions share.
    package var nodeIdentities: Set<ObjectIdentifier> {
        var found: Set<ObjectIdentifier> = []
        var pending = root.map { [$0] } ?? []
        while let node = pending.popLast() {
            found.insert(ObjectIdentifier(node))
            pending += node.children
        }
        return found
    }
}
