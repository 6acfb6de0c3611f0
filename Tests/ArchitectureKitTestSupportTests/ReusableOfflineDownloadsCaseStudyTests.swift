import ArchitectureKit
import ArchitectureKitTestSupport
import FunctionalCore
import TestDoubles
import Testing

/// TCA's Reusable Offline Downloads case study: a list of city maps, each with a download
/// button that shows the download's progress.
///
/// A tap starts the download; a tap while it runs asks whether to stop it, and a tap on a
/// downloaded map asks whether to delete it. The download client reports progress, then the
/// data, on a stream.
///
/// Each map is a child of a `forEach` with its alert (`dialog`). Its download is a request
/// while the map is starting to download or downloading, so stopping it, finishing it, or
/// deleting the row cancels the stream, and nothing else does: progress changes the state but
/// not the request, and the download goes on.
@MainActor
@Suite(.timeLimit(.minutes(3)))
struct ReusableOfflineDownloadsCaseStudyTests {
  enum Mode: Equatable, Sendable {
    case notDownloaded
    case startingToDownload
    case downloading(progress: Double)
    case downloaded

    var isDownloading: Bool {
      switch self {
      case .startingToDownload, .downloading: true
      case .notDownloaded, .downloaded: false
      }
    }
  }

  enum AlertAction: Equatable, Sendable {
    case delete, stop
  }

  struct CityMap: Identifiable, Equatable, Sendable {
    let id: Int
    var mode = Mode.notDownloaded
    @Presented var alert: DialogState<AlertAction>?

    var url: String { "https://maps.example/\(id)" }
  }

  enum MapEvent: Equatable, Sendable {
    case buttonTapped
    case alert(AlertAction?)
    case progress(Double)
    case downloaded
    case failed
  }

  /// What the download client reports.
  enum DownloadEvent: Equatable, Sendable {
    case progress(Double)
    case response
  }

  /// The stream of a download's events, and what feeds it.
  typealias Download = AsyncThrowingStream<DownloadEvent, any Error>
  typealias DownloadInput = Download.Continuation

  /// The download client: the stream of a download's events.
  typealias Downloader = @Sendable (_ url: String) -> Download

  nonisolated static let stopAlert = DialogState<AlertAction>.alert(
    title: "Stop downloading this map?",
    buttons: [.destructive("Stop", action: .stop), .cancel("Keep downloading")])

  nonisolated static let deleteAlert = DialogState<AlertAction>.alert(
    title: "Delete this map from the device?",
    buttons: [.destructive("Delete", action: .delete), .cancel("Keep it")])

  nonisolated static var cityMap: Feature<CityMap, MapEvent, Never, Downloader> {
    Feature(
      reduce: { map, event in
        switch event {
        case .buttonTapped:
          switch map.mode {
          case .notDownloaded: map.mode = .startingToDownload
          case .startingToDownload, .downloading: map.alert = Self.stopAlert
          case .downloaded: map.alert = Self.deleteAlert
          }
        case .alert(.stop?), .alert(.delete?): map.mode = .notDownloaded
        case .alert(nil): break
        case .progress(let progress): map.mode = .downloading(progress: progress)
        case .downloaded:
          map.mode = .downloaded
          map.alert = nil
        case .failed:
          map.mode = .notDownloaded
          map.alert = nil
        }
      },
      feedback: [
        .react(
          request: { $0.mode.isDownloading ? $0.url : nil },
          effect: .stream { url, download, send in
            do {
              for try await event in download(url) {
                switch event {
                case .progress(let progress): await send(.progress(progress))
                case .response: await send(.downloaded)
                }
              }
            } catch {
              await send(.failed)
            }
          })
      ]
    )
    .dialog(\.$alert, event: MapEvent.alert)
  }

  // MARK: - One map, as TCA's tests drive the download component

  typealias MapSystem = TestSystem<CityMap, MapEvent, Never, Downloader>

  nonisolated static let url = "https://maps.example/1"

  /// A system of one map, and the stream its download reads, which the test feeds.
  func makeMap(_ mode: Mode = .notDownloaded) -> (
    MapSystem, DownloadInput
  ) {
    let (stream, input) = AsyncThrowingStream.makeStream(of: DownloadEvent.self)
    let system = TestSystem(
      initialState: CityMap(id: 1, mode: mode), context: { _ in stream },
      feature: Self.cityMap, effects: .automatic)
    return (system, input)
  }

  /// Taps the button of a map that is not downloaded: its download starts.
  func startDownload(_ system: MapSystem) {
    system.send(.buttonTapped) { $0.mode = .startingToDownload }
    system.expectStarted(Self.url)
  }

  /// Taps the button of a map that downloads, then the alert's Stop: the download is cancelled.
  func stopDownload(_ system: MapSystem) {
    system.send(.buttonTapped) { $0.alert = Self.stopAlert }
    system.send(.alert(.stop)) {
      $0.alert = nil
      $0.mode = .notDownloaded
    }
    system.expectCancelled(Self.url)
  }

  /// The client sends the data: the map is downloaded, and wants no download, so the stream's
  /// reader is cancelled.
  func receiveData(
    _ system: MapSystem, from download: DownloadInput
  ) async {
    download.yield(.response)
    await system.receive(.downloaded) {
      $0.alert = nil
      $0.mode = .downloaded
    }
    system.expectCancelled(Self.url)
  }

  @Test func aDownloadShowsItsProgressAndEndsDownloaded() async {
    let (system, download) = makeMap()
    startDownload(system)
    download.yield(.progress(0.2))
    await system.receive(.progress(0.2)) { $0.mode = .downloading(progress: 0.2) }
    await receiveData(system, from: download)
    await system.finish()
  }

  @Test func stoppingADownloadThroughItsAlertCancelsIt() async {
    let (system, download) = makeMap()
    startDownload(system)
    stopDownload(system)
    // Whatever the stream reports now comes too late.
    download.yield(.progress(0.5))
    await system.finish()
  }

  @Test func keepingADownloadThroughItsAlertLetsItFinish() async {
    let (system, download) = makeMap()
    startDownload(system)
    system.send(.buttonTapped) { $0.alert = Self.stopAlert }
    system.send(.alert(nil)) { $0.alert = nil }
    download.yield(.progress(0.5))
    await system.receive(.progress(0.5)) { $0.mode = .downloading(progress: 0.5) }
    await receiveData(system, from: download)
    await system.finish()
  }

  @Test func aDownloadThatFinishesWhileTheStopAlertShowsDismissesIt() async {
    let (system, download) = makeMap()
    startDownload(system)
    system.send(.buttonTapped) { $0.alert = Self.stopAlert }
    await receiveData(system, from: download)
    await system.finish()
  }

  @Test func aFailedDownloadCanBeStartedAgain() async {
    let (system, download) = makeMap()
    startDownload(system)
    download.finish(throwing: CancellationError())
    await system.receive(.failed) { $0.mode = .notDownloaded }
    // The failure's step leaves no download to want: the reader, still sending, is cancelled.
    system.expectCancelled(Self.url)
    startDownload(system)
    stopDownload(system)
    await system.finish()
  }

  @Test func deletingADownloadedMapThroughItsAlertForgetsIt() async {
    let (system, _) = makeMap(.downloaded)
    system.send(.buttonTapped) { $0.alert = Self.deleteAlert }
    system.send(.alert(.delete)) {
      $0.alert = nil
      $0.mode = .notDownloaded
    }
    await system.finish()
  }

  // MARK: - The list, in the app

  struct Maps: Equatable {
    var maps: [CityMap]
  }

  enum Event: Equatable, Sendable {
    case map(Int, MapEvent)
    case delete(Int)
  }

  nonisolated static var maps: Feature<Maps, Event, Never, Downloader> {
    Feature(reduce: { state, event in
      if case .delete(let id) = event { state.maps.removeAll { $0.id == id } }
    })
    .forEach(Self.cityMap, elements: \.maps, event: Event.map, context: { $0 })
  }

  /// The download server: each download's stream, which the test feeds, and the downloads
  /// whose reader went away before the stream ended.
  final class Server: Sendable {
    private let streams = Lock([String: DownloadInput]())
    /// The downloads asked for, in order.
    let asked = Recorder<String>()
    /// The downloads whose reader was cancelled.
    let cancelled = Recorder<String>()

    /// Opens a download's stream.
    func download(_ url: String) -> Download {
      let (stream, input) = AsyncThrowingStream.makeStream(of: DownloadEvent.self)
      input.onTermination = { [cancelled] termination in
        if case .cancelled = termination { cancelled.record(url) }
      }
      streams.withLock { $0[url] = input }
      asked.record(url)
      return stream
    }

    /// Reports an event on a download's stream.
    func send(_ event: DownloadEvent, to url: String) {
      _ = streams.withLock { $0[url] }?.yield(event)
    }
  }

  @Test func eachMapDownloadsOnItsOwnAndLeavesWithItsDownload() async {
    let server = Server()
    let system = System(
      initialState: Maps(maps: (0..<3).map { CityMap(id: $0) }),
      context: { url in server.download(url) }, feature: Self.maps)
    for id in 0..<3 { system.send(.map(id, .buttonTapped)) }
    await server.asked.wait(count: 3)
    #expect(server.asked.values == (0..<3).map { "https://maps.example/\($0)" })

    // Map 1 is stopped through its alert: its download alone is cancelled.
    system.send(.map(1, .buttonTapped))
    #expect(system.state.maps[1].alert == Self.stopAlert)
    system.send(.map(1, .alert(.stop)))
    await server.cancelled.wait()
    #expect(server.cancelled.values == ["https://maps.example/1"])

    // Map 2's row is deleted while it downloads: its download leaves with it.
    system.send(.delete(2))
    await server.cancelled.wait(count: 2)
    #expect(server.cancelled.values == ["https://maps.example/1", "https://maps.example/2"])

    // Map 0 goes on, and its progress and data reach its row.
    #expect(system.runningRequests.map(\.description) == ["maps[0]: https://maps.example/0"])
    server.send(.progress(0.5), to: "https://maps.example/0")
    server.send(.response, to: "https://maps.example/0")
    await server.cancelled.wait(count: 3)
    #expect(system.state.maps.map(\.mode) == [.downloaded, .notDownloaded])
    #expect(system.runningRequests.isEmpty)
  }
}
