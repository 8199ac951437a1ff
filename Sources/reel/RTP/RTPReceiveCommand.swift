import ArgumentParser
import Foundation
import Reel
import ReelCore

struct RTPReceiveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receive",
        abstract: "Receive an RTP video stream and record it without decoding.",
        discussion: """
            The SDP names the codec, the payload type, the parameter sets and the SRTP keys. Packets \
            arrive on plain UDP at the SDP's address and port, or by --transport: hello (UDP to a \
            server with a hello and heartbeats, --server HOST:PORT), tcp (RFC 4571 framing, \
            --server HOST:PORT) or http (a progressive download, --url). The final report is JSON \
            on standard output.
            """)

    @Option(help: "The session description (.sdp).")
    var sdp: String

    @Option(help: "Write the stream to a file: .h264/.h265 (Annex B) or .mp4/.mkv/.mov.")
    var record: String?

    @Flag(help: "Print a live line of counts on stderr.")
    var stats = false

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    @Option(name: .customLong("idle-timeout"), help: "Stop when no packet arrived for this many seconds (after the first one).")
    var idleTimeout: Double?

    @Option(help: "Milliseconds a packet behind a gap waits for the missing ones (0 to 2000).")
    var latency: Int = 200

    @Option(help: "udp, hello, tcp or http.")
    var transport: String = "udp"

    @Option(help: "The server for --transport hello or tcp: HOST:PORT.")
    var server: String?

    @Option(help: "The URL for --transport http.")
    var url: String?

    @Option(name: .customLong("listen"), help: "The local address for --transport udp (the SDP's by default).")
    var listenAddress: String?

    @Option(name: .customLong("local-port"), help: "The local port for --transport hello (chosen by the system by default).")
    var localPort: Int = 0

    @Option(name: .customLong("heartbeat-interval"), help: "Seconds between heartbeats for --transport hello.")
    var heartbeatInterval: Double = 1

    @Option(name: .customLong("srtp-key"), help: "SRTP master key and salt, base64 (30 bytes), instead of the SDP's a=crypto.")
    var srtpKey: String?

    @Option(name: .customLong("srtp-suite"), help: "AES_CM_128_HMAC_SHA1_80 or AES_CM_128_HMAC_SHA1_32.")
    var srtpSuite: String = SRTPCryptoSuite.aesCM128HMACSHA1_80.rawValue

    @Flag(name: .customLong("keep-damaged"), help: "Record every access unit, damaged ones too, instead of waiting for a keyframe after a loss.")
    var keepDamaged = false

    @Option(name: .customLong("report-interval"), help: "Seconds between RTCP receiver reports.")
    var reportInterval: Double = 5

    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard (0...2000).contains(latency) else { throw ValidationError("--latency must be 0 to 2000 ms") }
        guard duration.map({ $0 > 0 }) ?? true else { throw ValidationError("--duration must be positive") }
        guard ["udp", "hello", "tcp", "http"].contains(transport) else { throw ValidationError("--transport is udp, hello, tcp or http") }
        if transport == "hello" || transport == "tcp" { guard server != nil else { throw ValidationError("--transport \(transport) needs --server HOST:PORT") } }
        if transport == "http" { guard url != nil else { throw ValidationError("--transport http needs --url") } }
        guard SRTPCryptoSuite(rawValue: srtpSuite) != nil else { throw ValidationError("--srtp-suite is AES_CM_128_HMAC_SHA1_80 or AES_CM_128_HMAC_SHA1_32") }
    }

    func run() async throws {
        common.setUpLogging()
        try await failing {
            let description = try SessionDescriptionFile.read(sdp)
            var configuration = RTPReceiver.Configuration(description: description, transport: try transportKind(description))
            configuration.latency = Double(latency) / 1000
            configuration.waitForKeyframe = !keepDamaged
            configuration.receiverReportInterval = reportInterval
            if let srtpKey { configuration.crypto = try SDPCrypto(suite: SRTPCryptoSuite(rawValue: srtpSuite)!, keyBase64: srtpKey) }
            let recorder = try record.map { try LockedRecorder(AccessUnitRecorder(path: $0, codec: description.codec, clockRate: description.clockRate)) }
            let receiver = try RTPReceiver(configuration: configuration)
            try await receiver.start { unit in recorder?.write(unit) }
            let live = stats ? LiveLine(receiver: receiver) : nil
            live?.start()
            let ending = await waitForEnd(of: receiver)
            let statistics = await receiver.stop()
            live?.stop()
            try recorder?.finish()
            try RTPReport(statistics: statistics, transport: configuration.transport.label, codec: description.codec.rawValue,
                          recorded: record, accessUnitsWritten: recorder?.written ?? 0, ending: ending).print()
            if let error = receiver.error { throw RTPError("the stream ended with an error: \(error)") }
            if statistics.packets.received == 0 {
                if statistics.authenticationFailures > 0 { throw RTPError("every packet failed SRTP authentication (\(statistics.authenticationFailures)): is the key right?") }
                throw RTPError("no RTP packet arrived from \(configuration.transport.label)")
            }
        }
    }

    private func transportKind(_ description: SessionDescription) throws -> RTPTransportKind {
        switch transport {
        case "hello", "tcp":
            let (host, port) = try HostAndPort.parse(server ?? "")
            return transport == "tcp" ? .tcp(host: host, port: port)
                : .udpHello(server: host, port: port, localPort: localPort, interval: heartbeatInterval)
        case "http":
            return .httpProgressive(url: url ?? "")
        default:
            return .udp(address: listenAddress ?? description.address, port: description.port)
        }
    }

    /// Why receiving stopped. Checks a few times a second, at once on a signal and exactly
    /// at the end of --duration (a wake every few milliseconds would cost more CPU than
    /// the packets).
    private func waitForEnd(of receiver: RTPReceiver) async -> String {
        let waiting = LockedValue<Task<String, Never>?>(nil)
        // Ctrl-C or a TERM ends the recording properly (an MP4 needs its index written).
        let interrupts = InterruptSignals { waiting.withLock { $0?.cancel() } }
        let task = Task { await checkForEnd(of: receiver, interrupts: interrupts) }
        waiting.withLock { $0 = task }
        if interrupts.received { task.cancel() }
        let reason = await task.value
        withExtendedLifetime(interrupts) {}
        return reason
    }

    private func checkForEnd(of receiver: RTPReceiver, interrupts: InterruptSignals) async -> String {
        let period = min(0.25, (idleTimeout ?? 1) / 4)
        let started = monotonicSeconds()
        var lastBytes = 0, lastChange = started
        while true {
            let now = monotonicSeconds()
            if receiver.isFinished { return "the transport ended" }
            if interrupts.received { return "interrupted" }
            if let duration, now - started >= duration { return "duration reached" }
            let bytes = receiver.statistics.bytesReceived
            if bytes != lastBytes {
                lastBytes = bytes
                lastChange = now
            }
            if bytes > 0, let idleTimeout, now - lastChange >= idleTimeout { return "idle for \(idleTimeout) s" }
            if bytes == 0, common.timeout > 0, duration == nil, now - started >= common.timeout { return "nothing arrived in \(common.timeout) s" }
            let untilDuration = duration.map { started + $0 - now } ?? .infinity
            try? await Task.sleep(for: .seconds(max(0.001, min(period, untilDuration))))
        }
    }
}

/// The recorder, written from the receiving thread; the first write error is kept.
final class LockedRecorder: @unchecked Sendable {
    private let recorder: AccessUnitRecorder
    private let lock = NSLock()
    private var failure: Error?

    init(_ recorder: AccessUnitRecorder) { self.recorder = recorder }

    func write(_ unit: AccessUnit) {
        lock.withLock {
            guard failure == nil else { return }
            do { try recorder.write(unit) } catch { failure = error }
        }
    }

    var written: Int { lock.withLock { recorder.writtenUnits } }

    func finish() throws {
        try lock.withLock {
            do {
                // After a failed write, what can still be written is; the failure is reported.
                if let failure {
                    try? recorder.finish()
                    throw failure
                }
                try recorder.finish()
            } catch {
                let detail = (error as? OutputError)?.detail ?? "\(error)"
                throw OutputError(recorder.path, "\(detail); what was recorded before that is kept and plays")
            }
        }
    }
}

enum SessionDescriptionFile {
    static func read(_ path: String) throws -> SessionDescription {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { throw RTPError("cannot open \(path)") }
        guard (attributes[.size] as? Int ?? 0) <= 1 << 20 else { throw RTPError("\(path) is larger than 1 MiB: not an SDP") }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw RTPError("\(path) is not readable UTF-8 text")
        }
        do { return try SessionDescription(parsing: text) } catch { throw RTPError("\(path): \(error)") }
    }
}

enum HostAndPort {
    /// `host:port` or `[v6]:port`.
    static func parse(_ text: String) throws -> (String, Int) {
        var host = text, portText = ""
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = String(text[close...].dropFirst(2))
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
        }
        guard !host.isEmpty, let port = Int(portText), (1...65535).contains(port) else { throw ValidationError("expected HOST:PORT, got \(text)") }
        return (host, port)
    }
}
