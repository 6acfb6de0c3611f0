import SampleTerminal
import Testing

/// The keys every sample shares: quit, suspend, show the keys.
struct SessionCommandTests {
  @Test(
    arguments: [
      (Key.character("q"), SessionCommand.quit),
      (.character("Q"), .quit),
      (.escape, .quit),
      (.control("c"), .quit),
      (.control("d"), .quit),
      (.control("z"), .suspend),
      (.enter, .showKeys),
    ]
  )
  func mapsTheSharedKeys(key: Key, command: SessionCommand) {
    #expect(SessionCommand(key) == command)
  }

  @Test(arguments: [Key.character("x"), .up, .tab, .control("a")])
  func leavesOtherKeysToTheApp(key: Key) {
    #expect(SessionCommand(key) == nil)
  }

  @Test func namesEscAndCtrlZInTheHelp() {
    #expect(SessionCommand.help == "q or Esc quit · Ctrl-Z suspend")
  }
}
