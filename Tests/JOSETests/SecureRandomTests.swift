import JOSE
import Testing

@Suite struct SecureRandomTests {
    @Test func valuesAreDistinctAndUseEveryBit() {
        let values = (0..<2000).map { _ in SecureRandom.uint64() }
        #expect(Set(values).count == values.count)
        let union = values.reduce(UInt64(0)) { $0 | $1 }
        let intersection = values.reduce(UInt64.max) { $0 & $1 }
        #expect(union == UInt64.max)
        #expect(intersection == 0)
    }
}
