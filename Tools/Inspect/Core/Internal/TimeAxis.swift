internal import Foundation

/// The page's time axis: where a time falls along it, and its ticks at round times.
struct TimeAxis {
  /// The first time on the axis, in seconds since the journal started.
  let start: Double
  /// The axis's length in seconds; positive, even for a journal that spans no time.
  let length: Double

  /// An axis along `span`.
  init(span: ClosedRange<Double>) {
    start = span.lowerBound
    let length = span.upperBound - span.lowerBound
    self.length = length > 0 ? length : 1
  }

  /// Where `time` falls, as a CSS percentage of the axis's width: `37.931%`.
  func position(of time: Double) -> String {
    percent((time - start) / length)
  }

  /// The width from `from` to `to`, as a CSS percentage of the axis's width.
  func width(from: Double, to: Double) -> String {
    percent((to - from) / length)
  }

  /// Ticks at round times (1, 2 or 5 times a power of ten apart), about six along the axis,
  /// each with its position and label.
  var ticks: [(position: String, label: String)] {
    let rough = length / 6
    let magnitude = pow(10, floor(log10(rough)))
    let interval = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
    let decimals = max(0, -Int(floor(log10(interval))))
    let first = Int(ceil(start / interval - 1e-9))
    let last = Int(floor((start + length) / interval + 1e-9))
    guard first <= last else { return [] }
    return (first...last).map { index in
      let time = Double(index) * interval
      return (position(of: time), Format.fixed(time, decimals: decimals) + " s")
    }
  }

  private func percent(_ fraction: Double) -> String {
    Format.fixed(min(max(fraction, 0), 1) * 100, decimals: 3) + "%"
  }
}
