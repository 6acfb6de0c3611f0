#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// How much of a stress test's full load to run.
///
/// `swift test` runs the full load. `ARCHITECTUREKIT_STRESS_DIVISOR` divides it: the sanitizer
/// steps of `Scripts/check.sh` set it to 10, because instrumented code runs ten to thirty times
/// slower, and the main-actor bursts would hold the main actor long enough to push other
/// suites past their time limits. A tenth of the load still drives every interleaving the
/// sanitizers look for.
enum StressLoad {
  static let divisor: Int = {
    guard let value = getenv("ARCHITECTUREKIT_STRESS_DIVISOR") else { return 1 }
    return max(1, Int(String(cString: value)) ?? 1)
  }()

  /// `full`, divided by ``divisor`` (at least 1).
  static func scaled(_ full: Int) -> Int {
    max(1, full / divisor)
  }
}
