import Foundation

/// The line a wall's tile shows over its picture: the camera's name, what its player is
/// doing (or what went wrong), the picture's size, the pictures a second it gets, the
/// stream's bit rate and, live, how far behind the newest media it plays.
public struct WallTileLabel: Sendable, Equatable {
    /// The camera's name.
    public var name: String
    /// Its player's state, once it has one.
    public var state: PlayerState?
    /// Why it is not playing (the open's error, the reconnect's reason); shown instead of the state.
    public var problem: String?
    /// The stream's picture size, once it has shown one.
    public var size: (width: Int, height: Int)?
    /// Pictures a second over the last second.
    public var framesPerSecond: Double?
    /// Bits a second of the stream over the last second.
    public var bitRate: Double?
    /// Seconds behind the newest media received, for a live stream.
    public var latency: Double?
    /// Whether the main stream plays (a tile that fills the window) rather than the sub-stream.
    public var playsMainStream = false

    /// A label for the camera `name`, knowing nothing else yet.
    public init(name: String) {
        self.name = name
    }

    /// The line: `Front door · playing · 640×360 · 15 fps · 1.2 Mbit/s · 120 ms`.
    public var text: String {
        var parts = [name]
        if let problem { parts.append(problem) } else if let state { parts.append(state.rawValue) }
        if let size { parts.append("\(size.width)×\(size.height)\(playsMainStream ? " main" : "")") }
        if let framesPerSecond { parts.append(String(format: "%.0f fps", framesPerSecond)) }
        if let bitRate { parts.append(bitRate >= 1e6 ? String(format: "%.1f Mbit/s", bitRate / 1e6) : String(format: "%.0f kbit/s", bitRate / 1e3)) }
        if let latency { parts.append(String(format: "%.0f ms", latency * 1000)) }
        return parts.joined(separator: " · ")
    }

    /// Whether `other` holds the same facts, so reads the same: far cheaper than comparing
    /// ``text`` (a wall asks for each tile's line with every picture it makes).
    public func holdsTheSame(as other: WallTileLabel) -> Bool {
        name == other.name && state == other.state && problem == other.problem
            && size?.width == other.size?.width && size?.height == other.size?.height
            && framesPerSecond == other.framesPerSecond && bitRate == other.bitRate && latency == other.latency
            && playsMainStream == other.playsMainStream
    }

    /// Labels are equal when they read the same.
    public static func == (a: WallTileLabel, b: WallTileLabel) -> Bool { a.text == b.text }
}
