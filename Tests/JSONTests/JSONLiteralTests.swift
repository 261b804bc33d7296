import Testing

@testable import JSON

@Suite struct JSONLiteralTests {
    @Test func literalsBuildTheMatchingCases() {
        let value: JSONValue = ["s": "x", "i": 3, "d": 0.5, "b": false, "n": nil, "a": [1, "two"]]
        #expect(value["s"] == .string("x"))
        #expect(value["i"] == .int(3))
        #expect(value["d"] == .double(0.5))
        #expect(value["b"] == .bool(false))
        #expect(value["n"] == .null)
        #expect(value["a"] == .array([.int(1), .string("two")]))
    }

    @Test func dictionaryLiteralKeepsOrder() {
        let object: JSONObject = ["z": 1, "y": 2, "x": 3, "w": 4]
        #expect(object.keys == ["z", "y", "x", "w"])
        let value: JSONValue = ["z": 1, "a": 2]
        #expect(value.serializedString() == #"{"z":1,"a":2}"#)
    }

    @Test func accessorsReturnNilForOtherCases() {
        let value: JSONValue = 5
        #expect(value.intValue == 5)
        #expect(value.doubleValue == 5.0)
        #expect(value.stringValue == nil)
        #expect(value.boolValue == nil)
        #expect(value.objectValue == nil)
        #expect(value.arrayValue == nil)
        #expect(value[0] == nil)
        #expect(value["k"] == nil)
        #expect(!value.isNull)
        #expect(JSONValue.null.isNull)
        #expect(JSONValue.double(2.5).intValue == nil)
        let array: JSONValue = [1]
        #expect(array[1] == nil)
        #expect(array[-1] == nil)
    }

    @Test func objectEqualityIsOrderSensitive() {
        let ab: JSONObject = ["a": 1, "b": 2]
        let ba: JSONObject = ["b": 2, "a": 1]
        #expect(ab != ba)
        #expect(ab == JSONObject([("a", 1), ("b", 2)]))
        #expect(ab.pairs.map(\.key) == ["a", "b"])
        #expect(ab.count == 2 && !ab.isEmpty)
    }
}
