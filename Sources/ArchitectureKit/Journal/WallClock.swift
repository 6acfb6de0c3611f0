#if canImport(Darwin)
  private import Darwin
#elseif canImport(Glibc)
  private import Glibc
#elseif canImport(Musl)
  private import Musl
#endif

/// The monotonic clock a recording times its records on, in nanoseconds since an arbitrary
/// moment (the machine's start), which never go back.
///
/// Read with `clock_gettime` rather than through `ContinuousClock`, whose instants are
/// resilient: holding, copying and subtracting them went through their value witnesses, and
/// with `Duration`'s 128-bit arithmetic timing a recorded step cost about 250 instructions of
/// its 1,385 (see PerformanceLedger: the journal's ring).
@usableFromInline
enum MonotonicClock {
  /// This moment, in nanoseconds.
  @usableFromInline
  static func now() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }
}

/// The wall-clock time, as ISO 8601 text in UTC (`2026-11-25T20:40:00Z`), for a journal's
/// header; everything a journal times is on the monotonic clock.
enum WallClock {
  /// This moment, to the second.
  static func now() -> String {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return iso8601(secondsSince1970: Int64(time.tv_sec))
  }

  /// A moment as ISO 8601 text in UTC.
  ///
  /// The days since 1970 become a civil date by Howard Hinnant's `civil_from_days`.
  static func iso8601(secondsSince1970 seconds: Int64) -> String {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3_600)):"
      + "\(two(secondOfDay % 3_600 / 60)):\(two(secondOfDay % 60))Z"
  }
}
