/// A cart kept in memory: empty when created, gone when the app ends.
///
/// Tests use it so they touch no file; a scripted `pdp` run uses it unless `--cart` names a
/// file, so a script prints the same on every run.
///
/// ```swift
/// let cart = InMemoryCart()
/// let api = LiveProductAPI(product: product, cart: cart)
/// ```
public actor InMemoryCart: CartStorage {
  /// The items, oldest first.
  public private(set) var items: [CartItem] = []

  /// Creates an empty cart.
  public init() {}

  /// Adds an item to the cart.
  ///
  /// - Parameter item: The item to add.
  /// - Returns: How many items the cart holds now.
  public func add(_ item: CartItem) -> Int {
    items.append(item)
    return items.count
  }

  /// Empties the cart.
  public func removeAll() {
    items.removeAll()
  }
}
