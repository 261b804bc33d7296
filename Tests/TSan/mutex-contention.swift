// Canary for mutex-handoff.c: four threads bump one Mutex-protected counter. The count is always
// exact; without the shim TSan still reports a "Swift access race" inside the closure.
import Dispatch
import Synchronization

final class Counter: Sendable {
    let value = Mutex<Int>(0)
    func bump() { value.withLock { $0 += 1 } }
}

let counter = Counter()
DispatchQueue.concurrentPerform(iterations: 4) { _ in
    for _ in 0..<100_000 { counter.bump() }
}
let total = counter.value.withLock { $0 }
print(total == 400_000 ? "mutex-contention: ok" : "mutex-contention: WRONG COUNT \(total)")
