/// What a camera wall shows and plays, as a value that commands change: which tile is
/// chosen (its sound is the one heard), whether one tile fills the window, and for each
/// camera which stream its tile shows and which one is starting to replace it.
///
/// A chosen tile that fills the window plays its camera's main stream; the grid plays the
/// sub-streams. A switch never shows black: the stream playing stays on screen until the
/// other's first picture (``firstPicture(camera:stream:)``), and only then is it stopped.
/// The wall carries out the ``Effect``s (opening and stopping players, turning sound on and
/// off); nothing here waits or plays, so every transition is tested without a player.
public struct WallState: Sendable, Equatable {
    /// Which of a camera's streams.
    public enum Stream: Sendable, Hashable {
        /// The low-resolution stream for the grid.
        case sub
        /// The full-resolution stream.
        case main
    }

    /// What the viewer asks for.
    public enum Command: Sendable, Equatable {
        /// Choose a tile (keys 1–9, a click): its sound is heard; in a tile that fills the
        /// window, that camera fills it instead.
        case choose(Int)
        /// The chosen tile fills the window (Enter).
        case zoom
        /// Tile `index` is chosen and fills the window (a double click).
        case zoomTile(Int)
        /// Back to the grid (Esc).
        case back
    }

    /// What the wall must do for a transition.
    public enum Effect: Sendable, Equatable {
        /// Start playing `stream` of `camera`, silent, not shown until its first picture.
        case open(camera: Int, stream: Stream)
        /// Stop playing `stream` of `camera`.
        case stop(camera: Int, stream: Stream)
        /// Make `stream` of `camera` heard, or silent.
        case sound(camera: Int, stream: Stream, on: Bool)
    }

    /// Whether each camera has a sub-stream of its own.
    public let hasSubStream: [Bool]
    /// The tile whose sound is heard; nil until one is chosen.
    public private(set) var chosen: Int?
    /// The tile that fills the window; nil for the grid.
    public private(set) var zoomed: Int?
    /// For each camera, the stream its tile shows.
    public private(set) var shown: [Stream]
    /// For each camera, the stream started to replace the one shown, until its first picture.
    public private(set) var starting: [Stream?]

    /// A wall of cameras, `hasSubStream` for each; each tile shows its sub-stream when it
    /// has one.
    public init(hasSubStream: [Bool]) {
        self.hasSubStream = hasSubStream
        shown = hasSubStream.map { $0 ? .sub : .main }
        starting = hasSubStream.map { _ in nil }
    }

    /// Cameras on the wall.
    public var cameras: Int { hasSubStream.count }

    /// What starts the wall: each camera's grid stream.
    public func start() -> [Effect] {
        shown.enumerated().map { .open(camera: $0.offset, stream: $0.element) }
    }

    /// The tiles to draw, in order: every camera, or the one that fills the window.
    public var visible: [Int] { zoomed.map { [$0] } ?? Array(0..<cameras) }

    /// Applies `command`; returns what the wall must do, in order. A command that does not
    /// apply (a tile that does not exist, Enter with nothing chosen) changes nothing.
    public mutating func apply(_ command: Command) -> [Effect] {
        switch command {
        case .choose(let index):
            guard (0..<cameras).contains(index), index != chosen else { return [] }
            if let zoomed, zoomed != index { return leave(zoomed) + select(index) + enter(index) }
            return select(index)
        case .zoom:
            guard let chosen, zoomed == nil else { return [] }
            return enter(chosen)
        case .zoomTile(let index):
            guard (0..<cameras).contains(index), zoomed != index else { return [] }
            var effects: [Effect] = []
            if let zoomed { effects = leave(zoomed) }
            return effects + select(index) + enter(index)
        case .back:
            guard let zoomed else { return [] }
            return leave(zoomed)
        }
    }

    /// Stream `stream` of `camera` showed its first picture: the switch it was started for
    /// completes (the stream shown before stops; the sound follows when chosen).
    public mutating func firstPicture(camera: Int, stream: Stream) -> [Effect] {
        guard (0..<cameras).contains(camera), starting[camera] == stream else { return [] }
        let before = shown[camera]
        shown[camera] = stream
        starting[camera] = nil
        var effects: [Effect] = []
        if chosen == camera { effects += [.sound(camera: camera, stream: before, on: false), .sound(camera: camera, stream: stream, on: true)] }
        return effects + [.stop(camera: camera, stream: before)]
    }

    /// The chosen tile moves to `index`; sound goes with it.
    private mutating func select(_ index: Int) -> [Effect] {
        guard chosen != index else { return [] }
        var effects: [Effect] = []
        if let chosen { effects.append(.sound(camera: chosen, stream: shown[chosen], on: false)) }
        chosen = index
        effects.append(.sound(camera: index, stream: shown[index], on: true))
        return effects
    }

    /// Tile `index` fills the window, switching to its main stream.
    private mutating func enter(_ index: Int) -> [Effect] {
        zoomed = index
        return switchStream(of: index, to: .main)
    }

    /// Back to the grid from tile `index`, switching it back to its sub-stream.
    private mutating func leave(_ index: Int) -> [Effect] {
        zoomed = nil
        return switchStream(of: index, to: .sub)
    }

    /// Starts `camera`'s `stream`, or cancels a start of the other that has shown nothing yet.
    private mutating func switchStream(of camera: Int, to stream: Stream) -> [Effect] {
        guard hasSubStream[camera] else { return [] }
        if let pending = starting[camera] {
            // Asked back before the other stream showed anything: it stops, unseen.
            guard pending != stream else { return [] }
            starting[camera] = nil
            return [.stop(camera: camera, stream: pending)]
        }
        guard shown[camera] != stream else { return [] }
        starting[camera] = stream
        return [.open(camera: camera, stream: stream)]
    }
}
