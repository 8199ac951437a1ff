import Foundation
import ReelCore
import ReelFFmpeg

/// Records received access units without decoding them: as an Annex B elementary stream
/// (`.h264`, `.264`, `.h265`, `.265`, `.hevc`), or in a container (`.mp4`, `.mov`, `.mkv`)
/// from the first access unit that carries parameter sets, with decode times derived
/// from the presentation times (RTP carries no decode times). Times stay on one line across
/// sender restarts and timestamp jumps (`ContinuousTimeline`).
///
/// A recording keeps what it holds however it ends: it is written under its own name from
/// the start, MP4 and MOV in fragments (one per keyframe), so a recording cut short by a
/// full disk, a crash or a kill plays up to its last fragment.
///
/// Not `Sendable`: one task or thread writes, as access units come out of a receiver in
/// order (``RTPReceiver/accessUnits()``).
public final class AccessUnitRecorder {
    /// The file being written.
    public let path: String
    /// The codec of the access units.
    public let codec: VideoCodec
    private var annexB: FileHandle?
    private var muxer: EncodedSampleMuxer?
    private var format: VideoFormatDescription?
    private var timeline: ContinuousTimeline
    private var decodeTimes: DecodeTimestampGenerator?
    /// The first pictures, held until their spacing gives the frame duration.
    private var held: [AccessUnit] = []
    static let heldForTiming = 8
    private let clockRate: Int32
    /// Access units written so far (the first ones are held until their spacing is known).
    public private(set) var writtenUnits = 0

    static let elementaryExtensions: Set<String> = ["h264", "264", "h265", "265", "hevc"]

    /// Creates `path`: its extension chooses Annex B or a container; `clockRate` is the RTP clock of the units' times.
    public init(path: String, codec: VideoCodec, clockRate: Int = 90000) throws {
        self.path = path
        self.codec = codec
        self.clockRate = Int32(clockRate)
        timeline = ContinuousTimeline(clockRate: clockRate)
        if Self.elementaryExtensions.contains((path as NSString).pathExtension.lowercased()) {
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw OutputError(path, "cannot create the file")
            }
            annexB = handle
        }
    }

    /// Writes an access unit; before the first one with parameter sets, a container skips it.
    public func write(_ unit: AccessUnit) throws {
        if let annexB {
            do { try annexB.write(contentsOf: unit.annexB) } catch { throw OutputError(path, error.localizedDescription) }
            writtenUnits += 1
            return
        }
        if muxer == nil {
            guard let format = try formatDescription(of: unit) else { return }
            self.format = format
            muxer = try EncodedSampleMuxer(path: path, format: format, timescale: clockRate, frameRate: nil, fragmented: true)
        }
        guard decodeTimes != nil else {
            held.append(unit)
            if held.count >= Self.heldForTiming { try writeHeld() }
            return
        }
        try writeSample(unit)
    }

    private func writeHeld() throws {
        let times = held.map(\.timestamp).sorted()
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }
        decodeTimes = DecodeTimestampGenerator(delay: 4, frameDuration: steps.min() ?? 1)
        let units = held
        held = []
        for unit in units { try writeSample(unit) }
    }

    private func writeSample(_ unit: AccessUnit) throws {
        guard let muxer, let format, var decodeTimes else { return }
        defer { self.decodeTimes = decodeTimes }
        let pts = timeline.time(for: unit.timestamp, restarted: unit.followsRestart)
        let dts = decodeTimes.decodeTime(forPresentationTime: pts)
        // The container's record holds the parameter sets; the samples carry the pictures.
        let units = unit.units.filter { !codec.isParameterSet(nalType: codec.nalType($0[0])) }
        let sample = EncodedSample(data: AnnexB.lengthPrefixed(units), isKeyframe: unit.isKeyframe,
                                   presentationTime: MediaTime(value: pts, timescale: clockRate),
                                   decodeTime: MediaTime(value: dts, timescale: clockRate), formatDescription: format)
        try muxer.write(sample, duration: decodeTimes.frameDuration)
        writtenUnits += 1
    }

    /// Writes what is held and closes the file (a container's index is written here).
    public func finish() throws {
        if !held.isEmpty { try writeHeld() }
        try annexB?.close()
        annexB = nil
        try muxer?.finish()
    }

    /// The stream's format from a keyframe's parameter sets; nil until one comes.
    private func formatDescription(of unit: AccessUnit) throws -> VideoFormatDescription? {
        guard unit.isKeyframe else { return nil }
        let parameterSets = unit.units.filter { codec.isParameterSet(nalType: codec.nalType($0[0])) }
        let spsType: UInt8 = codec == .h264 ? 7 : 33
        guard let sps = parameterSets.first(where: { codec.nalType($0[0]) == spsType }) else { return nil }
        let size: (Int, Int)
        switch codec {
        case .h264:
            let parsed = try H264SequenceParameterSet(nalUnit: sps)
            size = (parsed.width, parsed.height)
        case .h265:
            let parsed = try H265SequenceParameterSet(nalUnit: sps)
            size = (parsed.width, parsed.height)
        }
        return try VideoFormatDescription(codec: codec, width: size.0, height: size.1, parameterSets: parameterSets)
    }
}

@available(*, unavailable, message: "one owner uses it, in order")
extension AccessUnitRecorder: Sendable {}
