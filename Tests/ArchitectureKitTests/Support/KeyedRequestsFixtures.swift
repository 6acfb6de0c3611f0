import ArchitectureKit
import FunctionalCore
import TestDoubles

/// What both forms hold: a dictionary, or a `KeyedRequests`.
protocol KeyedStore<Key>: Equatable, Sendable {
  associatedtype Key: TestKey
  init(_ dictionary: [Key: Int])
  subscript(key: Key) -> Int? { get set }
  subscript(key: Key, default defaultValue: @autoclosure () -> Int) -> Int { get set }
  mutating func removeAll()
}

extension Dictionary: KeyedStore where Key: TestKey, Value == Int {
  init(_ dictionary: [Key: Int]) {
    self = dictionary
  }

  mutating func removeAll() {
    removeAll(keepingCapacity: false)
  }
}

extension KeyedRequests: KeyedStore where Key: TestKey, Request == Int {}

/// A state with requests by key, and copies of them the edits can put back.
struct Held<Store: KeyedStore>: Sendable {
  var requests: Store
  var snapshots: [Store] = []

  mutating func apply(_ edit: Edit<Store.Key>) {
    switch edit {
    case .set(let key, let request): requests[key] = request
    case .add(let key, let amount): requests[key, default: 0] += amount
    case .removeAll: requests.removeAll()
    case .remove(let keys): for key in keys { requests[key] = nil }
    case .setEach(let changes): for (key, request) in changes { requests[key] = request }
    case .replace(let dictionary): requests = Store(dictionary)
    case .snapshot: snapshots.append(requests)
    case .restore(let index):
      if !snapshots.isEmpty { requests = snapshots[index % snapshots.count] }
    case .editSnapshot(let index, let key, let request):
      if !snapshots.isEmpty { snapshots[index % snapshots.count][key] = request }
    case .burst(let seed):
      // More changes than the journal keeps for a small collection: it is compacted.
      var random = SplitMix64(seed: seed)
      for _ in 0..<100 {
        let key = Store.Key(index: Int.random(in: 0..<8, using: &random))
        requests[key] = random.chance(20) ? nil : Int.random(in: 0..<3, using: &random)
      }
    }
  }
}

/// The keys of the tests: the `index`th key, so a burst can pick keys of either type.
protocol TestKey: Hashable, Sendable {
  init(index: Int)
}

extension Int: TestKey {
  init(index: Int) {
    self = index
  }
}

extension String: TestKey {
  init(index: Int) {
    self = "k\(index)"
  }
}

/// An edit of a ``Held`` state.
enum Edit<Key: TestKey>: Sendable {
  case set(Key, Int?)
  case add(Key, Int)
  case removeAll
  /// Removes the keys' requests in one step, in this order.
  case remove([Key])
  /// Sets the keys' requests in one step, in this order.
  case setEach([(Key, Int?)])
  case replace([Key: Int])
  case snapshot
  case restore(Int)
  case editSnapshot(Int, Key, Int?)
  case burst(UInt64)
}

extension Edit<Int> {
  /// A random edit of keys 0 to 7 and requests 0 to 2, so equal requests are common.
  static func random(using random: inout SplitMix64) -> Edit<Int> {
    let key = Int.random(in: 0..<8, using: &random)
    let request = random.chance(20) ? nil : Int.random(in: 0..<3, using: &random)
    return switch Int.random(in: 0..<100, using: &random) {
    case 0..<40: .set(key, request)
    case 40..<50: .add(key, Int.random(in: 0...1, using: &random))
    case 50..<53: .removeAll
    case 53..<58:
      .replace(
        Dictionary(
          uniqueKeysWithValues: (0..<Int.random(in: 0...6, using: &random)).map {
            ($0, Int.random(in: 0..<3, using: &random))
          }))
    case 58..<70: .snapshot
    case 70..<80: .restore(Int.random(in: 0..<8, using: &random))
    case 80..<92: .editSnapshot(Int.random(in: 0..<8, using: &random), key, request)
    default: .burst(random.next())
    }
  }
}

/// Counts the comparisons of every ``CountedRequest`` that shares it.
final class ComparisonCounter: Sendable {
  private let count = Lock(0)

  func increment() {
    count.withLock { $0 += 1 }
  }

  /// Returns the count so far and starts again from zero.
  @discardableResult
  func reset() -> Int {
    count.withLock { count in
      defer { count = 0 }
      return count
    }
  }
}

/// A request that counts how often it is compared.
struct CountedRequest: Equatable, Sendable {
  var value: Int
  let counter: ComparisonCounter

  static func == (lhs: CountedRequest, rhs: CountedRequest) -> Bool {
    lhs.counter.increment()
    return lhs.value == rhs.value
  }
}
