import Foundation
import Testing

/// Streams for the receiver tests: encoded once by ffmpeg into a file (the oracle is
/// ffmpeg's decode of that file), then sent by a real sender while `reel rtp receive`
/// records it.
enum RTPStreams {
    static let source = ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25", "-t", "3"]

    /// The encoded file, cached by its arguments.
    static func encoded(_ name: String, _ encoder: [String], container: String = "ts") throws -> String {
        try CachedFile.at(Paths.cache.appendingPathComponent("rtp-\(name).\(container)").path) { partial in
            let made = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-y"] + source + encoder + [partial])
            guard made.status == 0 else { throw TestSetupError("ffmpeg could not make \(name): \(made.stderr)") }
        }
    }

    /// The file encoded for one of ``PlaybackTests/FFmpegSenderTests/cases``.
    static func sent(_ name: String) throws -> String {
        guard let item = PlaybackTests.FFmpegSenderTests.cases.first(where: { $0.name == name }) else { throw TestSetupError("no case \(name)") }
        return try encoded(item.name, item.encoder, container: item.container)
    }

    /// The SDP ffmpeg writes for sending `file` to `url`: it is written as the sender starts,
    /// so a first run of one frame writes it (that frame goes to `url` before anyone listens).
    static func writeSDP(for file: String, to url: String, sender: [String] = [], in directory: URL) throws -> String {
        let sdp = directory.appendingPathComponent("stream.sdp").path
        let dry = try Processes.run("ffmpeg", ["-v", "error", "-nostdin", "-i", file, "-c", "copy", "-frames:v", "1"] + sender
                                    + ["-f", "rtp", "-sdp_file", sdp, url])
        guard dry.status == 0 else { throw TestSetupError("ffmpeg could not write the SDP: \(dry.stderr)") }
        return sdp
    }

    /// The MD5 of every decoded frame, in order (ffmpeg's framemd5, timestamps left out).
    static func frameHashes(_ path: String, extra: [String] = []) throws -> [String] {
        let result = try Processes.run("ffmpeg", ["-v", "error", "-nostdin"] + extra + ["-i", path, "-f", "framemd5", "-"])
        guard result.status == 0 else { throw TestSetupError("ffmpeg could not decode \(path): \(result.stderr)") }
        return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// An even UDP port on loopback, with the odd one after it, that nothing holds now.
    static func freePortPair() throws -> Int {
        for _ in 0..<50 {
            let port = LocalPorts.random()
            if isFree(port) && isFree(port + 1) { return port }
        }
        throw TestSetupError("no free UDP port pair")
    }

    static func isFree(_ port: Int) -> Bool {
        let probe = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } == 0
    }

    /// Waits until someone has bound `port` (the receiver is listening).
    static func waitUntilBound(_ port: Int, seconds: Double = 20) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !isBound(port) {
            guard Date() < deadline else { throw TestSetupError("nothing bound UDP port \(port) within \(seconds) s") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Whether a UDP socket on this host is bound to `port`, as `ss` lists them. Not by
    /// binding it: a probe that holds the port as the receiver binds it makes the receiver
    /// fail, and the wait then runs out (a CI run saw it once).
    static func isBound(_ port: Int) -> Bool {
        (try? Processes.run("ss", ["-Huan", "sport = :\(port)"]).stdout.isEmpty) == false
    }

    /// `reel rtp receive` in the background, its JSON report in a file.
    final class Receiver {
        let process: BackgroundProcess
        let reportPath: String
        let errorPath: String

        init(_ arguments: [String], directory: URL) throws {
            reportPath = directory.appendingPathComponent("report-\(UUID().uuidString).json").path
            errorPath = reportPath + ".err"
            process = try BackgroundProcess(Paths.reel, ["rtp", "receive"] + arguments, outputPath: reportPath, errorPath: errorPath)
        }

        /// For a receiver started with `--stats`: waits until its live line counts `packets`
        /// received (or `seconds` pass), ends it with SIGINT as Ctrl-C does, and reads its
        /// report. Waiting for the count, not for an idle timeout, lets a sender pause for
        /// as long as a busy machine makes it.
        func report(afterReceiving packets: Int, within seconds: Double = 30) throws -> [String: Any] {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline && received < packets { Thread.sleep(forTimeInterval: 0.05) }
            process.interrupt()
            return try report()
        }

        /// The packet count of the last live line on standard error.
        private var received: Int {
            let lines = ((try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "").split(separator: "\r")
            guard let line = lines.last(where: { $0.contains(" pkts") }), let range = line.range(of: " pkts") else { return 0 }
            return Int(line[..<range.lowerBound].split(separator: " ").last ?? "") ?? 0
        }

        /// Waits for the receiver to stop on its own, then reads its report. One that does
        /// not stop is described first: its threads' stacks, and whether packets still came
        /// (a hunt run's receiver went on past 30 s with nothing said, after a 3 s stream).
        func report(within seconds: Double = 30) throws -> [String: Any] {
            let stillRunning = !process.waitForExit(within: seconds)
            let stuck = stillRunning ? "\nports: \((try? Processes.run("ss", ["-Huanp"]).stdout) ?? "?")\nstacks:\n\(process.stacks)" : ""
            process.stop()
            let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
            guard !stillRunning else { throw TestSetupError("reel rtp receive did not stop within \(seconds) s: \(errors.suffix(2000))\(stuck)") }
            guard process.exitStatus == 0 else { throw TestSetupError("reel rtp receive failed (\(process.exitStatus ?? -1)): \(errors)") }
            let data = try Data(contentsOf: URL(fileURLWithPath: reportPath))
            guard let report = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw TestSetupError("no JSON report") }
            return report
        }
    }

    static func packetCounts(_ report: [String: Any]) -> [String: Int] {
        let statistics = report["statistics"] as? [String: Any] ?? [:]
        var counts = (statistics["packets"] as? [String: Any] ?? [:]).compactMapValues { $0 as? Int }
        for (key, value) in statistics { if let number = value as? Int { counts[key] = number } }
        return counts
    }
}
