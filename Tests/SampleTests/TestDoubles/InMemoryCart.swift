import ProductDetailLive

/// A cart kept in memory, so feature tests touch no file.
actor InMemoryCart: CartStorage {
  private(set) var items: [CartItem] = []

  func add(_ item: CartItem) -> Int {
    items.append(item)
    return items.count
  }
}
