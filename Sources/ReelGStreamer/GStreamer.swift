import CGStreamer

/// GStreamer itself: initialised once per process, on first use.
public enum GStreamer {
    /// Initialises GStreamer (registry scan included) the first time it is asked for.
    static let initialised: Bool = {
        gst_init(nil, nil)
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
}
