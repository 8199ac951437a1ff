import Foundation

/// An ONVIF camera with an audio back-channel (`Support/onvif-server.py`, gst-rtsp-server's
/// ONVIF server) at `rtsp://127.0.0.1:PORT/cam` (`/plain` without a back-channel), showing a
/// minute of a small moving picture: what it hears on its back-channel in `codec` (PCMU or
/// PCMA), decoded by GStreamer, is ``heard()``.
final class OnvifCamera {
    let port: Int
    private let process: BackgroundProcess
    private let directory: URL
    private var logPath: String { directory.appendingPathComponent("server.log").path }
    private var output: String { directory.appendingPathComponent("heard.s16").path }
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("onvif-server.py").path

    init(codec: String) throws {
        directory = try Paths.temporaryDirectory()
        let log = directory.appendingPathComponent("server.log").path
        let picture = try Fixtures.made("onvif-camera-160x96-10fps-60s.mp4", ["-f", "lavfi", "-i", "testsrc2=size=160x96:rate=10:duration=60",
                                                                               "-c:v", "libx264", "-preset", "ultrafast", "-g", "10", "-pix_fmt", "yuv420p"])
        for _ in 0..<5 {
            let port = LocalPorts.random()
            let process = try BackgroundProcess("/usr/bin/python3", [Self.script, String(port), directory.appendingPathComponent("heard.s16").path, codec, picture], environment: ["GST_DEBUG": "2"],
                                                outputPath: log, errorPath: log + ".err")
            for _ in 0..<200 where process.isRunning {
                if (try? String(contentsOfFile: log, encoding: .utf8))?.contains("ready") == true {
                    self.port = port
                    self.process = process
                    return
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            process.stop()
        }
        throw TestSetupError("the ONVIF camera did not start: \((try? String(contentsOfFile: log + ".err", encoding: .utf8)) ?? "")")
    }

    func url(_ mount: String = "cam") -> String { "rtsp://127.0.0.1:\(port)/\(mount)" }

    /// The samples the camera decoded from its back-channel so far.
    func heard() -> [Int16] { RawSamples.read(output) }

    /// What the server wrote on its standard error (GStreamer's warnings), for failures.
    var log: String { ((try? String(contentsOfFile: logPath + ".err", encoding: .utf8)) ?? "").suffix(1500).description }

    func stop() { process.stop() }

    deinit { stop() }
}

/// 8 kHz mono 16-bit samples in a file ffmpeg reads or writes raw (`-f s16le`).
enum RawSamples {
    static func read(_ path: String) -> [Int16] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Where `a` and `b` first differ (the shorter's length when one is the other's start).
    static func firstDifference(_ a: [Int16], _ b: [Int16]) -> Int {
        (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
    }

    /// Cycles a second in `samples` at 8 kHz, counted by rising zero crossings.
    static func frequency(of samples: [Int16]) -> Double {
        let rising = zip(samples, samples.dropFirst()).filter { $0.0 < 0 && $0.1 >= 0 }.count
        return Double(rising) * 8000 / Double(max(samples.count, 1))
    }
}
