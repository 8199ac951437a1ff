import ReelCore

/// What a ``Wall`` tells on its ``Wall/events`` stream.
public enum WallEvent: Sendable {
    /// An event of the player of `stream` of `camera`.
    case player(camera: Int, stream: WallState.Stream, PlayerEvent)
    /// `stream` of `camera` could not be opened (it is tried again unless it refused the
    /// credentials).
    case openFailed(camera: Int, stream: WallState.Stream, PlayerError)
    /// `stream` of `camera` showed its first picture.
    case firstPicture(camera: Int, stream: WallState.Stream)
    /// The chosen tile (heard) or the one filling the window changed.
    case selection(chosen: Int?, zoomed: Int?)
    /// The viewer closed the wall's window (q, the close button).
    case quitAsked
}
