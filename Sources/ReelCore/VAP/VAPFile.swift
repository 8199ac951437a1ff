/// A VAP animation's container as Reel's own MP4 reader sees it: the `vapc`
/// configuration (when the file has one), the video track with its samples and codec
/// configuration, and whether there is an audio track.
public struct VAPFile: Sendable {
    /// The `vapc` configuration; `nil` when the file has none (layout then detected).
    public let config: VAPConfig?
    /// The `vapc` box's JSON as the file holds it.
    public let configJSON: [UInt8]?
    /// The video track: the colour and alpha pictures side by side.
    public let video: MP4Track
    /// The audio track, when the animation has sound.
    public let audio: MP4Track?
    /// The video's codec: `h264` (`avc1`/`avc3`) or `hevc` (`hvc1`/`hev1`).
    public let codec: String

    /// Reads the boxes of `source`; the `vapc` box is validated, and its video size must be
    /// the video track's.
    public init(source: some MP4ByteSource) throws {
        let boxes = try source.boxes()
        if let box = boxes.first(where: { $0.type == "vapc" }) {
            guard let json = try source.body(of: box, limit: VAPConfig.maxJSONBytes) else {
                throw VAPError.invalidJSON("the vapc box of \(box.size) bytes is larger than \(VAPConfig.maxJSONBytes) or cut short")
            }
            config = try VAPConfig.decode(json: json)
            configJSON = json
        } else {
            config = nil
            configJSON = nil
        }
        let tracks: [MP4Track]
        do {
            tracks = try MP4Reader.tracks(from: source)
        } catch let error as MP4Error {
            throw VAPError.unreadable(error.description)
        }
        guard let video = tracks.first(where: { $0.handler == "vide" }) else { throw VAPError.unsupportedVideo("no video track") }
        switch video.sampleEntryType {
        case "avc1", "avc3": codec = "h264"
        case "hvc1", "hev1": codec = "hevc"
        default: throw VAPError.unsupportedVideo("codec \(video.sampleEntryType), not H.264 or H.265")
        }
        guard let width = video.width, let height = video.height, width > 0, height > 0 else { throw VAPError.unsupportedVideo("no picture size") }
        guard !video.samples.isEmpty else { throw VAPError.unsupportedVideo("the video track has no samples") }
        if let info = config?.info, info.videoWidth != width || info.videoHeight != height {
            throw VAPError.invalidField(path: "info.videoW", reason: "\(info.videoWidth)x\(info.videoHeight) differs from the video track's \(width)x\(height)")
        }
        self.video = video
        audio = tracks.first { $0.handler == "soun" }
    }

    /// The encoded video's width in pixels.
    public var videoWidth: Int { video.width ?? 0 }
    /// The encoded video's height in pixels.
    public var videoHeight: Int { video.height ?? 0 }
    /// Frames in the video track.
    public var frameCount: Int { video.samples.count }

    /// The frame rate the samples' timing gives: frames over duration.
    public var sampleFrameRate: Double? {
        guard let first = video.samples.first?.decodeTime, let last = video.samples.last?.decodeTime, frameCount > 1, last > first else { return nil }
        // The last frame lasts as long as the average one before it.
        let duration = Double(last - first) * Double(frameCount) / Double(frameCount - 1) / Double(video.timescale)
        return Double(frameCount) / duration
    }

    /// The layout from the `vapc` box, or `fallback` when there is none.
    public func layout(fallback: VAPLayout.AlphaSide = .left) -> VAPLayout {
        config.map { VAPLayout($0.info) } ?? VAPLayout(alpha: fallback, videoWidth: videoWidth, videoHeight: videoHeight)
    }
}
