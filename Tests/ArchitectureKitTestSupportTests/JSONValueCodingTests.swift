import ArchitectureKit
import ArchitectureKitTestSupport
import Foundation
import Testing

/// The library's JSON encoder and the test support's decoder: a journal's values read back
/// equal, whatever their types, and its lines are JSON any reader accepts.
struct JSONValueCodingTests {
  struct Everything: Codable, Equatable {
    var text = "quote \" backslash \\ line\nbreak tab\t nul \u{0} bell \u{7} é 🎉 \u{2028}"
    var flag = true
    var small: Int8 = -128
    var large = Int64.max
    var huge = UInt64.max
    var fraction = 0.1
    var tiny = 1e-300
    var float: Float = 3.25
    var missing: String? = nil
    var present: String? = "here"
    var list = [1, 2, 3]
    var nested = [[String]](arrayLiteral: ["a"], [], ["b", "c"])
    var byName = ["b": 2, "a": 1]
    var byNumber = [3: "three", 1: "one"]
    var choice = Choice.both(1, label: "x")
    var choices: [Choice] = [.none, .one("y"), .both(2, label: "z")]
    var date = Date(timeIntervalSinceReferenceDate: 123.5)
    var data = Data([0, 1, 255])
    var url = URL(string: "https://example.com/a?b=c")
    var empty = Empty()
  }

  enum Choice: Codable, Equatable {
    case none
    case one(String)
    case both(Int, label: String)
  }

  struct Empty: Codable, Equatable {}

  class Base: Codable {
    var name = "base"
  }

  final class Derived: Base, @unchecked Sendable {
    var extra = 1

    enum CodingKeys: CodingKey { case extra }

    override init() {
      super.init()
    }

    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      extra = try container.decode(Int.self, forKey: .extra)
      try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(extra, forKey: .extra)
      try super.encode(to: container.superEncoder())
    }
  }

  func roundTrip<Value: Codable>(_ value: Value) throws -> Value {
    let text = try JSONValueEncoder().encode(value).text
    return try JSONValueDecoder().decode(Value.self, from: try JSONParser.parse(text))
  }

  @Test func decodesWhatItEncodedEqual() throws {
    #expect(try roundTrip(Everything()) == Everything())
    #expect(try roundTrip(Choice.one("x")) == .one("x"))
    #expect(try roundTrip([Double.infinity, -.infinity]) == [.infinity, -.infinity])
    #expect(try roundTrip(Double.nan).isNaN)
    #expect(try roundTrip("plain") == "plain")
    #expect(try roundTrip(Optional<Int>.none) == nil)
  }

  @Test func decodesAClassWithItsSuperclass() throws {
    let derived = Derived()
    derived.name = "derived"
    derived.extra = 7
    let decoded = try roundTrip(derived)
    #expect(decoded.name == "derived")
    #expect(decoded.extra == 7)
  }

  @Test func writesJSONThatFoundationReads() throws {
    let text = try JSONValueEncoder().encode(Everything()).text
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["text"] as? String == Everything().text)
    #expect(object["large"] as? Int64 == Int64.max)
    #expect(!text.contains("\n"))
  }

  @Test func laysOutValuesAsJSONEncoderDoesWithDefaultStrategies() throws {
    let encoder = JSONValueEncoder()
    let both = try encoder.encode(Choice.both(1, label: "x")).text
    #expect(both == #"{"both":{"_0":1,"label":"x"}}"#)
    #expect(try encoder.encode(Choice.none).text == #"{"none":{}}"#)
    #expect(try encoder.encode(["a": 1]).text == #"{"a":1}"#)
    #expect(try encoder.encode(Empty()).text == "{}")
  }

  @Test func reportsWhatIsNotJSON() {
    for text in ["", "{", "[1,]", "{\"a\" 1}", "\"open", "tru", "1 2", "{\"a\":\"\\x\"}"] {
      #expect(throws: JSONParser.Failure.self, "\(text)") { try JSONParser.parse(text) }
    }
  }
}
