#if canImport(Darwin)
  private import Darwin
#elseif canImport(Glibc)
  private import Glibc
#elseif canImport(Musl)
  private import Musl
#elseif canImport(Android)
  private import Android
#endif

/// A value guarded by an operating-system mutex, both in one allocation.
///
/// `Synchronization.Mutex` needs iOS 18 and macOS 15; the package supports iOS 17 and macOS 14,
/// so this small wrapper stands in for it.
///
/// - Invariant: `value` is read and written only inside ``withLock(_:)``, which holds the mutex
///   for the whole closure; that is what makes the `@unchecked Sendable` conformance sound.
///   `LockTests` hammer it from many tasks under the thread sanitizer.
@usableFromInline
package struct Lock<Value>: @unchecked Sendable {
  /// The value and the mutex, in one allocation: the mutex sits in the buffer's tail, at an
  /// address that never moves, as an operating-system mutex requires.
  @usableFromInline let storage: LockStorage<Value>

  /// Creates a lock that guards `value`.
  ///
  /// Inlinable, so that the storage is allocated by code specialized for the guarded type:
  /// made generically, every lock would look up the generic metadata of its storage.
  @inlinable
  package init(_ value: Value) {
    storage = unsafeDowncast(
      LockStorage<Value>.create(minimumCapacity: lockMutexWords) { _ in value },
      to: LockStorage<Value>.self)
    storage.initializeMutex()
  }

  /// Runs `body` with exclusive access to the guarded value.
  ///
  /// Inlinable, so that `body` runs inlined in code specialized for the guarded type; the mutex
  /// is taken and released by two small functions of this module.
  @inlinable
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    storage.lockMutex()
    defer { storage.unlockMutex() }
    return try storage.withUnsafeMutablePointerToHeader { try body(&$0.pointee) }
  }
}

#if canImport(Darwin)
  private typealias PlatformMutex = os_unfair_lock
#else
  private typealias PlatformMutex = pthread_mutex_t
#endif

/// The words of a lock's storage that hold its mutex.
///
/// The mutex is stored as words: its type comes from a module imported privately, which code
/// inlined into other modules cannot name.
@usableFromInline let lockMutexWords =
  (MemoryLayout<PlatformMutex>.size + MemoryLayout<UInt64>.size - 1) / MemoryLayout<UInt64>.size

/// A lock's storage: the guarded value as the header, the mutex in the words of the tail.
@usableFromInline
final class LockStorage<Value>: ManagedBuffer<Value, UInt64> {
  /// Initializes the mutex of a new storage.
  @usableFromInline
  func initializeMutex() {
    withUnsafeMutablePointerToElements { words in
      let mutex = UnsafeMutableRawPointer(words).bindMemory(to: PlatformMutex.self, capacity: 1)
      #if canImport(Darwin)
        mutex.initialize(to: os_unfair_lock())
      #else
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
      #endif
    }
  }

  /// Takes the mutex, waiting for it.
  @usableFromInline
  func lockMutex() {
    withUnsafeMutablePointerToElements { words in
      let mutex = UnsafeMutableRawPointer(words).assumingMemoryBound(to: PlatformMutex.self)
      #if canImport(Darwin)
        os_unfair_lock_lock(mutex)
      #else
        pthread_mutex_lock(mutex)
      #endif
    }
  }

  /// Releases the mutex.
  @usableFromInline
  func unlockMutex() {
    withUnsafeMutablePointerToElements { words in
      let mutex = UnsafeMutableRawPointer(words).assumingMemoryBound(to: PlatformMutex.self)
      #if canImport(Darwin)
        os_unfair_lock_unlock(mutex)
      #else
        pthread_mutex_unlock(mutex)
      #endif
    }
  }

  deinit {
    withUnsafeMutablePointerToElements { words in
      let mutex = UnsafeMutableRawPointer(words).assumingMemoryBound(to: PlatformMutex.self)
      #if !canImport(Darwin)
        pthread_mutex_destroy(mutex)
      #endif
      _ = mutex.deinitialize(count: 1)
    }
  }
}
