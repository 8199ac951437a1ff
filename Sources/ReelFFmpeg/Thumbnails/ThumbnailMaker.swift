import Foundation
import ReelCore

/// A small picture of a moment of a video, for a seek-bar preview or a sprite sheet.
public struct Thumbnail: Sendable {
    /// The time of the picture shown, seconds from the video's start: the keyframe at or
    /// before the time asked for.
    public var time: Double
    /// Its size, pixels.
    public var width: Int
    /// Its height, pixels.
    public var height: Int
    /// Packed RGB, 3 bytes a pixel, row after row.
    public var rgb: [UInt8]
}

/// Makes thumbnails of one video with a demuxer and a decoder of its own (a player's are
/// not disturbed): a keyframe seek to each time asked for, one picture decoded, scaled by
/// libswscale. A keyframe already made is not decoded again.
///
/// Use it from one thread at a time.
public final class ThumbnailMaker {
    /// The thumbnails' size.
    public let width: Int
    /// The thumbnails' height.
    public let height: Int
    /// The video's length, seconds, when the container says.
    public let duration: Double?
    private let demuxer: Demuxer
    private let decoder: Decoder
    private let stream: Int
    private let startTime: Double
    private let converter = PictureConverter()
    /// By keyframe time, so that asking again (the pointer back over the bar) decodes nothing.
    private var made: [Double: Thumbnail] = [:]

    /// Opens `url` for thumbnails `width`×`height`.
    public init(url: String, width: Int, height: Int, options: DemuxOptions = DemuxOptions()) throws {
        guard width > 0, height > 0, width <= 4096, height <= 4096 else {
            throw DecodeError(.other, detail: "a thumbnail is 1 to 4096 pixels a side (asked \(width)x\(height))")
        }
        self.width = width
        self.height = height
        demuxer = try Demuxer(url: url, options: options)
        guard let stream = demuxer.bestStream(of: .video) else { throw DecodeError(.noSuchStream(.video)) }
        self.stream = stream
        decoder = try Decoder(demuxer: demuxer, streamIndex: stream, options: DecoderOptions(threadCount: 1))
        startTime = demuxer.info.format.startTime ?? 0
        duration = demuxer.info.format.duration
    }

    /// How many thumbnails were decoded, not taken from those already made.
    public private(set) var decodedCount = 0

    /// The thumbnail of the keyframe at or before `seconds` from the start.
    public func thumbnail(at seconds: Double) throws -> Thumbnail {
        try demuxer.seek(to: MediaTime(seconds: startTime + max(seconds, 0)))
        decoder.flush()
        // The keyframe's packet comes first after the seek; its time is the cache's key.
        var keyframeTime: Double?
        var picture: VideoFrame?
        var packets = 0
        while picture == nil, packets < 2_000, let packet = try demuxer.readPacket() {
            guard packet.streamIndex == stream else { continue }
            packets += 1
            if keyframeTime == nil, let time = packet.presentationTime?.seconds {
                keyframeTime = time
                if let known = made[time] { return known }
            }
            try decoder.decode(packet) { frame in
                if case .video(let video) = frame, picture == nil { picture = video }
            }
        }
        if picture == nil { try decoder.drain { if case .video(let video) = $0, picture == nil { picture = video } } }
        guard let picture else { throw DecodeError(.other, detail: "no picture at \(seconds) s") }
        let time = (picture.presentationTime?.seconds ?? keyframeTime ?? startTime) - startTime
        let scaled = try converter.convert(picture, to: PixelFormat("rgb24"), width: width, height: height, quality: .accurate)
        let plane = scaled.planes[0]
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        rgb.withUnsafeMutableBytes { target in
            for row in 0..<height {
                (target.baseAddress! + row * width * 3).copyMemory(from: plane.baseAddress + row * plane.bytesPerRow, byteCount: width * 3)
            }
        }
        let thumbnail = Thumbnail(time: time, width: width, height: height, rgb: rgb)
        decodedCount += 1
        if let keyframeTime { made[keyframeTime] = thumbnail }
        return thumbnail
    }
}

/// Thumbnails of a whole video at regular times, and their sprite sheets.
public enum Thumbnails {
    /// A thumbnail `width`×`height` every `every` seconds of `url`, and their layout on
    /// sprite sheets (``ThumbnailSheet``).
    public static func generate(url: String, every: Double, width: Int, height: Int, columns: Int = 10, rows: Int = 10,
                                options: DemuxOptions = DemuxOptions()) async throws -> (sheet: ThumbnailSheet, thumbnails: [Thumbnail]) {
        try await withCheckedThrowingContinuation { continuation in
            // Decoding blocks: on a thread of its own, not the cooperative pool.
            Thread.detachNewThread {
                continuation.resume(with: Result { () throws -> (sheet: ThumbnailSheet, thumbnails: [Thumbnail]) in
                    let maker = try ThumbnailMaker(url: url, width: width, height: height, options: options)
                    let times = ThumbnailSheet.times(duration: maker.duration ?? 0, every: every)
                    let thumbnails = try times.map { try maker.thumbnail(at: $0) }
                    let sheet = ThumbnailSheet(width: width, height: height, columns: columns, rows: rows, times: times, duration: maker.duration ?? 0)
                    return (sheet: sheet, thumbnails: thumbnails)
                })
            }
        }
    }

    /// Sheet `index` of `sheet` as a picture: the thumbnails on it in their places.
    public static func picture(ofSheet index: Int, _ sheet: ThumbnailSheet, thumbnails: [Thumbnail]) -> VideoFrame {
        let size = sheet.size(ofSheet: index)
        let stride = size.width * 3
        let storage = HeapStorage(byteCount: stride * size.height)
        for (number, thumbnail) in thumbnails.enumerated() {
            let place = sheet.place(of: number)
            guard place.sheet == index else { continue }
            thumbnail.rgb.withUnsafeBytes { source in
                for row in 0..<thumbnail.height {
                    let target = storage.bytes.baseAddress! + (place.y + row) * stride + place.x * 3
                    target.copyMemory(from: source.baseAddress! + row * thumbnail.width * 3, byteCount: thumbnail.width * 3)
                }
            }
        }
        let plane = PlaneView(baseAddress: UnsafeRawPointer(storage.bytes.baseAddress!), bytesPerRow: stride, rowByteCount: stride, rowCount: size.height)
        return VideoFrame(width: size.width, height: size.height, pixelFormat: PixelFormat("rgb24"), planes: [plane], color: ColorDescription(),
                          sampleAspectRatio: Rational(1, 1), pts: 0, duration: 0, timeBase: Rational(1, 1), isKeyframe: true, owner: storage)
    }
}
