import Dispatch
import ReelCore
import ReelFFmpeg

/// Decodes one stream from start to end and counts what came out: the work of
/// `ffmpeg -i X -f null -`, used to measure decoding throughput.
public enum DecodeRun {
    /// What a run decoded, and how fast.
    public struct Summary: Sendable, CustomStringConvertible {
        /// The decoder's codec name.
        public var codec: String
        /// Frames decoded.
        public var frames: Int
        /// Packets the decoder rejected as damaged and skipped.
        public var damagedPackets: Int
        /// Whether a hardware decoder did the work.
        public var hardwareAccelerated: Bool
        /// Wall-clock seconds.
        public var seconds: Double

        public var description: String {
            let rate = seconds > 0 ? Double(frames) / seconds : 0
            return "decoded \(frames) frames of \(codec) in \(MediaTime.formatSeconds(seconds)) s (\(Int(rate.rounded())) frames/s)"
                + (damagedPackets > 0 ? ", \(damagedPackets) damaged packets skipped" : "")
                + (hardwareAccelerated ? ", on hardware" : "")
        }
    }

    /// Decodes `url`'s stream as `options` say, on a thread of its own, and counts.
    public static func run(_ url: String, options: FrameChecksums.Options = .init()) async throws -> Summary {
        try await BlockingThread.run(name: "reel.decode") {
            let start = DispatchTime.now().uptimeNanoseconds
            let demuxer = try Demuxer(url: url, options: options.input)
            let index = try StreamDecoding.firstStream(of: options.stream, in: demuxer)
            var frames = 0
            let decoder = try StreamDecoding.decodeAll(demuxer, streamIndex: index, options: options.decoder) { _ in frames += 1 }
            return Summary(codec: decoder.codecName, frames: frames, damagedPackets: decoder.damagedPacketCount,
                           hardwareAccelerated: decoder.isHardwareAccelerated,
                           seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
    }
}
