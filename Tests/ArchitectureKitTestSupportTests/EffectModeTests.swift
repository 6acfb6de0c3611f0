import ArchitectureKit
import ArchitectureKitTestSupport
import Testing

/// TCA's Search case study, "a tap on a second location cancels the forecast in flight",
/// ported both ways: effects run by the test (``EffectMode/manual``) and effects run as they
/// start (``EffectMode/automatic``, one line per effect, as TCA's `TestStore`).
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct EffectModeTests {
  struct Place: Equatable, Sendable {
    var name: String
    static let london = Place(name: "London")
    static let special = Place(name: "Special Place")
  }

  struct Forecast: Equatable, Sendable {
    var place: String
  }

  struct State: Equatable {
    var inFlight: Place?
    var forecast: Forecast?
  }

  enum Event: Equatable, Sendable {
    case tapped(Place)
    case forecastLoaded(Forecast)
    case viewed
  }

  nonisolated static var feature: Feature<State, Event, Never, ManualClock> {
    Feature(
      reduce: { state, event in
        switch event {
        case .tapped(let place): state.inFlight = place
        case .forecastLoaded(let forecast):
          state.inFlight = nil
          state.forecast = forecast
        case .viewed: break
        }
      },
      feedback: [
        .react(
          request: \.inFlight,
          effect: .run { place, clock in
            // TCA's test sleeps zero seconds on its TestClock; a ManualClock returns from a
            // zero-length sleep at once, so the port sleeps a second (see the migration guide).
            try? await clock.sleep(for: .seconds(1))
            return .forecastLoaded(Forecast(place: place.name))
          }),
        .react(
          on: { event, _ in event == .viewed ? "analytics" : nil }, effect: .perform { _, _ in nil }
        ),
      ])
  }

  func makeSystem(_ effects: EffectMode) -> (
    TestSystem<State, Event, Never, ManualClock>, ManualClock
  ) {
    let clock = ManualClock()
    let system = TestSystem(
      initialState: State(), context: clock, feature: Self.feature, clock: clock,
      effects: effects)
    return (system, clock)
  }

  @Test func aSecondTapCancelsTheForecastInFlightWithAutomaticEffects() async {
    let (system, clock) = makeSystem(.automatic)
    system.send(.tapped(.london)) { $0.inFlight = .london }
    system.send(.tapped(.special)) { $0.inFlight = .special }
    system.expectCancelled(Place.london)
    await clock.advance(by: .seconds(1))
    await system.receive(.forecastLoaded(Forecast(place: "Special Place"))) {
      $0.inFlight = nil
      $0.forecast = Forecast(place: "Special Place")
    }
    await system.finish()
  }

  @Test func aSecondTapCancelsTheForecastInFlightWithManualEffects() async {
    let (system, clock) = makeSystem(.manual)
    system.send(.tapped(.london)) { $0.inFlight = .london }
    system.expectStarted(Place.london)
    system.run(Place.london)
    system.send(.tapped(.special)) { $0.inFlight = .special }
    system.expectCancelled(Place.london)
    system.expectStarted(Place.special)
    system.run(Place.special)
    await clock.advance(by: .seconds(1))
    await system.receive(.forecastLoaded(Forecast(place: "Special Place"))) {
      $0.inFlight = nil
      $0.forecast = Forecast(place: "Special Place")
    }
    await system.finish()
  }

  @Test func anAutomaticEffectThatEndsWithoutAnEventMustBeExpected() async {
    let (system, _) = makeSystem(.automatic)
    let failures = await capturingFailures {
      system.send(.viewed)
      await system.finish()
    }
    #expect(failures.count == 1)
    #expect(failures.first?.contains("Requests started but were not expected") == true)
    #expect(failures.first?.contains("analytics") == true)
  }

  @Test func anAutomaticEffectThatEndsWithoutAnEventIsAccountedForByExpectingIt() async {
    let (system, _) = makeSystem(.automatic)
    system.send(.viewed)
    system.expectStarted("analytics")
    await system.finish()
  }

  @Test func anAutomaticEffectWhoseEventIsNeverReceivedFailsTheTest() async {
    let (system, clock) = makeSystem(.automatic)
    let failures = await capturingFailures {
      system.send(.tapped(.london)) { $0.inFlight = .london }
      await clock.advance(by: .seconds(1))
      await system.finish()
    }
    #expect(failures.count == 1)
    #expect(failures.first?.contains("were not received") == true)
  }
}
