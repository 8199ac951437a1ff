import CFFmpeg

extension Demuxer {
    /// Makes ``readPacket()`` return packets of `streams` only: the container skips the
    /// others' data where it can (a subtitle scan of a film then reads little of its video).
    public func discardAll(except streams: Set<Int>) {
        for index in 0..<Int(context.pointee.nb_streams) where !streams.contains(index) {
            stream(at: index)?.pointee.discard = AVDISCARD_ALL
        }
    }
}
