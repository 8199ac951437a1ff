import CGStreamer
import ReelFFmpeg

/// GStreamer itself: initialised once per process, on first use.
public enum GStreamer {
    /// Initialises GStreamer now rather than when it is first used.
    ///
    /// GStreamer's libav plug-in sets FFmpeg's process-wide log callback while it loads, and
    /// Reel reads some of FFmpeg's errors from that log (a truncated file is known only by its
    /// "partial file" line). Initialising loads the plug-in at once and puts Reel's callback
    /// back, but for the 0.1 s the plug-in takes to load, FFmpeg's lines go to GStreamer: a
    /// process that reads files through FFmpeg on other threads calls this at a quiet moment
    /// (at start-up) rather than in the middle of that work.
    public static func initialise() { _ = initialised }

    static let initialised: Bool = {
        gst_init(nil, nil)
        if let libav = gst_plugin_load_by_name("libav") { gst_object_unref(UnsafeMutableRawPointer(libav)) }
        FFmpegLog.reclaimCallback()
        return true
    }()

    /// The library's version, as `gst-launch-1.0 --version` prints it (`1.22.0`).
    public static var version: String {
        _ = initialised
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        return "\(major).\(minor).\(micro)"
    }

    /// Whether the registry has an element factory named `name` (a plug-in is installed).
    public static func hasElement(_ name: String) -> Bool {
        _ = initialised
        guard let factory = gst_element_factory_find(name) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(factory))
        return true
    }

    /// The video decoders in GStreamer's registry that decode on hardware (VA-API's
    /// `vah264dec`, NVDEC's `nvh264dec`, V4L2's…), by factory name; empty on a machine with
    /// none. `uridecodebin3` ranks them above software decoders when they are there.
    public static func hardwareVideoDecoders() -> [String] {
        _ = initialised
        guard let list = reel_gst_video_decoders() else { return [] }
        defer { gst_plugin_feature_list_free(list) }
        var names: [String] = []
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            node = current.pointee.next
            guard let factory = current.pointee.data, let klass = gst_element_factory_get_metadata(OpaquePointer(factory), "klass"),
                  String(cString: klass).contains("Hardware"), let name = gst_object_get_name(reel_gst_object(factory)) else { continue }
            names.append(String(cString: name))
            g_free(name)
        }
        return names.sorted()
    }
}
