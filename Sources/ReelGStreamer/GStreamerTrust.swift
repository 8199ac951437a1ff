import CGio
import Foundation
import ReelCore
import ReelFFmpeg

/// The authorities GStreamer's HTTPS downloads trust. Its HTTP source and its adaptive
/// demuxers' downloads (libsoup 3 sessions, each of its own) check a server's certificate
/// against GIO's default database: in GStreamer 1.22 a `souphttpsrc`'s `ssl-ca-file` does
/// not reach it ("Unacceptable TLS certificate" with the authority named there), and the
/// adaptive demuxers take no such setting at all. So a file of authorities is made that
/// database, for the whole process.
enum GStreamerTrust {
    private static let trusted = LockedValue<String?>(nil)

    /// Makes the authorities in the PEM file `path` the ones trusted from now on, in place
    /// of the system's; throws when the file holds none GIO can read.
    static func trustAuthorities(in path: String) throws(GStreamerError) {
        let failure: String? = trusted.withLock { current in
            guard current != path else { return nil }
            var error: UnsafeMutablePointer<GError>?
            guard let database = g_tls_file_database_new(path, &error) else {
                defer { if error != nil { g_error_free(error) } }
                return error.map { String(cString: $0.pointee.message) } ?? "no certificates"
            }
            g_tls_backend_set_default_database(g_tls_backend_get_default(), database)
            g_object_unref(UnsafeMutableRawPointer(database))
            current = path
            return nil
        }
        if let failure { throw GStreamerError("cannot read the authorities in '\(path)': \(failure)", kind: .cannotRead) }
    }
}
