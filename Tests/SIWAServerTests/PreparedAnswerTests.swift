import HTTP
import Locking
import Testing

@testable import SIWAServer

/// `PreparedAnswer` builds once per body array and rebuilds for any other array, even with equal bytes.
@Suite struct PreparedAnswerTests {
    final class Counter: Sendable {
        let builds = Lock(0)
    }

    @Test func buildsOncePerBodyStorage() {
        let counter = Counter()
        let answer = PreparedAnswer { body in
            counter.builds.withLock { $0 += 1 }
            return HTTPResponse(status: .ok, headers: HTTPHeaders([("Server", "Apple")]), body: body)
        }
        let first: [UInt8] = Array(#"{"keys":[1]}"#.utf8)
        let a = answer.response(for: first)
        let b = answer.response(for: first)
        #expect(a.isPrepared && b.isPrepared && a.body == first)
        #expect(counter.builds.withLock { $0 } == 1)
        // Equal bytes in other storage (what a rotation back to the same keys would hand out): rebuilt.
        let equal = first.map { $0 }
        #expect(!PreparedAnswer.sameStorage(first, equal))
        _ = answer.response(for: equal)
        #expect(counter.builds.withLock { $0 } == 2)
        let second: [UInt8] = Array(#"{"keys":[2]}"#.utf8)
        #expect(answer.response(for: second).body == second)
        #expect(counter.builds.withLock { $0 } == 3)
    }
}
