import ArchitectureKit
import ArchitectureKitTestSupport
import ProductDetailFeature
import ProductDetailLive
import ShopFeature
import ShopLive
import Testing

/// The shop as one composed feature: its children's state changes, events and requests, seen
/// through the parent, with the live API's logic on a manual clock.
@MainActor
struct ShopTests {
  let clock = ManualClock()
  let cart = InMemoryCart()

  @Test func listsTheCatalogThenLoadsEachRowOnItsOwn() async {
    let shop = ShopTestSystem(context: .test(clock: clock, cart: cart), clock: clock)
    let catalog = [Product.yeezy, .court, .trail].map(ProductSummary.init)

    shop.expectStarted(SearchRequest.find(query: ""))
    #expect(shop.runningRequests.map(\.description) == [#"search: find(query: "")"#])
    shop.run(SearchRequest.find(query: ""))
    await clock.advance(by: .milliseconds(300))
    await shop.receive(.search(.found(catalog, query: ""))) {
      $0.search.results = catalog
      $0.search.answeredQuery = ""
      $0.rows = catalog.map { ProductRowState(summary: $0) }
      $0.highlightedID = "yeezy-triple-white"
    }
    shop.expectStarted(
      ProductRowRequest.loadProduct(id: "yeezy-triple-white"),
      ProductRowRequest.loadProduct(id: "court-classic-white"),
      ProductRowRequest.loadProduct(id: "trail-runner-moss")
    )
    #expect(
      shop.runningRequests.map(\.description) == [
        #"rows[yeezy-triple-white]: loadProduct(id: "yeezy-triple-white")"#,
        #"rows[court-classic-white]: loadProduct(id: "court-classic-white")"#,
        #"rows[trail-runner-moss]: loadProduct(id: "trail-runner-moss")"#,
      ]
    )

    // Each row's load is its own: one ends, the others go on.
    shop.run(ProductRowRequest.loadProduct(id: "court-classic-white"))
    await clock.advance(by: .milliseconds(500))
    await shop.receive(.row(id: "court-classic-white", .loaded(.court))) {
      $0.rows[1].status = .loaded(.court)
    }
    #expect(shop.runningRequests.count == 2)
    shop.simulate(
      ProductRowRequest.loadProduct(id: "yeezy-triple-white"),
      event: .row(id: "yeezy-triple-white", .loaded(.yeezy))
    )
    await shop.receive(.row(id: "yeezy-triple-white", .loaded(.yeezy))) {
      $0.rows[0].status = .loaded(.yeezy)
    }
    shop.simulate(
      ProductRowRequest.loadProduct(id: "trail-runner-moss"),
      event: .row(id: "trail-runner-moss", .loaded(nil))
    )
    await shop.receive(.row(id: "trail-runner-moss", .loaded(nil))) {
      $0.rows[2].status = .unavailable
    }
    await shop.finish()
  }

  @Test func typingCancelsTheOldSearchAndTheLoadsOfTheRowsItNoLongerFinds() async {
    var state = ShopState.listing([.yeezy, .court, .trail])
    state.rows[2].status = .loading
    let shop = ShopTestSystem(
      from: state, context: .test(clock: clock, cart: cart), clock: clock)
    shop.expectStarted(ProductRowRequest.loadProduct(id: "trail-runner-moss"))

    shop.send(.startSearch) { $0.isEditingQuery = true }
    shop.send(.search(.typed("w"))) { $0.search.query = "w" }
    shop.expectStarted(SearchRequest.find(query: "w"))
    shop.send(.search(.typed("h"))) { $0.search.query = "wh" }
    shop.expectCancelled(SearchRequest.find(query: "w"))
    shop.expectStarted(SearchRequest.find(query: "wh"))
    shop.run(SearchRequest.find(query: "wh"))
    await clock.advance(by: .milliseconds(300))

    let found = [Product.yeezy, .court].map(ProductSummary.init)
    await shop.receive(.search(.found(found, query: "wh"))) {
      $0.search.results = found
      $0.search.answeredQuery = "wh"
      $0.rows.removeLast()
    }
    // The row the search dropped has exactly its load cancelled; the kept rows keep theirs.
    shop.expectCancelled(ProductRowRequest.loadProduct(id: "trail-runner-moss"))
    #expect(shop.runningRequests.isEmpty)

    // Clearing the query leaves the field (the parent reacts) and lists the catalog again.
    shop.send(.search(.cleared)) {
      $0.search.query = ""
      $0.isEditingQuery = false
    }
    shop.expectStarted(SearchRequest.find(query: ""))
    let catalog = [Product.yeezy, .court, .trail].map(ProductSummary.init)
    shop.simulate(SearchRequest.find(query: ""), event: .search(.found(catalog, query: "")))
    await shop.receive(.search(.found(catalog, query: ""))) {
      $0.search.results = catalog
      $0.search.answeredQuery = ""
      $0.rows.append(ProductRowState(summary: ProductSummary(.trail)))
    }
    shop.expectStarted(ProductRowRequest.loadProduct(id: "trail-runner-moss"))
    shop.simulate(
      ProductRowRequest.loadProduct(id: "trail-runner-moss"),
      event: .row(id: "trail-runner-moss", .loaded(.trail))
    )
    await shop.receive(.row(id: "trail-runner-moss", .loaded(.trail))) {
      $0.rows[2].status = .loaded(.trail)
    }
    await shop.finish()
  }

  @Test func opensTheHighlightedProductWhosePageLoadsThatProduct() async {
    let shop = ShopTestSystem(
      from: .listing([.yeezy, .court, .trail]), context: .test(clock: clock, cart: cart),
      clock: clock)
    let load = ProductPageRequest(product: .court, request: .loadProduct(id: 1))

    shop.send(.moveDown) { $0.highlightedID = "court-classic-white" }
    shop.send(.open(id: "court-classic-white")) {
      $0.detail = ProductPageState(
        product: .court,
        page: ProductDetailState(screen: .loading, request: .loadProduct(id: 1), requestCount: 1)
      )
    }
    shop.expectStarted(load)
    #expect(
      shop.runningRequests.map(\.description) == [
        "detail: loadProduct(id: 1) of court-classic-white"
      ]
    )
    shop.run(load)
    await clock.advance(by: .seconds(3))
    await shop.receive(.detail(.productLoaded(.court))) {
      $0.detail?.page.screen = .productLoaded(.court)
      $0.detail?.page.request = nil
    }
    await shop.finish()
  }

  @Test func updatesTheCartBadgeWhenThePageHasAddedToTheCart() async {
    // The first roll of seed 1 is 6: not below 5, so the add succeeds.
    var state = ShopState.listing([.yeezy, .court])
    state.detail = ProductPageState(
      product: .court, page: ProductDetailState(screen: .productLoaded(.court), requestCount: 1))
    let shop = ShopTestSystem(
      from: state, context: .test(clock: clock, seed: 1, cart: cart), clock: clock)
    let add = ProductPageRequest(product: .court, request: .addToCart(id: 2))
    let response = CartResponse(
      message: "Product: Court Classic White added to cart for user: Richi",
      itemCount: 1
    )

    shop.send(.detail(.addToCart)) {
      $0.detail?.page.request = .addToCart(id: 2)
      $0.detail?.page.requestCount = 2
    }
    shop.expectStarted(add)
    shop.run(add)
    await clock.advance(by: .seconds(1))
    // One step: the page shows the confirmation, then the shop's own reducer counts it.
    await shop.receive(.detail(.addedToCart(.court, response))) {
      $0.detail?.page.screen = .addedToCart(.court, response)
      $0.detail?.page.request = nil
      $0.cartCount = 1
    }
    await shop.finish()
    #expect(
      await cart.items == [
        CartItem(productID: "court-classic-white", title: "Court Classic White", user: "Richi")
      ]
    )
  }

  @Test func leavesTheBadgeAloneWhenTheAddFails() async {
    // The first roll of seed 3 is 2: below 5, the seed's failure.
    var state = ShopState.listing([.yeezy])
    state.detail = ProductPageState(
      product: .yeezy, page: ProductDetailState(screen: .productLoaded(.yeezy), requestCount: 1))
    state.cartCount = 4
    let shop = ShopTestSystem(
      from: state, context: .test(clock: clock, seed: 3, cart: cart), clock: clock)
    let add = ProductPageRequest(product: .yeezy, request: .addToCart(id: 2))

    shop.send(.detail(.addToCart)) {
      $0.detail?.page.request = .addToCart(id: 2)
      $0.detail?.page.requestCount = 2
    }
    shop.expectStarted(add)
    shop.run(add)
    await clock.advance(by: .seconds(1))
    await shop.receive(.detail(.failed(.addToCartFailed))) {
      $0.detail?.page.screen = .addToCartFailed(.yeezy, .addToCartFailed)
      $0.detail?.page.request = nil
    }
    await shop.finish()
    #expect(shop.state.cartCount == 4)
  }

  @Test func openingAnotherProductCancelsThePreviousPagesWork() async {
    var state = ShopState.listing([.yeezy, .court, .trail])
    state.detail = .opening(.yeezy)
    let shop = ShopTestSystem(
      from: state, context: .test(clock: clock, cart: cart), clock: clock)
    let yeezy = ProductPageRequest(product: .yeezy, request: .loadProduct(id: 1))
    let court = ProductPageRequest(product: .court, request: .loadProduct(id: 1))
    let trail = ProductPageRequest(product: .trail, request: .loadProduct(id: 1))
    shop.expectStarted(yeezy)
    shop.run(yeezy)

    // The pages' own requests are equal; the products are not, so the work restarts.
    shop.send(.moveDown) {
      $0.highlightedID = "court-classic-white"
      $0.detail = .opening(.court)
    }
    shop.expectCancelled(yeezy)
    shop.expectStarted(court)
    shop.send(.open(id: "trail-runner-moss")) {
      $0.highlightedID = "trail-runner-moss"
      $0.detail = .opening(.trail)
    }
    shop.expectCancelled(court)
    shop.expectStarted(trail)
    #expect(
      shop.runningRequests.map(\.description) == [
        "detail: loadProduct(id: 1) of trail-runner-moss"
      ]
    )

    // The cancelled load of the first page never arrives: only the trail runner does.
    shop.run(trail)
    await clock.advance(by: .seconds(3))
    await shop.receive(.detail(.productLoaded(.trail))) {
      $0.detail?.page.screen = .productLoaded(.trail)
      $0.detail?.page.request = nil
    }
    await shop.finish()
  }

  @Test func closingThePageCancelsItsWork() async {
    var state = ShopState.listing([.yeezy])
    state.detail = .opening(.yeezy)
    let shop = ShopTestSystem(
      from: state, context: .test(clock: clock, cart: cart), clock: clock)
    let load = ProductPageRequest(product: .yeezy, request: .loadProduct(id: 1))
    shop.expectStarted(load)

    shop.send(.close) { $0.detail = nil }
    shop.expectCancelled(load)
    #expect(shop.runningRequests.isEmpty)
    await shop.finish()
  }

  @Test func movingOnAPageToARowStillLoadingShowsTheList() async {
    var state = ShopState.listing([.yeezy, .court])
    state.rows[1].status = .loading
    state.detail = ProductPageState(
      product: .yeezy, page: ProductDetailState(screen: .productLoaded(.yeezy), requestCount: 1))
    let shop = ShopTestSystem(
      from: state, context: .test(clock: clock, cart: cart), clock: clock)
    shop.expectStarted(ProductRowRequest.loadProduct(id: "court-classic-white"))

    shop.send(.moveUp)
    shop.send(.moveDown) {
      $0.highlightedID = "court-classic-white"
      $0.detail = nil
    }
    shop.send(.moveDown)
    shop.send(.open(id: "court-classic-white"))
    shop.simulate(
      ProductRowRequest.loadProduct(id: "court-classic-white"),
      event: .row(id: "court-classic-white", .loaded(.court))
    )
    await shop.receive(.row(id: "court-classic-white", .loaded(.court))) {
      $0.rows[1].status = .loaded(.court)
    }
    await shop.finish()
  }

  @Test func reportsAnEventForAClosedPageOrAGoneRow() async {
    let shop = ShopTestSystem(
      from: .listing([.yeezy]), context: .test(clock: clock, cart: cart), clock: clock)

    let toTheClosedPage = await capturingFailures {
      shop.send(.detail(.addToCart))
    }
    #expect(toTheClosedPage.count == 1)
    #expect(toTheClosedPage.allSatisfy { $0.contains("the child at detail,") })
    let toTheGoneRow = await capturingFailures {
      shop.send(.row(id: "trail-runner-moss", .loaded(.trail)))
    }
    #expect(toTheGoneRow.count == 1)
    #expect(toTheGoneRow.allSatisfy { $0.contains("the child at rows[trail-runner-moss],") })
    await shop.finish()
  }

  @Test func theLiveSearchMatchesEveryWordOfTheTitleIgnoringCase() {
    #expect(LiveShopAPI.matches(of: "", in: .shop).map(\.id).count == 3)
    #expect(
      LiveShopAPI.matches(of: "WH", in: .shop).map(\.id) == [
        "yeezy-triple-white", "court-classic-white",
      ]
    )
    #expect(LiveShopAPI.matches(of: "white court", in: .shop).map(\.id) == ["court-classic-white"])
    #expect(LiveShopAPI.matches(of: "boots", in: .shop).isEmpty)
  }
}
