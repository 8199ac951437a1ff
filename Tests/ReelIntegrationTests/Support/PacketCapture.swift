import Foundation

/// Wireshark's dumpcap capturing UDP on loopback, then tshark reading what it captured:
/// Wireshark's dissectors are the independent oracle for what went on the wire. (dumpcap is
/// run itself: a tshark ended by SIGINT left its dumpcap running and itself unreaped.)
final class PacketCapture {
    private let file: String
    private let errors: String
    private let dumpcap: BackgroundProcess

    /// Starts capturing the UDP `ports` on loopback for at most `seconds`; returns once
    /// dumpcap is capturing.
    init(udpPorts ports: [Int], seconds: Int = 60, in directory: URL) throws {
        file = directory.appendingPathComponent("capture.pcapng").path
        errors = directory.appendingPathComponent("dumpcap.err").path
        let filter = ports.map { "udp port \($0)" }.joined(separator: " or ")
        dumpcap = try BackgroundProcess("dumpcap", ["-q", "-i", "lo", "-f", filter, "-a", "duration:\(seconds)", "-w", file], errorPath: errors)
        for _ in 0..<300 {
            if (try? String(contentsOfFile: errors, encoding: .utf8))?.contains("Capturing on") == true { return }
            guard dumpcap.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        dumpcap.stop()
        throw TestSetupError("dumpcap did not start capturing: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
    }

    /// Waits (up to `timeout` seconds) until `count` captured packets match `filter`: what
    /// was sent last is on file before the capture ends.
    func waitFor(_ count: Int, matching filter: String, decodeAs: [String], timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? rows(matching: filter, fields: ["frame.number"], decodeAs: decodeAs).count) ?? 0 >= count { return }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    /// Ends the capture, as Ctrl-C does (dumpcap then writes out what it holds).
    func stop() {
        dumpcap.interrupt()
        for _ in 0..<100 where dumpcap.isRunning { Thread.sleep(forTimeInterval: 0.05) }
        dumpcap.stop()
    }

    /// `fields` of every captured packet that `filter` matches, with `decodeAs` rules
    /// (`udp.port==5004,rtp`), one row per packet.
    func rows(matching filter: String, fields: [String], decodeAs: [String]) throws -> [[String]] {
        let arguments = ["-r", file] + decodeAs.flatMap { ["-d", $0] } + ["-Y", filter, "-T", "fields", "-E", "separator=|"]
            + fields.flatMap { ["-e", $0] }
        let result = try Processes.run("tshark", arguments)
        guard result.status == 0 else { throw TestSetupError("tshark -r: \(result.stderr)") }
        return result.stdout.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
    }
}
