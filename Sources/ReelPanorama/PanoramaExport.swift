import Foundation
import ReelCore
import ReelFFmpeg

/// Reframes a 360° video into a flat one: every frame projected at a fixed view or along
/// a `CameraPath`, encoded with libx264, the first audio stream copied.
public struct PanoramaExport: Sendable {
    /// The 360° video.
    public var input: String
    /// The flat video to write (MP4, MKV, MOV).
    public var output: String
    /// The view, its interpolation and the stereo eye.
    public var settings: PanoramaSettings
    /// The output's width in pixels.
    public var width: Int
    /// The output's height in pixels.
    public var height: Int
    /// Where the camera looks over time; `settings`' fixed view when `nil`.
    public var path: CameraPath?
    /// libx264's constant rate factor (0 is lossless).
    public var crf: Int = 18

    /// An export of `input` to `output` at `width`×`height`.
    public init(input: String, output: String, settings: PanoramaSettings, width: Int, height: Int, path: CameraPath? = nil) {
        self.input = input
        self.output = output
        self.settings = settings
        self.width = width
        self.height = height
        self.path = path
    }

    /// Runs the export on the calling thread; `progress` gets the fraction done (by time).
    /// Returns the number of frames written.
    @discardableResult
    public func run(progress: (Double) -> Void = { _ in }) throws -> Int {
        let demuxer = try Demuxer(url: input)
        guard let videoIndex = demuxer.bestStream(of: .video) else { throw DecodeError(.noSuchStream(.video)) }
        let audioIndex = demuxer.bestStream(of: .audio)
        let decoder = try Decoder(demuxer: demuxer, streamIndex: videoIndex)
        let stream = demuxer.info.streams.first { $0.index == videoIndex }
        let timeBase = stream?.timeBase ?? Rational(1, 90_000)
        let frameRate = stream?.averageFrameRate.flatMap { $0.isKnown ? $0 : nil } ?? Rational(25, 1)
        let writer = try VideoFileWriter(path: output, video: .init(width: width, height: height, timeBase: timeBase, frameRate: frameRate, crf: crf),
                                         copying: audioIndex, of: demuxer)
        let renderer = PanoramaRenderer(threads: ProcessInfo.processInfo.activeProcessorCount)
        let converter = SwscaleConverter()
        let duration = demuxer.info.format.duration ?? 0
        let start = demuxer.info.format.startTime ?? 0
        var written = 0
        func handle(_ decoded: DecodedFrame) throws {
            guard case .video(let frame) = decoded, let pts = frame.pts else { return }
            let seconds = (frame.presentationTime?.seconds ?? 0) - start
            var settings = settings
            if let path { settings.view = path.view(at: seconds, roll: settings.view.roll) }
            settings.view = settings.view.squarePixels(width: width, height: height)
            try writer.write(renderer.renderFlat(converter.i420Picture(of: frame, keepingColour: false), settings: settings, width: width, height: height),
                             pts: MediaTime(ticks: pts, timeBase: frame.timeBase)?.ticks(in: timeBase) ?? pts)
            written += 1
            if duration > 0 { progress(min(max(seconds / duration, 0), 1)) }
        }
        while let packet = try demuxer.readPacket() {
            if packet.streamIndex == videoIndex {
                try decoder.decode(packet, handle)
            } else if packet.streamIndex == audioIndex {
                try writer.write(copied: packet)
            }
        }
        try decoder.drain(handle)
        try writer.finish()
        progress(1)
        return written
    }
}
