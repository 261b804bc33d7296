/// An immutable-node hash map: a hash array mapped trie (Bagwell, "Ideal Hash Trees", 2001).
///
/// Each level consumes 5 bits of the key's hash; a node keeps a 32-bit bitmap of the slots in use and
/// only those slots. Copies share every node; inserting or removing a key copies only the nodes on the
/// path to it (at most 13, about log32 n in practice, each at most 32 slots), so a change costs O(log n)
/// and a reader holding the previous value keeps it unchanged. Keys with equal full hashes share one
/// collision slot. Hash values come from `Hasher`, stable within a process, which is all a map kept in
/// memory needs.
package struct PersistentMap<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    final class Node: Sendable {
        let bitmap: UInt32
        let slots: [Slot]

        init(bitmap: UInt32, slots: [Slot]) {
            self.bitmap = bitmap
            self.slots = slots
        }
    }

    enum Slot: Sendable {
        case entry(hash: UInt64, key: Key, value: Value)
        case node(Node)
        /// Two or more keys whose full hashes are equal.
        case collision(hash: UInt64, entries: [(key: Key, value: Value)])
    }

    private static var bits: UInt64 { 5 }

    package private(set) var count = 0
    private var root: Node?

    package init() {}

    /// The map of `pairs` (a later duplicate key wins), built level by level without copying paths.
    package init<Pairs: Sequence>(_ pairs: Pairs) where Pairs.Element == (Key, Value) {
        var unique: [Key: (UInt64, Value)] = [:]
        for (key, value) in pairs { unique[key] = (Self.hash(key), value) }
        guard !unique.isEmpty else { return }
        root = Self.build(unique.map { (hash: $0.value.0, key: $0.key, value: $0.value.1) }, shift: 0)
        count = unique.count
    }

    package subscript(key: Key) -> Value? {
        let hash = Self.hash(key)
        var node = root
        var shift: UInt64 = 0
        while let current = node {
            let bit = Self.bit(hash, shift)
            guard current.bitmap & bit != 0 else { return nil }
            switch current.slots[Self.index(current.bitmap, bit)] {
            case .entry(_, let found, let value): return found == key ? value : nil
            case .collision(_, let entries): return entries.first { $0.key == key }?.value
            case .node(let child):
                node = child
                shift += Self.bits
            }
        }
        return nil
    }

    /// Sets `value` for `key`; returns the value it replaced.
    @discardableResult
    package mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        let hash = Self.hash(key)
        guard let root else {
            self.root = Node(bitmap: Self.bit(hash, 0), slots: [.entry(hash: hash, key: key, value: value)])
            count = 1
            return nil
        }
        let (node, old) = Self.inserting(key, value, hash: hash, into: root, shift: 0)
        self.root = node
        if old == nil { count += 1 }
        return old
    }

    /// Removes `key`; returns its value, or nil when it was absent.
    @discardableResult
    package mutating func removeValue(forKey key: Key) -> Value? {
        guard let root else { return nil }
        let (node, old) = Self.removing(key, hash: Self.hash(key), from: root, shift: 0)
        guard old != nil else { return nil }
        self.root = node
        count -= 1
        return old
    }

    private static func hash(_ key: Key) -> UInt64 { UInt64(bitPattern: Int64(key.hashValue)) }
    private static func bit(_ hash: UInt64, _ shift: UInt64) -> UInt32 { 1 << UInt32((hash >> shift) & 31) }
    private static func index(_ bitmap: UInt32, _ bit: UInt32) -> Int { (bitmap & (bit &- 1)).nonzeroBitCount }

    private static func build(_ entries: [(hash: UInt64, key: Key, value: Value)], shift: UInt64) -> Node {
        var buckets: [[(hash: UInt64, key: Key, value: Value)]] = Array(repeating: [], count: 32)
        for entry in entries { buckets[Int((entry.hash >> shift) & 31)].append(entry) }
        var bitmap: UInt32 = 0
        var slots: [Slot] = []
        for (position, bucket) in buckets.enumerated() where !bucket.isEmpty {
            bitmap |= 1 << UInt32(position)
            if bucket.count == 1 {
                slots.append(.entry(hash: bucket[0].hash, key: bucket[0].key, value: bucket[0].value))
            } else if bucket.allSatisfy({ $0.hash == bucket[0].hash }) {
                slots.append(.collision(hash: bucket[0].hash, entries: bucket.map { ($0.key, $0.value) }))
            } else {
                slots.append(.node(build(bucket, shift: shift + bits)))
            }
        }
        return Node(bitmap: bitmap, slots: slots)
    }

    private static func inserting(
        _ key: Key, _ value: Value, hash: UInt64, into node: Node, shift: UInt64
    ) -> (Node, Value?) {
        let bit = bit(hash, shift)
        let position = index(node.bitmap, bit)
        var slots = node.slots
        guard node.bitmap & bit != 0 else {
            slots.insert(.entry(hash: hash, key: key, value: value), at: position)
            return (Node(bitmap: node.bitmap | bit, slots: slots), nil)
        }
        var old: Value?
        switch slots[position] {
        case .entry(let otherHash, let otherKey, let otherValue):
            if otherKey == key {
                old = otherValue
                slots[position] = .entry(hash: hash, key: key, value: value)
            } else if otherHash == hash {
                slots[position] = .collision(hash: hash, entries: [(otherKey, otherValue), (key, value)])
            } else {
                let pair = [(hash: otherHash, key: otherKey, value: otherValue), (hash: hash, key: key, value: value)]
                slots[position] = .node(build(pair, shift: shift + bits))
            }
        case .collision(let sharedHash, var entries):
            if sharedHash == hash {
                if let at = entries.firstIndex(where: { $0.key == key }) {
                    old = entries[at].value
                    entries[at].value = value
                } else {
                    entries.append((key, value))
                }
                slots[position] = .collision(hash: hash, entries: entries)
            } else {
                // Split: the collision moves one level down beside the new entry.
                let child = Node(bitmap: Self.bit(sharedHash, shift + bits), slots: [slots[position]])
                slots[position] = .node(inserting(key, value, hash: hash, into: child, shift: shift + bits).0)
            }
        case .node(let child):
            let (changed, replaced) = inserting(key, value, hash: hash, into: child, shift: shift + bits)
            old = replaced
            slots[position] = .node(changed)
        }
        return (Node(bitmap: node.bitmap, slots: slots), old)
    }

    /// The node without `key` (nil when it becomes empty) and the removed value (nil: absent, node unchanged).
    private static func removing(_ key: Key, hash: UInt64, from node: Node, shift: UInt64) -> (Node?, Value?) {
        let bit = bit(hash, shift)
        guard node.bitmap & bit != 0 else { return (node, nil) }
        let position = index(node.bitmap, bit)
        var slots = node.slots
        var bitmap = node.bitmap
        let old: Value?
        switch slots[position] {
        case .entry(_, let found, let value):
            guard found == key else { return (node, nil) }
            old = value
            slots.remove(at: position)
            bitmap &= ~bit
        case .collision(let sharedHash, var entries):
            guard let at = entries.firstIndex(where: { $0.key == key }) else { return (node, nil) }
            old = entries.remove(at: at).value
            slots[position] =
                entries.count == 1
                ? .entry(hash: sharedHash, key: entries[0].key, value: entries[0].value)
                : .collision(hash: sharedHash, entries: entries)
        case .node(let child):
            let (changed, removed) = removing(key, hash: hash, from: child, shift: shift + bits)
            guard removed != nil else { return (node, nil) }
            old = removed
            if let changed {
                // A child left with one entry folds back into this node (keeps the trie shallow).
                if changed.slots.count == 1, case .node = changed.slots[0] {
                    slots[position] = .node(changed)
                } else if changed.slots.count == 1 {
                    slots[position] = changed.slots[0]
                } else {
                    slots[position] = .node(changed)
                }
            } else {
                slots.remove(at: position)
                bitmap &= ~bit
            }
        }
        return (slots.isEmpty ? nil : Node(bitmap: bitmap, slots: slots), old)
    }

    /// Every node of this map, for tests that check how much two versions share.
    package var nodeIdentities: Set<ObjectIdentifier> {
        var found: Set<ObjectIdentifier> = []
        var pending = root.map { [$0] } ?? []
        while let node = pending.popLast() {
            found.insert(ObjectIdentifier(node))
            for case .node(let child) in node.slots { pending.append(child) }
        }
        return found
    }
}
