import Foundation
import ReelCore
import Testing

@Suite struct WindowKeysTests {
    /// The README's table is the one the window draws and `reel play --help` prints.
    @Test func theReadmeShowsTheTableTheWindowUses() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        #expect(text.contains(WindowKeys.markdownTable + "\n"), "the README's key table differs from WindowKeys.markdownTable:\n\(WindowKeys.markdownTable)")
    }

    @Test func eachKeyDoesOneThing() {
        let keys = WindowKeys.bindings.flatMap { $0.actions.map(\.key) }
        #expect(Set(keys).count == keys.count)
    }

    @Test func keysMapToWhatTheyDo() {
        #expect(WindowKeys.action(for: .space) == .command(.togglePause))
        #expect(WindowKeys.action(for: .left) == .command(.seekBy(-5)))
        #expect(WindowKeys.action(for: .character(",")) == .command(.stepFrame(forward: false)))
        #expect(WindowKeys.action(for: .character("<")) == .command(.movePlaylist(by: -1)))
        #expect(WindowKeys.action(for: .enter) == .command(.movePlaylist(by: 1)))
        #expect(WindowKeys.action(for: .character("g")) == .cycleGravity)
        #expect(WindowKeys.action(for: .character("?")) == .toggleKeyList)
        #expect(WindowKeys.action(for: .character("3")) == nil)
    }
}
