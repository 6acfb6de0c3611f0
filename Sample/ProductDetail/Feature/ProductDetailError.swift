/// Why a request of the product detail page failed.
public enum ProductDetailError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The seed's add-to-cart failure: domain `Error adding to cart`, code 15.
  case addToCartFailed
  /// A data file could not be read or written.
  case dataFile(DataFileError)

  /// The error's domain, as the seed's `NSError` named it.
  public var domain: String {
    switch self {
    case .addToCartFailed: "Error adding to cart"
    case .dataFile: "Data file error"
    }
  }

  /// The error's code within its domain.
  public var code: Int {
    switch self {
    case .addToCartFailed: 15
    case .dataFile: 1
    }
  }

  /// A sentence for the page: the domain and code, or what is wrong with which file.
  public var description: String {
    switch self {
    case .addToCartFailed: "\(domain) (code \(code))"
    case .dataFile(let error): error.description
    }
  }
}
