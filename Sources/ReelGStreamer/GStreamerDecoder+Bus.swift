import CGStreamer
import Foundation

// The pipeline's bus: its errors, thrown as GStreamerError with a kind, and the network
// buffer's fill level.
extension GStreamerDecoder {
    /// The error on the bus, or `fallback` when there is none.
    func failure(_ fallback: String) throws(GStreamerError) -> Never {
        try checkBus()
        throw GStreamerError(fallback)
    }

    /// The buffer's fill level GStreamer reported since the last call, if it did (network
    /// inputs only).
    public func takeBufferingProgress() -> Int? {
        // An error found on the way goes back on the bus, for the frames' polls to throw.
        if let error = popBusUntilError() { gst_bus_post(bus, error) }
        return lock.withLock {
            defer { bufferingPercent = nil }
            return bufferingPercent
        }
    }

    /// Pops the bus up to its first error, which it returns, noting the buffer's fill
    /// level on the way, and the input's tags while opening (`notingTags`); other messages
    /// are dropped (nothing else reads the bus while playing, and a bus nobody pops keeps
    /// every message).
    func popBusUntilError(notingTags: Bool = false) -> UnsafeMutablePointer<GstMessage>? {
        let wanted = GST_MESSAGE_ERROR.rawValue | GST_MESSAGE_BUFFERING.rawValue | (notingTags ? GST_MESSAGE_TAG.rawValue : 0)
        while let message = gst_bus_pop_filtered(bus, GstMessageType(rawValue: wanted)) {
            let type = reel_gst_message_type(message)
            if type == GST_MESSAGE_ERROR { return message }
            if type == GST_MESSAGE_TAG { noteTags(message) } else { noteBuffering(message) }
            gst_message_unref(message)
        }
        return nil
    }

    func noteBuffering(_ message: UnsafeMutablePointer<GstMessage>) {
        var percent: gint = 0
        gst_message_parse_buffering(message, &percent)
        lock.withLock { bufferingPercent = Int(percent) }
    }

    /// Throws the first error posted on the bus, if any.
    func checkBus() throws(GStreamerError) {
        guard let message = popBusUntilError() else { return }
        defer { gst_message_unref(message) }
        throw GStreamerError(errorMessage: message)
    }
}

extension GStreamerError {
    /// The error an ERROR message on a bus carries, with its kind from GStreamer's error
    /// domain and code.
    init(errorMessage message: UnsafeMutablePointer<GstMessage>) {
        var error: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        gst_message_parse_error(message, &error, &debug)
        defer {
            if let error { g_error_free(error) }
            g_free(debug)
        }
        var kind = GStreamerError.Kind.other
        if let error {
            let domain = error.pointee.domain, code = error.pointee.code
            if domain == gst_resource_error_quark() {
                switch code {
                case Int32(GST_RESOURCE_ERROR_NOT_FOUND.rawValue): kind = .notFound
                case Int32(GST_RESOURCE_ERROR_NOT_AUTHORIZED.rawValue): kind = .notAuthorized
                case Int32(GST_RESOURCE_ERROR_OPEN_READ.rawValue), Int32(GST_RESOURCE_ERROR_READ.rawValue): kind = .cannotRead
                default: break
                }
            } else if domain == gst_stream_error_quark() || domain == gst_core_error_quark() {
                switch code {
                case Int32(GST_STREAM_ERROR_TYPE_NOT_FOUND.rawValue), Int32(GST_STREAM_ERROR_WRONG_TYPE.rawValue),
                     Int32(GST_STREAM_ERROR_DEMUX.rawValue), Int32(GST_STREAM_ERROR_FAILED.rawValue): kind = .notMedia
                case Int32(GST_STREAM_ERROR_CODEC_NOT_FOUND.rawValue), Int32(GST_CORE_ERROR_MISSING_PLUGIN.rawValue): kind = .missingPlugin
                default: break
                }
            }
        }
        self.init(error.map { String(cString: $0.pointee.message) } ?? "error", debug: debug.map { String(cString: $0) }, kind: kind)
    }
}
