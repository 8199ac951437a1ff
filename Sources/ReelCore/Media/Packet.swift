/// One compressed unit read from a container: a video access unit or a run of audio
/// frames, with its timing in the stream's time base.
///
/// The bytes are not copied out of the demuxer; ``owner`` keeps them alive.
public struct Packet: @unchecked Sendable {
    public var streamIndex: Int
    /// Presentation and decode timestamps in ticks of ``timeBase``; `nil` when unknown.
    public var pts: Int64?
    public var dts: Int64?
    public var duration: Int64
    public var timeBase: Rational
    public var isKeyframe: Bool
    /// The container marked these bytes as damaged.
    public var isCorrupt: Bool
    /// The compressed bytes, valid as long as ``owner`` lives.
    public var data: UnsafeRawBufferPointer
    public var owner: any StorageOwner
    /// When the producer captured this packet's picture or sound, in seconds since 1970
    /// (UTC), when the input says: an RTP sender's reports map its clock to the wall clock.
    public var captureTime: Double?

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

    public var presentationTime: MediaTime? { pts.flatMap { MediaTime(ticks: $0, timeBase: timeBase) } }
    public var decodeTime: MediaTime? { dts.flatMap { MediaTime(ticks: $0, timeBase: timeBase) } }
}
