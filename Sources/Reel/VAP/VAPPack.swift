import Foundation
import ReelCore
import ReelFFmpeg

/// Makes a VAP animation from a PNG sequence with alpha, as Tencent's VapTool does: each
/// frame laid out by ``VAPPackLayout`` (colour premultiplied over black, alpha as gray at
/// half scale), encoded with libx264 or libx265, an audio file's stream copied in, and the
/// `vapc` box inserted after `ftyp`.
public struct VAPPack: Sendable {
    public enum Codec: String, Sendable, CaseIterable { case h264, h265 }

    /// A printf pattern with one integer (`frames/%04d.png`), numbered from 0 to 4 on.
    public var input: String
    public var output: String
    public var framesPerSecond = 25
    public var codec = Codec.h264
    /// libx264/libx265's constant rate factor.
    public var crf = 18
    public var preset = "medium"
    /// An audio file whose first audio stream is copied (AAC, MP3 or another codec MP4 holds).
    public var audio: String?

    public init(input: String, output: String) {
        self.input = input
        self.output = output
    }

    /// Most frames packed (at 60 per second, over half an hour).
    public static let maxFrames = 120_000

    /// The frames of the pattern: the first existing number from 0 to 4, then each next one.
    public func framePaths() throws -> [String] {
        guard input.range(of: "%[0-9]*d", options: .regularExpression) != nil else {
            throw VAPError.invalidField(path: "input", reason: "\(input) is not a frame pattern such as frames/%04d.png")
        }
        guard let first = (0...4).first(where: { FileManager.default.fileExists(atPath: String(format: input, $0)) }) else {
            throw VAPError.invalidField(path: "input", reason: "no file matches \(input) (numbered from 0 to 4 on)")
        }
        var paths: [String] = []
        var number = first
        while paths.count < Self.maxFrames, FileManager.default.fileExists(atPath: String(format: input, number)) {
            paths.append(String(format: input, number))
            number += 1
        }
        return paths
    }

    /// Runs on the calling thread; `progress` gets the fraction done. Returns the frame count.
    @discardableResult
    public func run(progress: (Double) -> Void = { _ in }) throws -> Int {
        guard (1...120).contains(framesPerSecond) else { throw VAPError.invalidField(path: "fps", reason: "\(framesPerSecond) is not in 1…120") }
        let paths = try framePaths()
        let first = try ImageFile.premultipliedRGBA(path: paths[0])
        let packing = VAPPackLayout(width: first.width, height: first.height)
        let temporary = output + ".reel-pack.mp4"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        var settings = VideoFileWriter.Settings(width: packing.videoWidth, height: packing.videoHeight, timeBase: Rational(1, framesPerSecond),
                                                frameRate: Rational(framesPerSecond, 1), crf: crf, preset: preset)
        settings.encoder = codec == .h264 ? "libx264" : "libx265"
        if codec == .h265 { settings.encoderOptions = ["x265-params": "log-level=error"] }
        let writer: AudioPassthroughWriter
        if let audio {
            let demuxer = try Demuxer(url: audio)
            guard let index = demuxer.bestStream(of: .audio) else { throw VAPError.invalidField(path: "audio", reason: "\(audio) has no audio stream") }
            writer = AudioPassthroughWriter(video: try VideoFileWriter(path: temporary, video: settings, copying: index, of: demuxer), demuxer: demuxer, audioIndex: index)
        } else {
            let demuxer = try Demuxer(url: paths[0])
            writer = AudioPassthroughWriter(video: try VideoFileWriter(path: temporary, video: settings), demuxer: demuxer, audioIndex: nil)
        }
        let canvas = try PixelBuffer(format: .rgba, width: packing.videoWidth, height: packing.videoHeight)
        for (index, path) in paths.enumerated() {
            let frame = index == 0 ? first : try ImageFile.premultipliedRGBA(path: path)
            guard frame.width == first.width, frame.height == first.height else {
                throw VAPError.invalidField(path: "input", reason: "\(path) is \(frame.width)x\(frame.height), the first frame \(first.width)x\(first.height)")
            }
            try packing.compose(frame, into: canvas)
            try writer.copyAudio(until: Double(index) / Double(framesPerSecond))
            try writer.video.write(canvas, pts: Int64(index))
            progress(Double(index + 1) / Double(paths.count))
        }
        try writer.finish()
        let config = packing.config(frameCount: paths.count, framesPerSecond: framesPerSecond)
        let packed = try MP4BoxInsertion.insert(type: "vapc", body: config.json(), into: [UInt8](Data(contentsOf: URL(fileURLWithPath: temporary))))
        try Data(packed).write(to: URL(fileURLWithPath: output))
        return paths.count
    }
}
