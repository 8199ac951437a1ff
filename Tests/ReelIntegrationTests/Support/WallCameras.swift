import Foundation

/// Cameras for the camera wall's tests: each file sent looping by ffmpeg (`-re -stream_loop
/// -1 -c copy`, as a camera sends for ever) in RTP to a loopback port, relayed by a
/// gst-rtsp-server of its own (`Support/wall-server.py`) at `rtsp://127.0.0.1:PORT/NAME`, so
/// that one camera can go away (``cut(_:)``) and come back (``restore(_:)``) alone.
final class WallCameras {
    private struct Camera {
        var port: Int
        var rtpPort: Int
        var parameterSets: String
        var server: BackgroundProcess?
        var sender: BackgroundProcess
    }

    private var cameras: [String: Camera] = [:]
    private let directory: URL
    private let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("wall-server.py").path

    init(_ mounts: [(name: String, file: String)]) throws {
        directory = try Paths.temporaryDirectory()
        for mount in mounts {
            var started = false
            for _ in 0..<5 where !started {
                started = try start(mount, base: LocalPorts.random())
            }
            guard started else {
                throw TestSetupError("the RTSP server of \(mount.name) did not start: \((try? String(contentsOfFile: log(mount.name), encoding: .utf8)) ?? "")")
            }
        }
    }

    /// The stream of camera `name`.
    func url(_ name: String) -> String { "rtsp://127.0.0.1:\(cameras[name]?.port ?? 0)/\(name)" }

    /// Ends camera `name`'s server at once (SIGKILL), as a camera that loses power: its
    /// clients' connections close.
    func cut(_ name: String) {
        cameras[name]?.server?.kill()
        cameras[name]?.server = nil
    }

    /// Starts camera `name`'s server again on its port.
    func restore(_ name: String) throws {
        guard let camera = cameras[name], camera.server == nil else { return }
        guard let server = try serve(name, port: camera.port, rtpPort: camera.rtpPort, parameterSets: camera.parameterSets) else {
            throw TestSetupError("the RTSP server of \(name) did not start again on port \(camera.port)")
        }
        cameras[name]?.server = server
    }

    func stop() {
        for camera in cameras.values {
            camera.sender.stop()
            camera.server?.stop()
        }
        cameras.removeAll()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private func log(_ name: String) -> String { directory.appendingPathComponent("\(name).log").path }

    /// Starts the sender and the server of `mount` on ports from `base`; false when the server could not listen.
    private func start(_ mount: (name: String, file: String), base: Int) throws -> Bool {
        let rtpPort = base + 2
        let sdp = directory.appendingPathComponent("\(mount.name).sdp").path
        try? FileManager.default.removeItem(atPath: sdp)
        let sender = try BackgroundProcess("/usr/bin/ffmpeg", ["-v", "error", "-nostdin", "-re", "-stream_loop", "-1", "-i", mount.file, "-map", "0:v",
                                                               "-c", "copy", "-f", "rtp", "-sdp_file", sdp, "rtp://127.0.0.1:\(rtpPort)"])
        // The relay takes the parameter sets from the sender's SDP, written as it starts.
        var parameterSets: String?
        for _ in 0..<100 where parameterSets == nil {
            parameterSets = (try? String(contentsOfFile: sdp, encoding: .utf8)).flatMap(Self.parameterSets)
            if parameterSets == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        guard let parameterSets else {
            sender.stop()
            throw TestSetupError("ffmpeg wrote no SDP with parameter sets for \(mount.file)")
        }
        guard let server = try serve(mount.name, port: base, rtpPort: rtpPort, parameterSets: parameterSets) else {
            sender.stop()
            return false
        }
        cameras[mount.name] = Camera(port: base, rtpPort: rtpPort, parameterSets: parameterSets, server: server, sender: sender)
        return true
    }

    /// The relay of camera `name` on `port`, once it says it is ready; nil when it did not start.
    private func serve(_ name: String, port: Int, rtpPort: Int, parameterSets: String) throws -> BackgroundProcess? {
        let process = try BackgroundProcess("/usr/bin/python3", [script, String(port), "/\(name)=\(rtpPort):\(parameterSets)"],
                                            outputPath: log(name), errorPath: log(name) + ".err")
        for _ in 0..<100 where process.isRunning {
            if (try? String(contentsOfFile: log(name), encoding: .utf8))?.contains("ready") == true { return process }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.stop()
        return nil
    }

    private static func parameterSets(in sdp: String) -> String? {
        guard let range = sdp.range(of: "sprop-parameter-sets=") else { return nil }
        let value = sdp[range.upperBound...].prefix { !$0.isWhitespace && $0 != ";" }
        return value.isEmpty ? nil : String(value)
    }
}
