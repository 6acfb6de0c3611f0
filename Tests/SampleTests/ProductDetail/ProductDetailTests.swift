import ArchitectureKitTestSupport
import ProductDetailFeature
import ProductDetailLive
import Testing

/// The product detail page's logic with the live API's behavior, on a manual clock.
@MainActor
struct ProductDetailTests {
  let clock = ManualClock()
  let cart = InMemoryCart()

  @Test func loadsTheProductAfterThreeSeconds() async {
    let page = ProductDetailTestSystem(context: .test(clock: clock, cart: cart), clock: clock)

    page.send(.loadProduct) {
      $0.screen = .loading
      $0.request = .loadProduct(id: 1)
      $0.requestCount = 1
    }
    page.expectStarted(ProductDetailRequest.loadProduct(id: 1))
    page.run(ProductDetailRequest.loadProduct(id: 1))
    await clock.advance(by: .seconds(2))
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    await page.receive(.productLoaded(.yeezy)) {
      $0.screen = .productLoaded(.yeezy)
      $0.request = nil
    }
    await page.finish()
  }

  @Test func addsToTheCartWhenTheRandomSourceAllowsIt() async {
    // The first roll of seed 1 is 6: not below 5, so the add succeeds.
    let page = ProductDetailTestSystem(
      from: ProductDetailState(screen: .productLoaded(.yeezy), requestCount: 1),
      context: .test(clock: clock, seed: 1, cart: cart),
      clock: clock
    )
    let response = CartResponse(
      message: "Product: Yeezy Triple White added to cart for user: Richi",
      itemCount: 1
    )

    page.send(.addToCart) {
      $0.request = .addToCart(id: 2)
      $0.requestCount = 2
    }
    page.expectStarted(ProductDetailRequest.addToCart(id: 2))
    page.run(ProductDetailRequest.addToCart(id: 2))
    // The cached product comes at once; the user takes 1 s.
    await clock.advance(by: .seconds(1))
    await page.receive(.addedToCart(.yeezy, response)) {
      $0.screen = .addedToCart(.yeezy, response)
      $0.request = nil
    }
    await page.finish()
    #expect(
      await cart.items == [
        CartItem(productID: "yeezy-triple-white", title: "Yeezy Triple White", user: "Richi")
      ]
    )
  }

  @Test func keepsTheProductBesideTheSeedErrorWhenTheRandomSourceFailsTheAdd() async {
    // The first roll of seed 3 is 2: below 5, the seed's failure.
    let page = ProductDetailTestSystem(
      from: ProductDetailState(screen: .productLoaded(.yeezy), requestCount: 1),
      context: .test(clock: clock, seed: 3, cart: cart),
      clock: clock
    )

    page.send(.addToCart) {
      $0.request = .addToCart(id: 2)
      $0.requestCount = 2
    }
    page.expectStarted(ProductDetailRequest.addToCart(id: 2))
    page.run(ProductDetailRequest.addToCart(id: 2))
    await clock.advance(by: .seconds(1))
    await page.receive(.failed(.addToCartFailed)) {
      $0.screen = .addToCartFailed(.yeezy, .addToCartFailed)
      $0.request = nil
    }
    await page.finish()
    #expect(page.state.product == .yeezy)
    #expect(page.state.canAddToCart)
    #expect(await cart.items.isEmpty)
    #expect(ProductDetailError.addToCartFailed.domain == "Error adding to cart")
    #expect(ProductDetailError.addToCartFailed.code == 15)
  }

  @Test func retriesTheAddAfterAFailureWithoutReloadingTheProduct() async {
    // Seed 3 rolls 2 (the seed's failure), then 7 (a success).
    let page = ProductDetailTestSystem(
      from: ProductDetailState(screen: .productLoaded(.yeezy), requestCount: 1),
      context: .test(clock: clock, seed: 3, cart: cart),
      clock: clock
    )
    page.send(.addToCart) {
      $0.request = .addToCart(id: 2)
      $0.requestCount = 2
    }
    page.expectStarted(ProductDetailRequest.addToCart(id: 2))
    page.run(ProductDetailRequest.addToCart(id: 2))
    await clock.waitForSleepers()
    await clock.advance(by: .seconds(1))
    await page.receive(.failed(.addToCartFailed)) {
      $0.screen = .addToCartFailed(.yeezy, .addToCartFailed)
      $0.request = nil
    }

    // The retry shows the product again while it runs: no 3-second reload.
    page.send(.addToCart) {
      $0.screen = .productLoaded(.yeezy)
      $0.request = .addToCart(id: 3)
      $0.requestCount = 3
    }
    page.expectStarted(ProductDetailRequest.addToCart(id: 3))
    page.run(ProductDetailRequest.addToCart(id: 3))
    await clock.waitForSleepers()
    await clock.advance(by: .seconds(1))
    let response = CartResponse(
      message: "Product: Yeezy Triple White added to cart for user: Richi",
      itemCount: 1
    )
    await page.receive(.addedToCart(.yeezy, response)) {
      $0.screen = .addedToCart(.yeezy, response)
      $0.request = nil
    }
    await page.finish()
    #expect(await cart.items.count == 1)
  }

  @Test func reloadingWhileLoadingCancelsTheRunningLoad() async {
    let page = ProductDetailTestSystem(context: .test(clock: clock, cart: cart), clock: clock)

    page.send(.loadProduct) {
      $0.screen = .loading
      $0.request = .loadProduct(id: 1)
      $0.requestCount = 1
    }
    page.expectStarted(ProductDetailRequest.loadProduct(id: 1))
    page.run(ProductDetailRequest.loadProduct(id: 1))

    page.send(.loadProduct) {
      $0.request = .loadProduct(id: 2)
      $0.requestCount = 2
    }
    page.expectCancelled(ProductDetailRequest.loadProduct(id: 1))
    page.expectStarted(ProductDetailRequest.loadProduct(id: 2))
    page.run(ProductDetailRequest.loadProduct(id: 2))
    await clock.advance(by: .seconds(3))
    // Only the second load answers; `finish` fails on any event of the first.
    await page.receive(.productLoaded(.yeezy)) {
      $0.screen = .productLoaded(.yeezy)
      $0.request = nil
    }
    await page.finish()
  }

  @Test func reloadingWhileAddingToTheCartCancelsTheAdd() async {
    let page = ProductDetailTestSystem(
      from: ProductDetailState(screen: .productLoaded(.yeezy), requestCount: 1),
      context: .test(clock: clock, cart: cart),
      clock: clock
    )

    page.send(.addToCart) {
      $0.request = .addToCart(id: 2)
      $0.requestCount = 2
    }
    page.expectStarted(ProductDetailRequest.addToCart(id: 2))
    page.send(.loadProduct) {
      $0.screen = .loading
      $0.request = .loadProduct(id: 3)
      $0.requestCount = 3
    }
    page.expectCancelled(ProductDetailRequest.addToCart(id: 2))
    page.expectStarted(ProductDetailRequest.loadProduct(id: 3))
    page.simulate(ProductDetailRequest.loadProduct(id: 3), event: .productLoaded(.yeezy))
    await page.receive(.productLoaded(.yeezy)) {
      $0.screen = .productLoaded(.yeezy)
      $0.request = nil
    }
    await page.finish()
    #expect(await cart.items.isEmpty)
  }

  @Test func addingToTheCartTwiceStartsOneAdd() async {
    let page = ProductDetailTestSystem(
      from: ProductDetailState(screen: .productLoaded(.yeezy), requestCount: 1),
      context: .test(clock: clock, cart: cart),
      clock: clock
    )

    page.send(.addToCart) {
      $0.request = .addToCart(id: 2)
      $0.requestCount = 2
    }
    page.expectStarted(ProductDetailRequest.addToCart(id: 2))
    // The second press finds an add pending: nothing changes, nothing starts.
    page.send(.addToCart)
    page.simulate(ProductDetailRequest.addToCart(id: 2), event: .failed(.addToCartFailed))
    await page.receive(.failed(.addToCartFailed)) {
      $0.screen = .addToCartFailed(.yeezy, .addToCartFailed)
      $0.request = nil
    }
    await page.finish()
  }

  @Test func seededRandomSourcesRepeat() async {
    #expect(await RandomSource(seed: 1).int(in: 1..<10) == 6)
    #expect(await RandomSource(seed: 3).int(in: 1..<10) == 2)
  }
}
