import Foundation

/// nginx with its RTMP module on a loopback port: `live` takes publishers and players,
/// and cuts what is published into HLS (1 s fragments) that nginx serves over HTTP on
/// `httpPort`. It can be killed and started again on the same port, as a server that
/// crashes is.
final class RTMPServer {
    let port: UInt16
    let httpPort: UInt16
    private let directory: URL
    private let configurationPath: String
    private var process: BackgroundProcess?

    init() throws {
        directory = try Paths.temporaryDirectory()
        port = try SilentServer.unusedPort()
        httpPort = try SilentServer.unusedPort()
        let hls = directory.appendingPathComponent("hls").path
        try FileManager.default.createDirectory(atPath: hls, withIntermediateDirectories: true)
        let configuration = """
            load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
            daemon off;
            master_process off;
            error_log \(directory.path)/error.log;
            pid \(directory.path)/nginx.pid;
            events {}
            rtmp { server { listen 127.0.0.1:\(port); application live {
                live on; hls on; hls_path \(hls); hls_fragment 1s; hls_playlist_length 6s; } } }
            http { access_log off; server { listen 127.0.0.1:\(httpPort); location /hls/ { alias \(hls)/;
                types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; } add_header Cache-Control no-cache; } } }
            """
        configurationPath = directory.appendingPathComponent("nginx.conf").path
        try configuration.write(toFile: configurationPath, atomically: true, encoding: .utf8)
        try start()
    }

    /// The URL of stream `name`.
    func url(_ name: String = "test") -> String { "rtmp://127.0.0.1:\(port)/live/\(name)" }

    /// The URL of stream `name`'s HLS playlist.
    func hlsURL(_ name: String = "test") -> String { "http://127.0.0.1:\(httpPort)/hls/\(name).m3u8" }

    /// Whether stream `name`'s HLS playlist lists `fragments` fragments yet.
    func hlsHasFragments(_ fragments: Int, name: String = "test") -> Bool {
        let playlist = (try? String(contentsOfFile: directory.appendingPathComponent("hls/\(name).m3u8").path, encoding: .utf8)) ?? ""
        return playlist.components(separatedBy: "#EXTINF").count > fragments
    }

    /// Starts nginx and returns once it listens.
    func start() throws {
        process = try BackgroundProcess("/usr/sbin/nginx", ["-c", configurationPath, "-p", directory.path])
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try Processes.run("ss", ["-Htln", "sport = :\(port)"]).stdout.contains(":\(port)") { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw TestSetupError("nginx did not listen on port \(port): \((try? String(contentsOfFile: directory.path + "/error.log", encoding: .utf8)) ?? "")")
    }

    /// Waits until `publisher` holds a connection to nginx (before any player connects, the
    /// only one).
    func waitForPublisher(_ publisher: BackgroundProcess) throws {
        try waitFor("publisher connected to nginx", while: publisher) {
            !(try Processes.run("ss", ["-Htn", "state", "established", "sport = :\(port)"]).stdout.isEmpty)
        }
    }

    /// Ends nginx at once (SIGKILL), as a crash would.
    func kill() { process?.kill() }

    func stop() { process?.stop() }

    deinit { stop() }
}

/// ffmpeg publishing a 25 fps test picture and a 1 kHz tone (FLV: H.264 and AAC) in real
/// time to `url`, for ever.
func publishTestStream(to url: String) throws -> BackgroundProcess {
    try BackgroundProcess("ffmpeg", [
        "-v", "error", "-nostdin", "-re",
        "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000",
        "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "25", "-c:a", "aac", "-f", "flv", url,
    ])
}
