import ArchitectureKit
import ArchitectureKitTestSupport
import TestDoubles
import Testing

/// TCA's WebSocket case study: connect to an echo server, send messages, receive what it sends,
/// ping it every 10 seconds while connected, and disconnect.
///
/// The connection is a request (the state is connecting or connected), so disconnecting, or
/// the server closing the connection, cancels it and everything it runs: the pings on the clock
/// and the stream of messages, children of one task group. Sending is event-triggered work that
/// a disconnection cancels. The socket is a fake the test feeds: its events and messages are
/// streams the test yields into, and a send answers at once.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct WebSocketCaseStudyTests {
  enum Connectivity: Equatable, Sendable {
    case disconnected, connecting, connected
  }

  struct State: Equatable {
    var alert: String?
    var connectivity = Connectivity.disconnected
    var messageToSend = ""
    var receivedMessages: [String] = []
    /// The messages sent, the conversation's other half, as a chat screen shows them.
    var sentMessages: [String] = []
  }

  /// What the socket reports of its connection.
  enum SocketEvent: Equatable, Sendable {
    case didOpen, didClose
  }

  enum Event: Equatable, Sendable {
    case connectButtonTapped
    case messageToSendChanged(String)
    case receivedSocketMessage(String)
    case sendButtonTapped
    case sendResponse(didSucceed: Bool)
    case socket(SocketEvent)
  }

  /// The socket client, as the app injects it.
  struct Socket: Sendable {
    var open: @Sendable () -> AsyncStream<SocketEvent>
    var messages: @Sendable () -> AsyncStream<String>
    var send: @Sendable (String) async throws -> Void
    var sendPing: @Sendable () async -> Void
  }

  struct Context: Sendable {
    let socket: Socket
    let clock: ManualClock
  }

  nonisolated static let sendFailure =
    "Could not send socket message. Connect to the server first, and try again."

  nonisolated static var feature: Feature<State, Event, Never, Context> {
    Feature(
      reduce: { state, event in
        switch event {
        case .connectButtonTapped:
          state.connectivity = state.connectivity == .disconnected ? .connecting : .disconnected
        case .messageToSendChanged(let message): state.messageToSend = message
        case .receivedSocketMessage(let message): state.receivedMessages.append(message)
        case .sendButtonTapped:
          state.sentMessages.append(state.messageToSend)
          state.messageToSend = ""
        case .sendResponse(let didSucceed): if !didSucceed { state.alert = Self.sendFailure }
        case .socket(.didOpen): state.connectivity = .connected
        case .socket(.didClose): state.connectivity = .disconnected
        }
      },
      feedback: [
        // The connection, while connecting or connected.
        .react(
          request: { $0.connectivity == .disconnected ? nil : "wss://echo.example" },
          effect: .stream { _, context, send in
            await withTaskGroup(of: Void.self) { group in
              for await event in context.socket.open() {
                await send(.socket(event))
                guard event == .didOpen else { continue }
                group.addTask {
                  while (try? await context.clock.sleep(for: .seconds(10))) != nil {
                    await context.socket.sendPing()
                  }
                }
                group.addTask {
                  for await message in context.socket.messages() {
                    await send(.receivedSocketMessage(message))
                  }
                }
              }
              group.cancelAll()
            }
          }),
        // Each message sent, until the connection ends.
        .react(
          on: { event, state in event == .sendButtonTapped ? state.sentMessages.last : nil },
          until: { _, state in state.connectivity == .disconnected },
          effect: .run { message, context in
            do {
              try await context.socket.send(message)
              return .sendResponse(didSucceed: true)
            } catch {
              return .sendResponse(didSucceed: false)
            }
          }),
      ])
  }

  /// The fake server's side of the socket, fed by the test.
  struct Server {
    let events: AsyncStream<SocketEvent>.Continuation
    let messages: AsyncStream<String>.Continuation
    /// The pings received.
    let pings = Recorder<Int>()
    /// The messages received.
    let received = Recorder<String>()
  }

  struct SendFailed: Error {}

  /// How the fake socket answers a send.
  enum SendAnswer {
    /// At once, and the server receives the message.
    case delivered
    /// At once, with an error.
    case fails
    /// Once the gate opens, or never if the send is cancelled first.
    case waits(Gate)
  }

  func makeSystem(send answer: SendAnswer = .delivered) -> (
    TestSystem<State, Event, Never, Context>, Server, ManualClock
  ) {
    let clock = ManualClock()
    let (events, eventsInput) = AsyncStream.makeStream(of: SocketEvent.self)
    let (messages, messagesInput) = AsyncStream.makeStream(of: String.self)
    let server = Server(events: eventsInput, messages: messagesInput)
    let socket = Socket(
      open: { events },
      messages: { messages },
      send: { [received = server.received] message in
        switch answer {
        case .delivered: break
        case .fails: throw SendFailed()
        case .waits(let gate): guard await gate.opens() else { throw CancellationError() }
        }
        received.record(message)
      },
      sendPing: { [pings = server.pings] in pings.record(pings.values.count + 1) })
    let system = TestSystem(
      initialState: State(), context: Context(socket: socket, clock: clock),
      feature: Self.feature, clock: clock, effects: .automatic)
    return (system, server, clock)
  }

  /// Connects, and the server accepts.
  func connect(_ system: TestSystem<State, Event, Never, Context>, _ server: Server) async {
    system.send(.connectButtonTapped) { $0.connectivity = .connecting }
    server.events.yield(.didOpen)
    await system.receive(.socket(.didOpen)) { $0.connectivity = .connected }
  }

  /// Types "Hi" and taps send.
  func sendHi(_ system: TestSystem<State, Event, Never, Context>) {
    system.send(.messageToSendChanged("Hi")) { $0.messageToSend = "Hi" }
    system.send(.sendButtonTapped) {
      $0.messageToSend = ""
      $0.sentMessages = ["Hi"]
    }
  }

  @Test func messagesGoBothWaysWhileConnected() async {
    let (system, server, _) = makeSystem()
    await connect(system, server)
    sendHi(system)
    await system.receive(.sendResponse(didSucceed: true))
    #expect(server.received.values == ["Hi"])
    server.messages.yield("Hi")
    await system.receive(.receivedSocketMessage("Hi")) { $0.receivedMessages = ["Hi"] }
    system.send(.connectButtonTapped) { $0.connectivity = .disconnected }
    system.expectCancelled("wss://echo.example")
    await system.finish()
  }

  @Test func aFailedSendShowsAnAlert() async {
    let (system, server, _) = makeSystem(send: .fails)
    await connect(system, server)
    sendHi(system)
    await system.receive(.sendResponse(didSucceed: false)) { $0.alert = Self.sendFailure }
    system.send(.connectButtonTapped) { $0.connectivity = .disconnected }
    system.expectCancelled("wss://echo.example")
    await system.finish()
  }

  @Test func theServerIsPingedEveryTenSecondsWhileConnected() async {
    let (system, server, clock) = makeSystem()
    await connect(system, server)
    await clock.advance(by: .seconds(9))
    #expect(server.pings.values.isEmpty)
    await clock.advance(by: .seconds(1))
    #expect(server.pings.values == [1])
    await clock.advance(by: .seconds(20))
    #expect(server.pings.values == [1, 2, 3])
    system.send(.connectButtonTapped) { $0.connectivity = .disconnected }
    system.expectCancelled("wss://echo.example")
    // Disconnected, the pings stop with the connection.
    await clock.advance(by: .seconds(30))
    #expect(server.pings.values == [1, 2, 3])
    await system.finish()
  }

  @Test func theServerClosingTheConnectionDisconnects() async {
    let (system, server, clock) = makeSystem()
    system.send(.connectButtonTapped) { $0.connectivity = .connecting }
    server.events.yield(.didClose)
    await system.receive(.socket(.didClose)) { $0.connectivity = .disconnected }
    system.expectCancelled("wss://echo.example")
    await clock.advance(by: .seconds(10))
    #expect(server.pings.values.isEmpty)
    await system.finish()
  }

  @Test func disconnectingCancelsAMessageInFlight() async {
    let (system, server, _) = makeSystem(send: .waits(Gate()))
    await connect(system, server)
    // The send waits for the server's answer; the disconnection cancels it with the connection.
    sendHi(system)
    system.send(.connectButtonTapped) { $0.connectivity = .disconnected }
    system.expectCancelled("wss://echo.example", "Hi")
    #expect(server.received.values.isEmpty)
    await system.finish()
  }
}
