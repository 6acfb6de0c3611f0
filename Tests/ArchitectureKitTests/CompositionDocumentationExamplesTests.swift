import ArchitectureKit
import ArchitectureKitTestSupport
import Observation
import Testing

/// The code of the Composition article and of the TCA guide's composition section, compiled
/// and run.
///
/// Each Swift block of those pages appears here line for line (`Scripts/docs.sh` checks it);
/// each test checks what the page claims about its block.
@MainActor
@Suite(.timeLimit(.minutes(10)))
struct CompositionDocumentationExamplesTests {
  /// The shop's live context in the examples: a search that answers at once.
  static let context = Search.Context(search: { query in ["\(query) 350", "\(query) 700"] })

  // MARK: From one feature to a tree

  @Test func aChildFeatureRunsAloneInASystem() async {
    let search = System(
      initialState: Search.State(),
      context: Search.Context(search: { query in ["\(query) 350"] }),
      feature: Search.feature
    )
    await search.send(.queryChanged("yeezy"), while: { $0.results.isEmpty })
    #expect(search.state.results == ["yeezy 350"])
  }

  @Test func aBackgroundSystemRunsTheSameFeature() async {
    let shop = await BackgroundSystem(
      initialState: Shop.State(), context: Self.context, feature: Shop.feature)
    await shop.send(.cart(.add("yeezy")))
    #expect(await shop.state.badge == 1)
  }

  // MARK: Delegate events

  @Test func theParentReducesAnEventAfterTheChild() {
    let shop = System(initialState: Shop.State(), context: Self.context, feature: Shop.feature)
    shop.send(.cart(.add("yeezy")))
    // The cart added the item first, so the parent's badge counts it.
    #expect(shop.state.badge == 1)
    shop.send(.search(.chose("boost")))
    #expect(shop.state.cart.items == ["yeezy", "boost"])
    #expect(shop.state.badge == 2)
  }

  // MARK: Per-element lifetimes

  @Test func removingAnElementCancelsItsEffectAndNilCancelsTheOptionalChild() async {
    let gallery = TestSystem(
      initialState: Gallery.State(),
      context: Thumbnail.Context(load: { id in "image \(id)" }),
      feature: Gallery.feature
    )
    gallery.send(.show([7, 8])) {
      $0.thumbnails = [Thumbnail.State(id: 7), Thumbnail.State(id: 8)]
    }
    gallery.expectStarted(7, 8)
    #expect(gallery.runningRequests.map(\.description) == ["thumbnails[7]: 7", "thumbnails[8]: 8"])

    gallery.send(.show([8])) { $0.thumbnails = [Thumbnail.State(id: 8)] }
    gallery.expectCancelled(7)
    gallery.run(8)
    await gallery.receive(.thumbnail(8, .loaded("image 8"))) {
      $0.thumbnails[0].image = "image 8"
    }

    gallery.send(.open(7)) { $0.preview = Thumbnail.State(id: 7) }
    gallery.expectStarted(7)
    #expect(gallery.runningRequests.map(\.description) == ["preview: 7"])
    gallery.send(.open(nil)) { $0.preview = nil }
    gallery.expectCancelled(7)
    await gallery.finish()
  }

  @Test func anElementThatMovesKeepsItsEffects() async {
    let gallery = TestSystem(
      initialState: Gallery.State(),
      context: Thumbnail.Context(load: { id in "image \(id)" }),
      feature: Gallery.feature
    )
    gallery.send(.show([7, 8])) {
      $0.thumbnails = [Thumbnail.State(id: 7), Thumbnail.State(id: 8)]
    }
    gallery.expectStarted(7, 8)
    // Exhaustive: a cancelled or restarted effect would fail this step.
    gallery.send(.show([8, 7])) {
      $0.thumbnails = [Thumbnail.State(id: 8), Thumbnail.State(id: 7)]
    }
    gallery.run(7)
    await gallery.receive(.thumbnail(7, .loaded("image 7"))) { $0.thumbnails[1].image = "image 7" }
    gallery.run(8)
    await gallery.receive(.thumbnail(8, .loaded("image 8"))) { $0.thumbnails[0].image = "image 8" }
    await gallery.finish()
  }

  @Test func anEventForAMissingChildIsReportedAndNotReduced() {
    var ignored: [IgnoredEventReason] = []
    let gallery = System(
      initialState: Gallery.State(),
      context: Thumbnail.Context(load: { id in "image \(id)" }),
      feature: Gallery.feature,
      observers: [
        { activity in
          if case .eventIgnored(_, let reason) = activity { ignored.append(reason) }
        }
      ]
    )
    gallery.send(.thumbnail(7, .loaded("image 7")))
    // ignored == [.missingChild("thumbnails[7]")]; neither Thumbnail nor Gallery reduced it.

    #expect(ignored == [.missingChild("thumbnails[7]")])
    #expect(gallery.state == Gallery.State())
  }

  @Test func aTestSystemFailsOnAnEventForAMissingChild() async {
    let gallery = TestSystem(
      initialState: Gallery.State(),
      context: Thumbnail.Context(load: { id in "image \(id)" }),
      feature: Gallery.feature
    )
    let failures = await capturingFailures {
      gallery.send(.preview(.loaded("image 7")))
    }
    #expect(failures.count == 1)
    #expect(failures.allSatisfy { $0.contains("the child at preview,") })
    await gallery.finish()
  }

  // MARK: Views

  @Test func anUnchangedPartIsNotRenderedAndARemovedBindingHearsNothing() {
    let shop = System(initialState: Shop.State(), context: Self.context, feature: Shop.feature)
    var badges: [Int] = []
    let badge = shop.addUIBinding(\.badge) { badge in badges.append(badge) }
    shop.send(.search(.queryChanged("yee")))  // The badge is unchanged: nothing to render.
    shop.send(.cart(.add("yeezy")))
    shop.removeListener(badge)  // The view went away.
    shop.send(.cart(.add("boost")))
    // badges == [0, 1]

    #expect(badges == [0, 1])
  }

  @Test func aViewReadingASliceIsNotifiedOnlyWhenItChanges() {
    let badgeChanged = Flag()
    let shop = System(initialState: Shop.State(), context: Self.context, feature: Shop.feature)
    withObservationTracking {
      _ = shop.badge
    } onChange: {
      badgeChanged.set()
    }
    shop.send(.search(.queryChanged("yee")))
    // badgeChanged is not set: the search changed, the badge did not.

    #expect(!badgeChanged.isSet)
    shop.send(.cart(.add("yeezy")))
    #expect(badgeChanged.isSet)
  }

  @Test func sendWhileWaitsForTheSearchItStarted() async {
    let shop = System(initialState: Shop.State(), context: Self.context, feature: Shop.feature)
    await shop.send(.search(.queryChanged("yeezy")), while: { $0.search.results.isEmpty })
    // shop.state.search.results == ["yeezy 350", "yeezy 700"]

    #expect(shop.state.search.results == ["yeezy 350", "yeezy 700"])
  }

  // MARK: Testing composed features

  @Test func aParentsTestAssertsItsChildren() async {
    let shop = TestSystem(
      initialState: Shop.State(),
      context: Search.Context(search: { query in ["\(query) 350"] }),
      feature: Shop.feature
    )
    shop.send(.search(.queryChanged("yeezy"))) { $0.search.query = "yeezy" }
    shop.expectStarted("yeezy")
    #expect(shop.runningRequests.map(\.description) == ["search: yeezy"])
    shop.run("yeezy")
    await shop.receive(.search(.found(["yeezy 350"]))) { $0.search.results = ["yeezy 350"] }
    shop.send(.search(.chose("yeezy 350"))) {
      $0.cart.items = ["yeezy 350"]
      $0.badge = 1
    }
    await shop.finish()
  }

  @Test func aChildIsTestedAloneWithTheSameFeatureValue() async {
    let search = TestSystem(
      initialState: Search.State(),
      context: Search.Context(search: { query in ["\(query) 350"] }),
      feature: Search.feature
    )
    search.send(.queryChanged("yeezy")) { $0.query = "yeezy" }
    search.expectStarted("yeezy")
    #expect(search.runningRequests.map(\.description) == ["yeezy"])
    search.run("yeezy")
    await search.receive(.found(["yeezy 350"])) { $0.results = ["yeezy 350"] }
    await search.finish()
  }
}

// MARK: - The features of the examples

extension CompositionDocumentationExamplesTests {
  enum Search {
    struct State: Equatable {
      var query = ""
      var results: [String] = []
    }

    enum Event: Equatable, Sendable {
      case queryChanged(String)
      case found([String])
      case chose(String)
    }

    struct Context: Sendable {
      var search: @Sendable (String) async -> [String]
    }

    static var feature: Feature<State, Event, Never, Context> {
      Feature(
        reduce: { state, event in
          switch event {
          case .queryChanged(let query): state.query = query
          case .found(let results): state.results = results
          case .chose: break
          }
        },
        feedback: [
          .react(
            request: { $0.query.isEmpty ? nil : $0.query },
            effect: .run { query, context in .found(await context.search(query)) }
          )
        ]
      )
    }
  }

  enum Cart {
    struct State: Equatable {
      var items: [String] = []
    }

    enum Event: Equatable, Sendable {
      case add(String)
      case clear
    }

    static var feature: Feature<State, Event, Never, Void> {
      Feature(reduce: { state, event in
        switch event {
        case .add(let item): state.items.append(item)
        case .clear: state.items.removeAll()
        }
      })
    }
  }

  enum Shop {
    struct State: Equatable {
      var search = Search.State()
      var cart = Cart.State()
      var badge = 0
    }

    enum Event: Equatable, Sendable {
      case search(Search.Event)
      case cart(Cart.Event)
    }

    static var feature: Feature<State, Event, Never, Search.Context> {
      Feature(reduce: { state, event in
        if case .search(.chose(let item)) = event { state.cart.items.append(item) }
        state.badge = state.cart.items.count
      })
      .scope(Search.feature, state: \.search, event: Event.search, context: { $0 })
      .scope(Cart.feature, state: \.cart, event: Event.cart, context: { _ in })
    }
  }

  enum Thumbnail {
    struct State: Equatable, Identifiable {
      let id: Int
      var image: String?
    }

    enum Event: Equatable, Sendable {
      case loaded(String)
    }

    struct Context: Sendable {
      var load: @Sendable (Int) async -> String
    }

    static var feature: Feature<State, Event, Never, Context> {
      Feature(
        reduce: { state, event in
          switch event {
          case .loaded(let image): state.image = image
          }
        },
        feedback: [
          .react(
            request: { $0.image == nil ? $0.id : nil },
            effect: .run { id, context in .loaded(await context.load(id)) }
          )
        ]
      )
    }
  }

  enum Gallery {
    struct State: Equatable {
      var thumbnails: [Thumbnail.State] = []
      var preview: Thumbnail.State?
    }

    enum Event: Equatable, Sendable {
      case show([Int])
      case open(Int?)
      case thumbnail(Int, Thumbnail.Event)
      case preview(Thumbnail.Event)
    }

    static var feature: Feature<State, Event, Never, Thumbnail.Context> {
      Feature(reduce: { state, event in
        switch event {
        case .show(let ids): state.thumbnails = ids.map { Thumbnail.State(id: $0) }
        case .open(let id): state.preview = id.map { Thumbnail.State(id: $0) }
        case .thumbnail, .preview: break
        }
      })
      .forEach(
        Thumbnail.feature, elements: \.thumbnails, event: Event.thumbnail,
        extract: { if case .thumbnail(let id, let event) = $0 { (id, event) } else { nil } },
        context: { $0 }
      )
      .ifLet(
        Thumbnail.feature, state: \.preview, event: Event.preview,
        extract: { if case .preview(let event) = $0 { event } else { nil } },
        context: { $0 })
    }
  }
}
