import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads and writes the sample's JSON files, turning every failure into a ``DataFileError``
/// that names the file and the system's reason.
enum DataFile {
  /// The contents of the file at `path`.
  static func read(_ path: String, role: String) throws(DataFileError) -> Data {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      let problem: DataFileError.Problem =
        errno == ENOENT ? .missing : .unreadable(reason: reason(errno))
      throw DataFileError(role: role, path: path, problem: problem)
    }
    defer { close(descriptor) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes {
        systemRead(descriptor, $0.baseAddress, $0.count)
      }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else {
        throw DataFileError(role: role, path: path, problem: .unreadable(reason: reason(errno)))
      }
      guard count > 0 else { return data }
      data.append(contentsOf: buffer[0..<count])
    }
  }

  /// Throws ``DataFileError/Problem/missingFolder`` when the folder of `path` does not exist
  /// and must not be created.
  static func checkFolder(
    of path: String, role: String, createsFolders: Bool
  ) throws(DataFileError) {
    guard !createsFolders, !exists(DataFileError.folder(of: path)) else { return }
    throw DataFileError(role: role, path: path, problem: .missingFolder)
  }

  /// Whether a file exists at `path` (a broken link counts as none).
  static func exists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }

  /// Replaces the file at `path` with `data` atomically.
  ///
  /// The data goes to a temporary file beside it, which then takes the file's place, so a crash
  /// leaves the old file or the new one, never half of either. Missing folders are created when
  /// `createsFolders` is `true`, and reported as ``DataFileError/Problem/missingFolder``
  /// otherwise.
  static func write(
    _ data: Data, to path: String, role: String, createsFolders: Bool = true
  ) throws(DataFileError) {
    func failure(_ reason: String) -> DataFileError {
      DataFileError(role: role, path: path, problem: .unwritable(reason: reason))
    }
    try checkFolder(of: path, role: role, createsFolders: createsFolders)
    let folder = (path as NSString).deletingLastPathComponent
    if !folder.isEmpty, !exists(folder) {
      do {
        try FileManager.default.createDirectory(
          atPath: folder,
          withIntermediateDirectories: true
        )
      } catch {
        throw failure("its folder cannot be created (\(error.localizedDescription))")
      }
    }
    let temporary = path + ".tmp-\(getpid())"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw failure(reason(errno)) }
    var written = 0
    let total = data.count
    let writeError: Int32? = data.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return nil }
      while written < total {
        let count = systemWrite(descriptor, base + written, total - written)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return errno }
        written += count
      }
      return nil
    }
    let closeFailed = close(descriptor) != 0
    if let writeError {
      unlink(temporary)
      throw failure(reason(writeError))
    }
    guard !closeFailed, rename(temporary, path) == 0 else {
      let error = errno
      unlink(temporary)
      throw failure(reason(error))
    }
  }

  /// The system's description of an error number, such as `Permission denied`.
  private static func reason(_ number: Int32) -> String {
    String(cString: strerror(number))
  }
}

/// The C library's `read`, under a name that `DataFile.read` does not shadow.
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int
{
  read(descriptor, bytes, count)
}

/// The C library's `write`, under a name that `DataFile.write` does not shadow.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
