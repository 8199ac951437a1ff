import Foundation

/// nginx serving a directory over HTTP on a loopback port (HLS and DASH ladders made by
/// ffmpeg's muxers), with the MIME types players expect.
final class StaticWebServer {
    let port: UInt16
    let root: URL
    private let process: BackgroundProcess

    init(root: URL) throws {
        self.root = root
        let directory = try Paths.temporaryDirectory()
        port = try SilentServer.unusedPort()
        let configuration = """
            daemon off;
            master_process off;
            error_log \(directory.path)/error.log;
            pid \(directory.path)/nginx.pid;
            events {}
            http { access_log off; server { listen 127.0.0.1:\(port); root \(root.path);
                types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; video/mp4 mp4 m4s; application/dash+xml mpd; } } }
            """
        let path = directory.appendingPathComponent("nginx.conf").path
        try configuration.write(toFile: path, atomically: true, encoding: .utf8)
        process = try BackgroundProcess("/usr/sbin/nginx", ["-c", path, "-p", directory.path])
        try waitFor("nginx listening on \(port)", while: process) { [process, port] in try process.isListening(on: port) }
    }

    /// The URL of `path` under the root.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    func stop() { process.stop() }

    deinit { stop() }
}
