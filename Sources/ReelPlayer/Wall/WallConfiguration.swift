import ReelCore

/// How a ``Wall`` shows its cameras.
public struct WallConfiguration: Sendable {
    /// The grid; nil sizes it for the cameras (``WallLayout/automatic(cameras:)``).
    public var layout: WallLayout?
    /// The wall picture's size in pixels (made even).
    public var width = 1280
    /// The wall picture's height in pixels (made even).
    public var height = 720
    /// The most wall pictures a second: a new one is made when a tile has a new picture,
    /// at most this often.
    public var framesPerSecond = 30.0
    /// Each tile's line: name, state, resolution, frame rate, live latency.
    public var showsLabels = true
    /// How each tile's player plays. Its decoder threads are set per tile (see
    /// ``decoderThreads(tiles:cores:)``) unless given here; live cameras reconnect for as
    /// long as the wall runs unless ``Player/Configuration/reconnectFor`` is set below that.
    public var player = Player.Configuration()

    /// A wall of the default size, its grid sized for the cameras.
    public init() {
        player.reconnectFor = .infinity
    }

    /// Decoder threads for each of `tiles` players sharing `cores`: one each when there are
    /// as many tiles as cores or more (frame threads would only queue behind one another
    /// and hold back a frame each), otherwise the cores shared out. A tile that fills the
    /// window gets FFmpeg's own choice (0).
    public static func decoderThreads(tiles: Int, cores: Int) -> Int {
        tiles <= 1 ? 0 : max(1, cores / tiles)
    }
}
