import CGStreamer
import Foundation
import ReelCore

extension GStreamerDecoder {
    /// Goes to `seconds`: to the keyframe at or before it, or with `exact` to the frame
    /// shown at it (GStreamer decodes from the keyframe and drops what precedes).
    public func seek(to seconds: Double, exact: Bool) throws(GStreamerError) {
        // A keyframe seek snaps to the keyframe before: the segment then starts there, and
        // no picture before the target is clipped away.
        let flags = GST_SEEK_FLAG_FLUSH.rawValue | (exact ? GST_SEEK_FLAG_ACCURATE.rawValue : GST_SEEK_FLAG_KEY_UNIT.rawValue | GST_SEEK_FLAG_SNAP_BEFORE.rawValue)
        // Right after a stream selection decodebin3 may still be relinking its outputs and
        // refuse a seek (GStreamer 1.22, a few times in a hundred): asked again for a moment.
        let deadline = Date().addingTimeInterval(Self.seekRetryWindow)
        while gst_element_seek_simple(pipeline, GST_FORMAT_TIME, GstSeekFlags(rawValue: flags), gint64(seconds * 1e9)) == 0 {
            try checkBus()
            guard Date() < deadline else { try failure("cannot seek to \(MediaTime.formatSeconds(seconds)) s") }
            usleep(10_000)
        }
    }

    /// How long a refused seek is asked again.
    static let seekRetryWindow = 1.0
}
