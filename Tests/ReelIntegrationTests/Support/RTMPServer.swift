import Foundation

/// nginx with its RTMP module on a loopback port: `live` takes publishers and players,
/// and cuts what is published into HLS (1 s fragments) that nginx serves over HTTP on
/// `httpPort`; streams published as `NAME_low` and `NAME_high` are the two variants of
/// the live master playlist `NAME.m3u8` (`hls_variant`). It can be killed and started again on the same port, as a server that
/// crashes is.
final class RTMPServer {
    private(set) var port: UInt16 = 0
    private(set) var httpPort: UInt16 = 0
    private let directory: URL
    private let configurationPath: String
    private var process: BackgroundProcess?

    init() throws {
        directory = try Paths.temporaryDirectory()
        configurationPath = directory.appendingPathComponent("nginx.conf").path
        // A port found free may be taken by someone else before nginx binds it: then nginx
        // exits, and new ports are tried.
        var attempt = 0
        while true {
            (port, httpPort) = (try SilentServer.unusedPort(), try SilentServer.unusedPort())
            try configuration().write(toFile: configurationPath, atomically: true, encoding: .utf8)
            do {
                try start()
                return
            } catch let error as TestSetupError where attempt < 3 {
                attempt += 1
                print("nginx could not start (\(error)); trying other ports")
            }
        }
    }

    private func configuration() throws -> String {
        let hls = directory.appendingPathComponent("hls").path
        try FileManager.default.createDirectory(atPath: hls, withIntermediateDirectories: true)
        return """
            load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
            daemon off;
            master_process off;
            error_log \(directory.path)/error.log;
            pid \(directory.path)/nginx.pid;
            events {}
            rtmp { server { listen 127.0.0.1:\(port); application live {
                live on; hls on; hls_path \(hls); hls_fragment 1s; hls_playlist_length 6s;
                hls_variant _low BANDWIDTH=400000; hls_variant _high BANDWIDTH=1200000; } } }
            http { access_log off; server { listen 127.0.0.1:\(httpPort); location /hls/ { alias \(hls)/;
                types { application/vnd.apple.mpegurl m3u8; video/mp2t ts; } add_header Cache-Control no-cache; } } }
            """
    }

    /// The URL of stream `name`.
    func url(_ name: String = "test") -> String { "rtmp://127.0.0.1:\(port)/live/\(name)" }

    /// The URL of stream `name`'s HLS playlist.
    func hlsURL(_ name: String = "test") -> String { "http://127.0.0.1:\(httpPort)/hls/\(name).m3u8" }

    /// Whether stream `name`'s HLS playlist lists `fragments` fragments yet.
    func hlsHasFragments(_ fragments: Int, name: String = "test") -> Bool {
        (hlsPlaylist(name) ?? "").components(separatedBy: "#EXTINF").count > fragments
    }

    /// Stream `name`'s HLS playlist as nginx last wrote it; nil before it wrote one.
    func hlsPlaylist(_ name: String = "test") -> String? {
        try? String(contentsOfFile: directory.appendingPathComponent("hls/\(name).m3u8").path, encoding: .utf8)
    }

    /// Starts nginx and returns once it listens on both ports.
    func start() throws {
        let nginx = try BackgroundProcess("/usr/sbin/nginx", ["-c", configurationPath, "-p", directory.path])
        process = nginx
        do {
            try waitFor("nginx listening on \(port) and \(httpPort)", while: nginx) { [port, httpPort] in
                try nginx.isListening(on: port) && nginx.isListening(on: httpPort)
            }
        } catch {
            nginx.stop()
            throw TestSetupError("\(error): \(errorLog.suffix(400))")
        }
    }

    /// What nginx wrote to its error log so far.
    var errorLog: String {
        (try? String(contentsOfFile: directory.path + "/error.log", encoding: .utf8)) ?? ""
    }

    /// Waits until `publisher` holds a connection to nginx.
    func waitForPublisher(_ publisher: BackgroundProcess) throws {
        try waitFor("publisher connected to nginx", while: publisher) { [port] in try publisher.isConnected(to: port) }
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

/// ffmpeg publishing `file` in real time, unchanged (`-c copy`), as both variants of the
/// live HLS ladder `name` (`name_low` and `name_high`): either variant's pictures are the
/// file's, whichever a player chooses.
func publishLadder(_ file: String, to server: RTMPServer, name: String = "test", loops: Int = 0) throws -> BackgroundProcess {
    try BackgroundProcess("ffmpeg", ["-v", "error", "-nostdin", "-re", "-stream_loop", String(loops), "-i", file]
        + ["low", "high"].flatMap { ["-map", "0", "-c", "copy", "-f", "flv", server.url("\(name)_\($0)")] })
}
