/// One compressed unit read from a container: a video access unit or a run of audio
/// frames, with its timing in the stream's time base.
///
/// The bytes are not copied out of the demuxer; ``owner`` keeps them alive.
public struct Packet: @unchecked Sendable {
    /// The stream of the input it belongs to.
    public var streamIndex: Int
    /// Presentation and decode timestamps in ticks of ``timeBase``; `nil` when unknown.
    public var pts: Int64?
    /// Decode timestamp in ticks of ``timeBase``; `nil` when unknown.
    public var dts: Int64?
    /// How long it lasts, in ticks of ``timeBase``; 0 when unknown.
    public var duration: Int64
    /// The unit of the timestamps, in seconds.
    public var timeBase: Rational
    /// Decoding can start here.
    public var isKeyframe: Bool
    /// The container marked these bytes as damaged.
    public var isCorrupt: Bool
    /// The compressed bytes, valid as long as ``owner`` lives.
    public var data: UnsafeRawBufferPointer
    /// Keeps ``data`` alive.
    public var owner: any StorageOwner
    /// When the producer captured this packet's picture or sound, in seconds since 1970
    /// (UTC), when the input says: an RTP sender's reports map its clock to the wall clock.
    public var captureTime: Double?

    /// A packet over bytes that `owner` keeps alive.
    public init(streamIndex: Int, pts: Int64?, dts: Int64?, duration: Int64, timeBase: Rational,
                isKeyframe: Bool, isCorrupt: Bool = false, data: UnsafeRawBufferPointer, owner: any StorageOwner) {
        self.streamIndex = streamIndex
        self.pts = pts
        self.dts = dts
        self.duration = duration
        self.timeBase = timeBase
        self.isKeyframe = isKeyframe
        self.isCorrupt = isCorrupt
        self.data = data
        self.owner = owner
    }

    /// ``pts`` as a time; `nil` when unknown.
    public var presentationTime: MediaTime? { pts.flatMap { MediaTime(ticks: $0, timeBase: timeBase) } }
    /// ``dts`` as a time; `nil` when unknown.
    public var decodeTime: MediaTime? { dts.flatMap { MediaTime(ticks: $0, timeBase: timeBase) } }
    /// Where it ends, in seconds: ``pts`` plus ``duration``; `nil` without a pts.
    public var endSeconds: Double? {
        guard let pts, let unit = timeBase.doubleValue else { return nil }
        return (Double(pts) + Double(max(duration, 0))) * unit
    }
}
