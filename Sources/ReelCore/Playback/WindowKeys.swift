/// A key of the player's window, as a user types it (the window's adapter maps its own
/// key codes, and the layout's shifted characters, to these).
public enum WindowKey: Hashable, Sendable {
    /// A key that types this character (`m`, `#`, `<`, `?`, `.`…).
    case character(Character)
    /// The space bar.
    case space
    /// The left arrow.
    case left
    /// The right arrow.
    case right
    /// The up arrow.
    case up
    /// The down arrow.
    case down
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Return, or the keypad's Enter.
    case enter
    /// Escape.
    case escape
    /// End.
    case end
}

/// What a key of the window does: a command for the player, or something the window
/// does itself.
public enum KeyAction: Sendable, Equatable {
    /// A command for the player, as the window's ``VideoOutput/idle(status:)`` returns it.
    case command(UserCommand)
    /// Fit, fill, stretch.
    case cycleGravity
    /// Into and out of the small always-on-top window.
    case togglePictureInPicture
    /// The list of keys over the picture.
    case toggleKeyList
}

/// One line of the list of keys: the keys as shown, what they do, and the action of each.
public struct KeyBinding: Sendable {
    /// The keys as the list shows them (`← →`).
    public let label: String
    /// What they do, in a few words.
    public let help: String
    /// Each key and its action.
    public let actions: [(key: WindowKey, action: KeyAction)]
}

/// The player window's keys, in one table: the window acts on it, draws it when `?` is
/// pressed, `reel play --help` prints it and the README shows it (a test keeps them equal).
public enum WindowKeys {
    /// The lines of the list, in the order it shows them.
    public static let bindings: [KeyBinding] = [
        KeyBinding(label: "space", help: "pause, play", actions: [(.space, .command(.togglePause))]),
        KeyBinding(label: "← →", help: "seek 5 s back, on", actions: [(.left, .command(.seekBy(-5))), (.right, .command(.seekBy(5)))]),
        KeyBinding(label: "↑ ↓", help: "volume", actions: [(.up, .command(.changeVolume(by: 0.1))), (.down, .command(.changeVolume(by: -0.1)))]),
        KeyBinding(label: "m", help: "mute", actions: [(.character("m"), .command(.toggleMute))]),
        KeyBinding(label: "[ ]", help: "speed −/+ 0.1 (pitch kept)",
                   actions: [(.character("["), .command(.changeRate(by: -0.1))), (.character("]"), .command(.changeRate(by: 0.1)))]),
        KeyBinding(label: "f", help: "fullscreen", actions: [(.character("f"), .command(.toggleFullscreen))]),
        KeyBinding(label: "g", help: "gravity: fit, fill, stretch", actions: [(.character("g"), .cycleGravity)]),
        KeyBinding(label: "PgUp PgDn", help: "previous, next chapter",
                   actions: [(.pageUp, .command(.changeChapter(by: -1))), (.pageDown, .command(.changeChapter(by: 1)))]),
        KeyBinding(label: ". ,", help: "one frame on, back (stays paused)",
                   actions: [(.character("."), .command(.stepFrame(forward: true))), (.character(","), .command(.stepFrame(forward: false)))]),
        KeyBinding(label: "s", help: "screenshot: reel-shotNNNN.png, the first free number", actions: [(.character("s"), .command(.screenshot))]),
        KeyBinding(label: "l", help: "A-B loop: set A, set B, clear", actions: [(.character("l"), .command(.toggleABLoop))]),
        KeyBinding(label: "#", help: "next audio track (in place, no gap)", actions: [(.character("#"), .command(.cycleAudioTrack))]),
        KeyBinding(label: "j", help: "next subtitle track, then none", actions: [(.character("j"), .command(.cycleSubtitleTrack))]),
        KeyBinding(label: "v", help: "subtitles off, on", actions: [(.character("v"), .command(.toggleSubtitles))]),
        KeyBinding(label: "z x", help: "subtitle delay −/+ 0.1 s",
                   actions: [(.character("z"), .command(.changeSubtitleDelay(by: -0.1))), (.character("x"), .command(.changeSubtitleDelay(by: 0.1)))]),
        KeyBinding(label: "< > Enter", help: "previous, next playlist item (Enter: next)",
                   actions: [(.character("<"), .command(.movePlaylist(by: -1))), (.character(">"), .command(.movePlaylist(by: 1))),
                             (.enter, .command(.movePlaylist(by: 1)))]),
        KeyBinding(label: "p", help: "picture-in-picture (a double click on it returns)", actions: [(.character("p"), .togglePictureInPicture)]),
        KeyBinding(label: "?", help: "these keys, over the picture", actions: [(.character("?"), .toggleKeyList)]),
        KeyBinding(label: "t", help: "talk to the camera, stop (with --talk)", actions: [(.character("t"), .command(.toggleTalk))]),
        KeyBinding(label: "End", help: "live again: the newest media (after a pause or a seek back)", actions: [(.end, .command(.goLive))]),
        KeyBinding(label: "q Esc", help: "quit", actions: [(.character("q"), .command(.quit)), (.escape, .command(.quit))]),
        KeyBinding(label: "Q", help: "quit, saving the position to resume from", actions: [(.character("Q"), .command(.quitSavingPosition))]),
    ]

    private static let actionsByKey: [WindowKey: KeyAction] = Dictionary(
        bindings.flatMap { $0.actions.map { ($0.key, $0.action) } }, uniquingKeysWith: { first, _ in first })

    /// What `key` does; nil for a key that does nothing.
    public static func action(for key: WindowKey) -> KeyAction? { actionsByKey[key] }

    /// The keys in one paragraph, for a command's help: `space pause, play; ← → seek…`.
    public static var summary: String {
        bindings.map { "\($0.label) \($0.help)" }.joined(separator: "; ")
    }

    /// The keys as a Markdown table, two bindings a row, as the README shows them.
    public static var markdownTable: String {
        var lines = ["| key | does | key | does |", "|---|---|---|---|"]
        let cells = bindings.map { "\($0.label) | \($0.help)" }
        for start in stride(from: 0, to: cells.count, by: 2) {
            let second = start + 1 < cells.count ? cells[start + 1] : " | "
            lines.append("| \(cells[start]) | \(second) |")
        }
        return lines.joined(separator: "\n")
    }
}
