import Foundation

/// nginx serving a directory over HTTP (or HTTPS, with a certificate given) on a loopback
/// port (HLS and DASH ladders made by ffmpeg's muxers), with the MIME types players expect.
/// Sendable: nothing in it changes after it starts but the process it stops.
final class StaticWebServer: @unchecked Sendable {
    let port: UInt16
    let root: URL
    private let process: BackgroundProcess
    /// Where nginx writes each request's time and path, when asked to.
    private let requestLog: URL?

    /// Whether it serves HTTPS.
    let isSecure: Bool

    /// Serves `root`; with `logsRequests`, each request's time is kept for ``requests()``;
    /// with `tls` (PEM files), over HTTPS.
    init(root: URL, logsRequests: Bool = false, tls: (certificate: String, key: String)? = nil) throws {
        self.root = root
        isSecure = tls != nil
        let secure = tls.map { " ssl; ssl_certificate \($0.certificate); ssl_certificate_key \($0.key)" } ?? ""
        let directory = try Paths.temporaryDirectory()
        requestLog = logsRequests ? directory.appendingPathComponent("requests.log") : nil
        let logging = requestLog.map { "log_format requests '$msec $uri'; access_log \($0.path) requests;" } ?? "access_log off;"
        port = try SilentServer.unusedPort()
        let configuration = """
            daemon off;
            master_process off;
            error_log \(directory.path)/error.log;
            pid \(directory.path)/nginx.pid;
            events {}
            http { \(logging) server { listen 127.0.0.1:\(port)\(secure); root \(root.path);
                types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; video/mp4 mp4 m4s; application/dash+xml mpd; } } }
            """
        let path = directory.appendingPathComponent("nginx.conf").path
        try configuration.write(toFile: path, atomically: true, encoding: .utf8)
        process = try BackgroundProcess("/usr/sbin/nginx", ["-c", path, "-p", directory.path])
        try waitFor("nginx listening on \(port)", while: process) { [process, port] in try process.isListening(on: port) }
    }

    /// The URL of `path` under the root.
    func url(_ path: String) -> String { "\(isSecure ? "https" : "http")://127.0.0.1:\(port)/\(path)" }

    /// The requests served so far: each one's wall-clock time (seconds since 1970) and path.
    func requests() throws -> [(time: Double, path: String)] {
        guard let requestLog else { return [] }
        return try String(contentsOf: requestLog, encoding: .utf8).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 2, let time = Double(fields[0]) else { return nil }
            return (time, String(fields[1]))
        }
    }

    func stop() { process.stop() }

    deinit { stop() }
}
