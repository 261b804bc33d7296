/// The mailbox's records, oldest first, as an array whose dropped front is skipped instead of moved.
///
/// At the 1,000-record cap every stored message drops the oldest record; `Array.removeFirst` moved
/// all the others each time (`perf record` on the relay: ~4 % of its CPU per message). Here a drop
/// releases the record at once (its bytes count toward the cap) and the storage is compacted only
/// when the skipped front is as long as the rest: O(1) amortized.
struct MailRecordQueue: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    private var storage: [MailRecord?] = []
    private var head = 0

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { storage.count - head }

    subscript(position: Int) -> MailRecord {
        get { storage[head + position]! }
        set { storage[head + position] = newValue }
    }

    mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == MailRecord {
        storage.replaceSubrange(
            (head + subrange.lowerBound)..<(head + subrange.upperBound), with: newElements.lazy.map { $0 })
    }

    mutating func append(_ record: MailRecord) { storage.append(record) }

    mutating func removeFirst(_ count: Int) {
        precondition(count >= 0 && count <= self.count, "removeFirst beyond the queue")
        for index in head..<(head + count) { storage[index] = nil }
        head += count
        if head > 0 && head >= storage.count - head {
            storage.removeFirst(head)
            head = 0
        }
    }
}
