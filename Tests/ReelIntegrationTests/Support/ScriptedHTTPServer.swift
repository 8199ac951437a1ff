import Foundation

/// An HTTP server on loopback that serves one file to each client following a script:
/// send the first part, then stall for a while, or hang up.
final class ScriptedHTTPServer: @unchecked Sendable {
    enum AfterFirstPart {
        case hangUp
        case stall(seconds: Double)
    }

    let port: UInt16
    private let listener: SilentServer.Socket

    /// - Parameter fraction: the share of the file sent before `after` happens.
    init(serving path: String, fraction: Double, then after: AfterFirstPart) throws {
        let body = try Data(contentsOf: URL(fileURLWithPath: path))
        listener = try SilentServer.Socket.listening()
        port = listener.port
        let descriptor = listener.descriptor
        Thread {
            while true {
                let client = accept(descriptor, nil, nil)
                if client < 0 { return }
                Thread {
                    defer { close(client) }
                    var request = [UInt8](repeating: 0, count: 4096)
                    _ = recv(client, &request, request.count, 0)
                    let header = "HTTP/1.1 200 OK\r\nContent-Type: video/mp2t\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
                    guard Self.send(Data(header.utf8), to: client) else { return }
                    let cut = Int(Double(body.count) * fraction)
                    guard Self.send(body.prefix(cut), to: client) else { return }
                    switch after {
                    case .hangUp: return
                    case .stall(let seconds):
                        Thread.sleep(forTimeInterval: seconds)
                        _ = Self.send(body.dropFirst(cut), to: client)
                    }
                }.start()
            }
        }.start()
    }

    var url: String { "http://127.0.0.1:\(port)/stream.ts" }

    func stop() { listener.close() }

    private static func send(_ data: Data, to client: Int32) -> Bool {
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let sent = Glibc.send(client, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }
}
