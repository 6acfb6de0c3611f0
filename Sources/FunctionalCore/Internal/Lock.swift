#if canImport(Darwin)
  private import Darwin
#elseif canImport(Glibc)
  private import Glibc
#elseif canImport(Musl)
  private import Musl
#elseif canImport(Android)
  private import Android
#endif

/// A value guarded by an operating-system mutex.
///
/// `Synchronization.Mutex` needs iOS 18 and macOS 15; the package supports iOS 17 and macOS 14,
/// so this small wrapper stands in for it.
///
/// - Invariant: `value` is read and written only inside ``withLock(_:)``, which holds the mutex
///   for the whole closure; that is what makes the `@unchecked Sendable` conformance sound.
///   `LockTests` hammer it from many tasks under the thread sanitizer.
package final class Lock<Value>: @unchecked Sendable {
  #if canImport(Darwin)
    private let mutex = UnsafeMutablePointer<os_unfair_lock>.allocate(capacity: 1)
  #else
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  #endif
  private var value: Value

  /// Creates a lock that guards `value`.
  package init(_ value: Value) {
    self.value = value
    #if canImport(Darwin)
      mutex.initialize(to: os_unfair_lock())
    #else
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(mutex)
    #endif
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the guarded value.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    #if canImport(Darwin)
      os_unfair_lock_lock(mutex)
      defer { os_unfair_lock_unlock(mutex) }
    #else
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
    #endif
    return try body(&value)
  }
}
