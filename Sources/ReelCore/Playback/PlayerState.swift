/// Where a player is in its life.
public enum PlayerState: String, Sendable, Codable, CaseIterable {
    /// Nothing open.
    case idle
    /// Opening an input.
    case opening
    /// Open, the first frame shown, not started.
    case ready
    /// Playing.
    case playing
    /// Paused by the user.
    case paused
    /// Waiting for data (a network input fell behind); plays on when enough has come.
    case buffering
    /// A live input ended or failed: opening it again, with back-off, until it returns or
    /// the reconnect time runs out.
    case reconnecting
    /// At the end of the input; `play()` starts over.
    case ended
    /// Stopped by an error.
    case failed

    /// The moves a player may make (anything may stop back to `idle`, or open the next
    /// playlist item).
    public func canMove(to next: PlayerState) -> Bool {
        if next == .idle || next == .failed || next == .opening { return true }
        switch (self, next) {
        case (.opening, .ready): return true
        case (.ready, .playing), (.ready, .paused): return true
        case (.playing, .paused), (.playing, .buffering), (.playing, .ended): return true
        case (.paused, .playing), (.paused, .buffering), (.paused, .ended): return true
        case (.buffering, .playing), (.buffering, .paused), (.buffering, .ended): return true
        case (.ended, .playing), (.ended, .paused): return true
        case (.ready, .reconnecting), (.playing, .reconnecting), (.paused, .reconnecting), (.buffering, .reconnecting): return true
        case (.reconnecting, .ready): return true
        default: return false
        }
    }
}
