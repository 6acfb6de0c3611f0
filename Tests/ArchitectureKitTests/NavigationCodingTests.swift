import ArchitectureKit
import ArchitectureKitTestSupport
import Foundation
import Testing

/// Navigation state encoded and decoded, as a journal or a saved session holds it: a stack keeps
/// the IDs its events address, and its screens come back as new ones.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct NavigationCodingTests {
  typealias Path = Stack<Navigation.Screen.State>

  /// `value` encoded with Foundation's JSON, then decoded as `Value`.
  func roundTrip<Value: Codable>(_ value: Value) throws -> Value {
    try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
  }

  /// `value` as JSON text, its keys sorted.
  func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  @Test func aStackComesBackWithItsIDsAndTheIDOfTheNextPush() throws {
    var path = Path([Navigation.detail("shoe"), Navigation.detail("hat"), Navigation.detail("cap")])
    path.removeLast()

    var decoded = try roundTrip(path)

    #expect(decoded == path)
    #expect(decoded.ids == [1, 2])
    #expect(decoded[id: 2] == Navigation.detail("hat"))
    // #3 was popped: like the stack it was saved from, the decoded one never reuses it.
    #expect(decoded.append(Navigation.detail("sock")) == 4)
    #expect(decoded.ids == [1, 2, 4])
  }

  @Test func encodesEachScreenWithItsIDThenTheIDOfTheNextPush() throws {
    var path = Path([Navigation.detail("shoe"), Navigation.detail("hat")])
    path.pop(to: 1)

    #expect(
      try json(path)
        == #"{"elements":[{"element":{"detail":{"_0":{"product":"shoe","quantity":0}}},"id":1}],"#
        + #""nextID":3}"#)
    #expect(try json(StackID(rawValue: 3)) == "3")
    #expect(try roundTrip(StackID(rawValue: 3)) == 3)
  }

  @Test func aStackWithoutTheNextIDPushesAfterItsTopScreen() throws {
    let text = #"{"elements":[{"id":2,"element":{"settings":{"_0":{"name":"Ada"}}}}]}"#

    var path = try JSONDecoder().decode(Path.self, from: Data(text.utf8))

    #expect(path.ids == [2])
    #expect(path.append(Navigation.detail("shoe")) == 3)
  }

  @Test(
    arguments: [
      (
        #"{"elements":[{"id":1,"element":"a"},{"id":1,"element":"b"}],"nextID":2}"#, "#1 follows #1"
      ),
      (
        #"{"elements":[{"id":2,"element":"a"},{"id":1,"element":"b"}],"nextID":3}"#, "#1 follows #2"
      ),
      (#"{"elements":[{"id":0,"element":"a"}],"nextID":1}"#, "#0 follows #0"),
      (#"{"elements":[{"id":1,"element":"a"},{"id":2,"element":"b"}],"nextID":2}"#, "not #2"),
    ]
  )
  func refusesIDsThatNoPushesMake(text: String, reason: String) throws {
    let error = try #require(throws: DecodingError.self) {
      try JSONDecoder().decode(Stack<String>.self, from: Data(text.utf8))
    }

    guard case .dataCorrupted(let context) = error else {
      Issue.record("expected corrupted data, got \(error)")
      return
    }
    #expect(context.debugDescription.contains(reason))
  }

  @Test func aDecodedStackIsANewSetOfScreensThatEventsStillAddress() async throws {
    let system = TestSystem(
      initialState: Navigation.State(), context: Navigation.AppContext(),
      feature: Navigation.feature)
    system.send(.push(Navigation.detail("shoe"))) { $0.path.append(Navigation.detail("shoe")) }
    system.expectStarted("shoe", in: "path[#1].detail")
    let saved = try roundTrip(system.state.path)

    // Equal to the stack shown, yet new screens: the old one's load ends, the new one's starts.
    system.send(.restorePath(saved))
    system.expectCancelled("shoe", in: "path[#1].detail")
    system.expectStarted("shoe", in: "path[#1].detail")
    system.send(.path(1, .detail(.increment))) {
      $0.path[id: 1] = .detail(Navigation.Detail.State(product: "shoe", quantity: 1))
    }
    system.send(.push(Navigation.detail("hat"))) { $0.path.append(Navigation.detail("hat")) }
    system.expectStarted("hat", in: "path[#2].detail")
    system.send(.replacePath([])) { $0.path = Stack() }
    system.expectCancelled("shoe", in: "path[#1].detail")
    system.expectCancelled("hat", in: "path[#2].detail")
    await system.finish()
  }

  @Test func aNavigatingStateComesBackWithItsSheetStackAndDialog() throws {
    var state = Navigation.State()
    state.destination = .settings(Navigation.Settings.State(name: "Ada"))
    state.path.append(Navigation.detail("shoe"))
    state.path.append(Navigation.detail("hat"))
    state.confirmation = .confirmationDialog(
      title: "Back to the start?", message: "Both pages close.",
      buttons: [.destructive("Pop all", action: .popToRoot), .cancel()])

    let decoded = try roundTrip(state)

    #expect(decoded == state)
    #expect(decoded.path.ids == [1, 2])
    #expect(decoded.confirmation?.buttons.map(\.role) == [.destructive, .cancel])
    #expect(try roundTrip(Navigation.State()) == Navigation.State())
  }
}
