public import ArchitectureKit

/// The product detail page's system.
public typealias ProductDetailSystem = System<
  ProductDetailState, ProductDetailEvent, ProductDetailError, ProductDetailContext
>

/// A feedback loop of the product detail page.
public typealias ProductDetailFeedback = Feedback<
  ProductDetailState, ProductDetailEvent, ProductDetailError, ProductDetailContext
>

/// The seed's product detail page, written the feedback way.
///
/// The reducer only records what the page waits for in ``ProductDetailState/request``; one
/// feedback loop performs that request with the ``ProductDetailContext``'s API and sends the
/// result back as an event. Because the request is part of the state, the runtime keeps effects
/// and state in step: a new request cancels the old one, and a cancelled request's result never
/// arrives.
///
/// ```swift
/// let page = ProductDetail.start(context: context)
/// page.addUIBinding { render($0) }
/// page.send(.loadProduct)  // the page loads the product when it appears, as in the seed
/// ```
public enum ProductDetail: Sendable {
  /// The page's reducer, in mutating form.
  ///
  /// - `loadProduct` shows the spinner and asks for the product, replacing any pending request;
  /// - `addToCart` asks to add the shown product, unless no product is shown or a request is
  ///   pending, in which case nothing changes; a retry after a failed add shows the product
  ///   without the old failure while it runs;
  /// - a result event shows its result and clears the request. A failure while a product is
  ///   shown is a failed add: the product stays, with the failure beside it.
  ///
  /// - Parameters:
  ///   - state: The page's state, changed in place.
  ///   - event: What happened.
  public static func reduce(_ state: inout ProductDetailState, _ event: ProductDetailEvent) {
    switch event {
    case .loadProduct:
      state.screen = .loading
      state.requestCount += 1
      state.request = .loadProduct(id: state.requestCount)
    case .addToCart:
      guard state.canAddToCart else { return }
      if case .addToCartFailed(let product, _) = state.screen {
        state.screen = .productLoaded(product)
      }
      state.requestCount += 1
      state.request = .addToCart(id: state.requestCount)
    case .productLoaded(let product):
      state.screen = .productLoaded(product)
      state.request = nil
    case .addedToCart(let product, let response):
      state.screen = .addedToCart(product, response)
      state.request = nil
    case .failed(let error):
      // Only an add runs while a product is shown: a reload shows the spinner instead.
      if let product = state.product {
        state.screen = .addToCartFailed(product, error)
      } else {
        state.screen = .error(error)
      }
      state.request = nil
    }
  }

  /// The page's feedback: performs the request the state holds.
  public static var feedback: [ProductDetailFeedback] {
    [.react(request: \.request, effects: effects(for:))]
  }

  /// The page as one value: its reducer and its feedback, as a system, a test or a replay runs
  /// it.
  public static var feature:
    Feature<ProductDetailState, ProductDetailEvent, ProductDetailError, ProductDetailContext>
  {
    Feature(reduce: reduce, feedback: feedback)
  }

  /// The work for a request, as the seed wrote it: API calls composed into one
  /// ``AsyncResult`` whose failure becomes an event too.
  ///
  /// Adding to the cart loads the product (cached) and the user together, then adds.
  ///
  /// - Parameter request: The request to perform.
  /// - Returns: The work; it ends with the event that answers the request.
  public static func effects(
    for request: ProductDetailRequest
  ) -> AsyncResult<ProductDetailContext, ProductDetailEvent, ProductDetailError> {
    let api = AsyncResult<ProductDetailContext, ProductDetailContext, ProductDetailError>.ask()
      .map { $0.api }
    switch request {
    case .loadProduct:
      return api.flatMap { $0.getProduct(cached: false) }
        .map { ProductDetailEvent.productLoaded($0) }
        .mapErrorRecover { ProductDetailEvent.failed($0) }
    case .addToCart:
      return api.flatMap { api in
        api.getProduct(cached: true).zip(api.getUser()).flatMap { product, user in
          api.addToCart(product: product, user: user).map {
            ProductDetailEvent.addedToCart(product, $0)
          }
        }
      }
      .mapErrorRecover { ProductDetailEvent.failed($0) }
    }
  }

  /// Starts the page's system with `context`; the page is at ``ProductDetailState/Screen/start``
  /// until it receives ``ProductDetailEvent/loadProduct``.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - context: The dependencies of the effects.
  ///   - journal: A journal that records the session from its start, if any (`pdp --record`).
  /// - Returns: The running system.
  @MainActor
  public static func start(
    from initialState: ProductDetailState = ProductDetailState(),
    context: ProductDetailContext,
    journal: Journal<ProductDetailState, ProductDetailEvent>? = nil
  ) -> ProductDetailSystem {
    ProductDetailSystem(
      initialState: initialState,
      context: context,
      feature: feature,
      journal: journal
    )
  }
}
