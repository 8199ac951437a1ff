/// What a wall's window reports to the wall.
public enum WallInput: Sendable, Equatable {
    /// A key that means a wall command (1–9, Enter, Esc).
    case command(WallState.Command)
    /// A click at (`x`, `y`) of a window `windowWidth` × `windowHeight`; `count` 2 for a
    /// double click.
    case click(x: Int, y: Int, count: Int, windowWidth: Int, windowHeight: Int)
    /// Close the wall (q, the window's close button).
    case quit
}

/// The keys of a wall's window.
public enum WallKeys {
    /// What `key` asks of the wall: 1–9 choose that tile (heard; in a tile filling the
    /// window, that camera fills it instead), Enter fills the window with the chosen tile,
    /// Esc goes back to the grid, q closes; nil for other keys (the window may use `f`
    /// for fullscreen itself).
    public static func input(for key: WindowKey) -> WallInput? {
        switch key {
        case .character(let character):
            if let digit = character.wholeNumberValue, (1...9).contains(digit), character.isASCII { return .command(.choose(digit - 1)) }
            return character == "q" ? .quit : nil
        case .enter: return .command(.zoom)
        case .escape: return .command(.back)
        default: return nil
        }
    }

    /// The keys, for `reel wall --help` and the README.
    public static let help = """
        1–9          choose a tile: its sound is heard (in a tile filling the window, that camera fills it)
        Enter        the chosen tile fills the window, playing its main stream
        Esc          back to the grid (the sub-stream again)
        click        choose the tile; double click: fill the window with it, or go back
        f            fullscreen
        q            close
        """
}
