import ArchitectureKitTestSupport
import ProductDetailFeature
import Testing

/// The product detail page's reducer alone, as specifications.
struct ProductDetailReducerTests {
  let page = ReducerSpec(reduce: ProductDetail.reduce)
  let response = CartResponse(message: "Added", itemCount: 1)

  @Test func loadingShowsTheSpinnerAndAsksForTheProduct() {
    page.given(ProductDetailState())
      .when(.loadProduct)
      .then(ProductDetailState(screen: .loading, request: .loadProduct(id: 1), requestCount: 1))
  }

  @Test func eachRequestGetsANewNumber() {
    page.given(ProductDetailState())
      .when(.loadProduct, .loadProduct)
      .then(ProductDetailState(screen: .loading, request: .loadProduct(id: 2), requestCount: 2))
  }

  @Test(
    arguments: [
      ProductDetailState(),
      ProductDetailState(screen: .loading, request: .loadProduct(id: 1), requestCount: 1),
      ProductDetailState(screen: .error(.addToCartFailed), requestCount: 2),
      ProductDetailState(screen: .productLoaded(.yeezy), request: .addToCart(id: 2)),
    ]
  )
  func addingToTheCartNeedsAShownProductAndNothingPending(state: ProductDetailState) {
    page.given(state).when(.addToCart).then(state)
  }

  @Test func addingAgainAfterAnAddStartsANewAdd() {
    page.given(ProductDetailState(screen: .addedToCart(.yeezy, response), requestCount: 2))
      .when(.addToCart)
      .then(
        ProductDetailState(
          screen: .addedToCart(.yeezy, response),
          request: .addToCart(id: 3),
          requestCount: 3
        )
      )
  }

  @Test func aResultShowsItselfAndEndsTheRequest() {
    page.given(ProductDetailState(screen: .productLoaded(.yeezy), request: .addToCart(id: 2)))
      .when(.addedToCart(.yeezy, response))
      .then(ProductDetailState(screen: .addedToCart(.yeezy, response)))
  }

  @Test func aFailedAddKeepsTheProductBesideTheError() {
    page.given(ProductDetailState(screen: .productLoaded(.yeezy), request: .addToCart(id: 2)))
      .when(.failed(.addToCartFailed))
      .then(ProductDetailState(screen: .addToCartFailed(.yeezy, .addToCartFailed)))
  }

  @Test func aFailedAddAfterAnAddKeepsTheProductToo() {
    page.given(
      ProductDetailState(screen: .addedToCart(.yeezy, response), request: .addToCart(id: 3))
    )
    .when(.failed(.addToCartFailed))
    .then(ProductDetailState(screen: .addToCartFailed(.yeezy, .addToCartFailed)))
  }

  @Test func aFailedLoadShowsTheErrorAlone() {
    let failure = ProductDetailError.cartUnavailable(reason: "The disk is full.")
    page.given(ProductDetailState(screen: .loading, request: .loadProduct(id: 1)))
      .when(.failed(failure))
      .then(ProductDetailState(screen: .error(failure)))
  }

  @Test func addingAfterAFailedAddRetriesWithTheProductShown() {
    page.given(
      ProductDetailState(screen: .addToCartFailed(.yeezy, .addToCartFailed), requestCount: 2)
    )
    .when(.addToCart)
    .then(
      ProductDetailState(
        screen: .productLoaded(.yeezy),
        request: .addToCart(id: 3),
        requestCount: 3
      )
    )
  }
}
