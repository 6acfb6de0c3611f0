/// Uses a value in a way the optimizer cannot see through, so the work that made it stays.
///
/// The scenarios' UI bindings and loops hand their results here, as package-benchmark's
/// `blackHole` does; this module does not depend on package-benchmark, so the profiler can run
/// the scenarios without it.
///
/// - Parameter value: The value to keep alive.
@_optimize(none)
public func consume(_ value: some Any) {}
