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

  @Test func openingAProductPushesItsPageWhichLoadsThatProduct() async {
    let shop = ShopTestSystem(
      from: .listing([.yeezy, .court, .trail]), context: .test(clock: clock, cart: cart),
      clock: clock)
    let load = ProductDetailRequest.loadProduct(id: 1)

    shop.send(.moveDown) { $0.highlightedID = "court-classic-white" }
    shop.send(.open(id: "court-classic-white")) {
      $0.path.append(
        .product(
          ProductPageState(
            product: .court,
            detail: ProductDetailState(
              screen: .loading, request: .loadProduct(id: 1), requestCount: 1)
          )))
    }
    shop.expectStarted(load, in: pageScope(1))
    #expect(
      shop.runningRequests.map(\.description) == ["path[#1].product.detail: loadProduct(id: 1)"]
    )
    await shop.load(.court, onPage: 1, clock: clock)
    await shop.finish()
  }

  @Test func eachPageRunsWithTheContextOfTheProductItShows() async {
    let shop = ShopTestSystem(
      from: .listing([.yeezy, .court]), context: .test(clock: clock, cart: cart), clock: clock)
    // Both pages make the same request; only their contexts, made from their products, differ.
    let load = ProductDetailRequest.loadProduct(id: 1)

    shop.send(.open(id: "yeezy-triple-white")) { $0.path.append(.product(.opening(.yeezy))) }
    shop.expectStarted(load, in: pageScope(1))
    shop.simulate(
      load, in: pageScope(1), event: .path(1, .product(.detail(.productLoaded(.yeezy))))
    )
    await shop.receive(.path(1, .product(.detail(.productLoaded(.yeezy))))) {
      $0.path[id: 1] = .product(.loaded(.yeezy))
    }
    shop.send(.moveDown) {
      $0.highlightedID = "court-classic-white"
      $0.path.append(.product(.opening(.court)))
    }
    shop.expectStarted(load, in: pageScope(2))
    await shop.load(.court, onPage: 2, clock: clock)
    shop.send(.path(2, .product(.detail(.loadProduct)))) {
      $0.path[id: 2]?.page.detail = ProductDetailState(
        screen: .loading, request: .loadProduct(id: 2), requestCount: 2)
    }
    shop.expectStarted(ProductDetailRequest.loadProduct(id: 2), in: pageScope(2))
    // The page's context was made once, when it was pushed: a reload still loads its product.
    await shop.load(.court, onPage: 2, request: 2, clock: clock)
    await shop.finish()
  }

  @Test func updatesTheCartBadgeWhenThePageHasAddedToTheCart() async {
    // The first roll of seed 1 is 6: not below 5, so the add succeeds.
    let shop = ShopTestSystem(
      from: .onPage(of: .court, over: [.yeezy, .court]),
      context: .test(clock: clock, seed: 1, cart: cart), clock: clock)
    let add = ProductDetailRequest.addToCart(id: 2)
    let response = CartResponse(
      message: "Product: Court Classic White added to cart for user: Richi",
      itemCount: 1
    )

    shop.startAddingToCart(onPage: 1)
    shop.run(add, in: pageScope(1))
    await clock.advance(by: .seconds(1))
    // One step: the page shows the confirmation, then the shop's own reducer counts it.
    await shop.receive(.path(1, .product(.detail(.addedToCart(.court, response))))) {
      $0.path[id: 1]?.page.detail.screen = .addedToCart(.court, response)
      $0.path[id: 1]?.page.detail.request = nil
      $0.cartCount = 1
      $0.addedProducts = [.court]
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
    var state = ShopState.onPage(of: .yeezy, over: [.yeezy])
    state.cartCount = 4
    let shop = ShopTestSystem(
      from: state, context: .test(clock: clock, seed: 3, cart: cart), clock: clock)
    let add = ProductDetailRequest.addToCart(id: 2)

    shop.startAddingToCart(onPage: 1)
    shop.run(add, in: pageScope(1))
    await clock.advance(by: .seconds(1))
    await shop.receive(.path(1, .product(.detail(.failed(.addToCartFailed))))) {
      $0.path[id: 1]?.page.detail.screen = .addToCartFailed(.yeezy, .addToCartFailed)
      $0.path[id: 1]?.page.detail.request = nil
    }
    await shop.finish()
    #expect(shop.state.cartCount == 4)
  }

  @Test func movingToTheNextProductPushesItsPageAndTheAddBelowGoesOn() async {
    let shop = ShopTestSystem(
      from: .onPage(of: .yeezy, over: [.yeezy, .court]),
      context: .test(clock: clock, seed: 1, cart: cart), clock: clock)
    let add = ProductDetailRequest.addToCart(id: 2)
    let load = ProductDetailRequest.loadProduct(id: 1)
    let response = CartResponse(
      message: "Product: Yeezy Triple White added to cart for user: Richi", itemCount: 1)

    shop.startAddingToCart(onPage: 1)
    // ↓ right after `a`: the next page goes on top; the page below, and its add, stay.
    shop.send(.moveDown) {
      $0.highlightedID = "court-classic-white"
      $0.path.append(.product(.opening(.court)))
    }
    shop.expectStarted(load, in: pageScope(2))
    #expect(shop.runningRequests.count == 2)
    shop.run(add, in: pageScope(1))
    await clock.advance(by: .seconds(1))
    await shop.receive(.path(1, .product(.detail(.addedToCart(.yeezy, response))))) {
      $0.path[id: 1]?.page.detail.screen = .addedToCart(.yeezy, response)
      $0.path[id: 1]?.page.detail.request = nil
      $0.cartCount = 1
      $0.addedProducts = [.yeezy]
    }
    // Closing the top page pops it, cancels its load, and shows the page below.
    shop.send(.path(2, .product(.closeTapped))) {
      $0.path.removeLast()
      $0.highlightedID = "yeezy-triple-white"
    }
    shop.expectCancelled(load, in: pageScope(2))
    shop.send(.path(1, .product(.closeTapped))) { $0.path.removeAll() }
    await shop.finish()
    #expect(await cart.items.count == 1)
  }

  @Test func closingAPagePopsItAndCancelsItsWork() async {
    let shop = ShopTestSystem(
      from: .listing([.yeezy]), context: .test(clock: clock, cart: cart), clock: clock)
    let load = ProductDetailRequest.loadProduct(id: 1)

    shop.send(.open(id: "yeezy-triple-white")) { $0.path.append(.product(.opening(.yeezy))) }
    shop.expectStarted(load, in: pageScope(1))
    shop.send(.path(1, .product(.closeTapped))) { $0.path.removeLast() }
    shop.expectCancelled(load, in: pageScope(1))
    #expect(shop.runningRequests.isEmpty)

    // Opened again, the product gets a new page, under a new ID, with work of its own.
    shop.send(.open(id: "yeezy-triple-white")) { $0.path.append(.product(.opening(.yeezy))) }
    shop.expectStarted(load, in: pageScope(2))
    #expect(shop.state.path.ids == [2])
    shop.send(.path(2, .product(.closeTapped))) { $0.path.removeLast() }
    shop.expectCancelled(load, in: pageScope(2))
    await shop.finish()
  }

  @Test func movingOnAPageToAProductStillLoadingStaysOnThePage() async {
    var state = ShopState.onPage(of: .yeezy, over: [.yeezy, .court])
    state.rows[1].status = .loading
    let shop = ShopTestSystem(
      from: state, context: .test(clock: clock, cart: cart), clock: clock)
    shop.expectStarted(ProductRowRequest.loadProduct(id: "court-classic-white"))

    shop.send(.moveUp)
    shop.send(.moveDown)
    shop.simulate(
      ProductRowRequest.loadProduct(id: "court-classic-white"),
      event: .row(id: "court-classic-white", .loaded(.court))
    )
    await shop.receive(.row(id: "court-classic-white", .loaded(.court))) {
      $0.rows[1].status = .loaded(.court)
    }
    shop.send(.moveDown) {
      $0.highlightedID = "court-classic-white"
      $0.path.append(.product(.opening(.court)))
    }
    shop.expectStarted(ProductDetailRequest.loadProduct(id: 1), in: pageScope(2))
    shop.send(.path(2, .product(.closeTapped))) {
      $0.path.removeLast()
      $0.highlightedID = "yeezy-triple-white"
    }
    shop.expectCancelled(ProductDetailRequest.loadProduct(id: 1), in: pageScope(2))
    await shop.finish()
  }

  @Test func reportsAnEventForAPoppedPageOrAGoneRowByItsName() async {
    let shop = ShopTestSystem(
      from: .onPage(of: .yeezy, over: [.yeezy]), context: .test(clock: clock, cart: cart),
      clock: clock)
    shop.send(.path(1, .product(.closeTapped))) { $0.path.removeLast() }

    let toThePoppedPage = await capturingFailures {
      shop.send(.path(1, .product(.detail(.addToCart))))
    }
    #expect(toThePoppedPage.count == 1)
    #expect(toThePoppedPage.allSatisfy { $0.contains("path[#1]") })
    let toTheGoneRow = await capturingFailures {
      shop.send(.row(id: "trail-runner-moss", .loaded(.trail)))
    }
    #expect(toTheGoneRow.count == 1)
    #expect(toTheGoneRow.allSatisfy { $0.contains("the child at rows[trail-runner-moss],") })
    await shop.finish()
  }

  @Test func theCartOpensAsASheetOverThePageWhoseAddGoesOn() async {
    let shop = ShopTestSystem(
      from: .onPage(of: .court, over: [.yeezy, .court]),
      context: .test(clock: clock, seed: 1, cart: cart), clock: clock)
    let add = ProductDetailRequest.addToCart(id: 2)
    let response = CartResponse(
      message: "Product: Court Classic White added to cart for user: Richi", itemCount: 1)

    shop.startAddingToCart(onPage: 1)
    shop.send(.openCart) { $0.destination = .cart(CartSheetState()) }
    // Opening it again while it shows changes nothing.
    shop.send(.openCart)
    shop.run(add, in: pageScope(1))
    await clock.advance(by: .seconds(1))
    // The sheet shows the shop's cart, which the page under it has just added to.
    await shop.receive(.path(1, .product(.detail(.addedToCart(.court, response))))) {
      $0.path[id: 1]?.page.detail.screen = .addedToCart(.court, response)
      $0.path[id: 1]?.page.detail.request = nil
      $0.cartCount = 1
      $0.addedProducts = [.court]
    }
    // The sheet closes itself; the page is still there.
    shop.send(.destination(.cart(.closeTapped))) { $0.destination = nil }
    #expect(shop.state.topPage?.product == .court)
    await shop.finish()
  }

  @Test func confirmingTheDialogEmptiesTheCart() async {
    _ = await cart.add(CartItem(productID: "yeezy-triple-white", title: "Yeezy", user: "Richi"))
    var state = ShopState.listing([.yeezy])
    state.cartCount = 2
    state.addedProducts = [.yeezy]
    let shop = ShopTestSystem(
      from: state, context: .test(clock: clock, cart: cart), clock: clock)

    shop.send(.openCart) { $0.destination = .cart(CartSheetState()) }
    shop.send(.destination(.cart(.emptyTapped))) {
      $0.destination = .cart(CartSheetState(confirmation: CartSheet.emptyConfirmation))
    }
    #expect(
      shop.state.cartSheet?.confirmation?.buttons.map(\.title) == ["Empty", "Keep"]
    )
    // The tap dismisses the dialog, then the sheet empties the cart.
    shop.send(.destination(.cart(.confirmation(.empty)))) {
      $0.destination = .cart(CartSheetState(isEmptying: true))
    }
    shop.expectStarted(CartSheetRequest.emptyCart, in: "destination.cart")
    shop.run(CartSheetRequest.emptyCart, in: "destination.cart")
    await shop.receive(.destination(.cart(.emptied))) {
      $0.destination = .cart(CartSheetState())
      $0.cartCount = 0
      $0.addedProducts = []
    }
    await shop.finish()
    #expect(await cart.items.isEmpty)
  }

  @Test func cancellingTheDialogKeepsTheCart() async {
    _ = await cart.add(CartItem(productID: "yeezy-triple-white", title: "Yeezy", user: "Richi"))
    var state = ShopState.listing([.yeezy])
    state.cartCount = 1
    state.destination = .cart(CartSheetState())
    let shop = ShopTestSystem(
      from: state, context: .test(clock: clock, cart: cart), clock: clock)

    shop.send(.destination(.cart(.emptyTapped))) {
      $0.destination = .cart(CartSheetState(confirmation: CartSheet.emptyConfirmation))
    }
    shop.send(.destination(.cart(.confirmation(nil)))) {
      $0.destination = .cart(CartSheetState())
    }
    #expect(shop.runningRequests.isEmpty)
    // A second answer, with no dialog left to answer, is reported, not acted on.
    let failures = await capturingFailures {
      shop.send(.destination(.cart(.confirmation(.empty))))
    }
    #expect(failures.count == 1)
    #expect(failures.allSatisfy { $0.contains("confirmation") })
    await shop.finish()
    #expect(shop.state.cartCount == 1)
    #expect(await cart.items.count == 1)
  }

  @Test func theSheetSaysWhyTheCartCouldNotBeEmptied() async throws {
    let folder = try TemporaryDirectory()
    let path = folder.path("gone/cart.json")
    let context = ShopContext(
      api: LiveShopAPI(catalog: .shop, cart: CartFile(path: path, createsFolders: false)),
      clock: clock, random: RandomSource(seed: 1))
    var state = ShopState.listing([.yeezy])
    state.cartCount = 1
    state.destination = .cart(CartSheetState(isEmptying: true))
    let shop = ShopTestSystem(from: state, context: context, clock: clock)
    let failure = ProductDetailError.cartUnavailable(
      reason: "The cart file \(path) cannot be created: the folder \(folder.path("gone")) "
        + "does not exist.")

    shop.expectStarted(CartSheetRequest.emptyCart, in: "destination.cart")
    shop.run(CartSheetRequest.emptyCart, in: "destination.cart")
    await shop.receive(.destination(.cart(.emptyFailed(failure)))) {
      $0.destination = .cart(CartSheetState(failure: failure))
    }
    await shop.finish()
    #expect(shop.state.cartCount == 1)
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
