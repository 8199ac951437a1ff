import ReelCore

/// A packet on its way to a decoder; `nil` marks the end of the stream.
struct QueuedPacket: QueueCost {
    var packet: Packet?
    var queueBytes: Int { packet?.data.count ?? 0 }
    var queueSeconds: Double { packet.map { Double($0.duration) * ($0.timeBase.doubleValue ?? 0) } ?? 0 }
}

/// A decoded video frame on its way to the screen, turned upright; `nil` marks the end of
/// the stream.
struct QueuedVideoFrame: QueueCost {
    var frame: VideoFrame?
    /// The frame as decoded, when turning it made another (the tap hands this one over).
    var decoded: VideoFrame? = nil
    var queueBytes: Int { 0 }
    var queueSeconds: Double { 0 }
    var pts: Double? { frame?.presentationTime?.seconds }
    var duration: Double { frame.map { Double($0.duration) * ($0.timeBase.doubleValue ?? 0) } ?? 0 }
}

/// Decoded audio on its way to the device; `nil` marks the end of the stream.
struct QueuedAudioFrame: QueueCost {
    var frame: AudioFrame?
    var queueBytes: Int { 0 }
    var queueSeconds: Double { frame.map { Double($0.sampleCount) / Double(max($0.sampleRate, 1)) } ?? 0 }
}
