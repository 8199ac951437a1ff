import Foundation

/// A request an RTSP client sends (RFC 2326): a method, a URL and headers; `CSeq` is added
/// when it is written.
package struct RTSPRequest: Sendable {
    package var method: String
    package var url: String
    /// Headers in the order written, names as given.
    package var headers: [(name: String, value: String)]

    package init(_ method: String, _ url: String, headers: [(name: String, value: String)] = []) {
        self.method = method
        self.url = url
        self.headers = headers
    }

    /// The request's bytes, numbered `sequence`.
    package func serialized(sequence: Int) -> [UInt8] {
        var text = "\(method) \(url) RTSP/1.0\r\nCSeq: \(sequence)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }
}

/// A server's response: status, headers (names lowercased) and body.
package struct RTSPResponse: Sendable, Equatable {
    package var status: Int
    package var reason: String
    /// Header values by lowercased name; a repeated header keeps every value, in order.
    package var headers: [String: [String]]
    package var body: [UInt8]

    package init(status: Int, reason: String, headers: [String: [String]] = [:], body: [UInt8] = []) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    /// The first value of header `name` (any case).
    package func header(_ name: String) -> String? { headers[name.lowercased()]?.first }

    /// The `CSeq` it answers.
    package var sequence: Int? { header("CSeq").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
}

/// What arrives on an RTSP connection: responses, and once playing over TCP, RTP and RTCP
/// packets interleaved between them (`$`, channel, 16-bit length, packet).
package enum RTSPConnectionItem: Sendable, Equatable {
    case response(RTSPResponse)
    case interleaved(channel: UInt8, packet: [UInt8])
}

/// Cuts the bytes of an RTSP connection into responses and interleaved packets, as they
/// arrive in chunks of any size. Sizes are capped: a header block above 64 KiB or a body
/// above 1 MiB is an error, as is a line that is neither.
package struct RTSPConnectionParser: Sendable {
    package static let maxHeaderBytes = 64 * 1024
    package static let maxBodyBytes = 1 << 20
    private var buffer: [UInt8] = []
    private var start = 0
    /// How far the search for the end of the headers got without finding it: the next
    /// search goes on from there, so that a header block arriving a byte at a time is
    /// searched once, not once per byte.
    private var searched = 0
    /// A response whose header block was read, waiting for the rest of its body: the
    /// headers are read once, however many pieces the body comes in (read again at each
    /// piece, a 60 KiB body arriving a byte at a time cost 60,000 readings of them).
    private var awaitingBody: (head: RTSPResponse, bodyOffset: Int, bodyLength: Int)?

    package init() {}

    /// Adds bytes as they arrive.
    package mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            searched = max(searched - start, 0)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole item, or nil until more bytes arrive.
    package mutating func next() throws(RTPError) -> RTSPConnectionItem? {
        if awaitingBody != nil { return withItsBody() }
        guard start < buffer.count else { return nil }
        if buffer[start] == 0x24 {   // "$"
            guard buffer.count - start >= 4 else { return nil }
            let length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
            guard buffer.count - start - 4 >= length else { return nil }
            let item = RTSPConnectionItem.interleaved(channel: buffer[start + 1], packet: Array(buffer[start + 4..<start + 4 + length]))
            start += 4 + length
            searched = start
            return item
        }
        guard let headerEnd = headerEnd() else {
            if buffer.count - start > Self.maxHeaderBytes { throw RTPError("an RTSP header block larger than \(Self.maxHeaderBytes) bytes") }
            if buffer.count - start >= 5, !buffer[start..<start + 5].elementsEqual("RTSP/".utf8) {
                throw RTPError("the server sent something that is not RTSP")
            }
            return nil
        }
        let head = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n").flatMap { $0.components(separatedBy: "\n") }
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        // "RTSP/" begins the response itself, as the check on a partial header block above
        // wants: spaces before it would pass here and fail there, by how the bytes arrived.
        guard head.hasPrefix("RTSP/"), statusLine.count >= 2, let status = Int(statusLine[1]), (100...999).contains(status) else {
            throw RTPError("the server sent something that is not RTSP")
        }
        var headers: [String: [String]] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw RTPError("an RTSP header without a colon: \(line.prefix(80))") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name, default: []].append(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let bodyLength = headers["content-length"]?.first.flatMap { Int($0) } ?? 0
        guard (0...Self.maxBodyBytes).contains(bodyLength) else { throw RTPError("an RTSP body of \(bodyLength) bytes (at most \(Self.maxBodyBytes))") }
        let bodyStart = headerEnd + (buffer[headerEnd] == 0x0D ? 4 : 2)
        awaitingBody = (RTSPResponse(status: status, reason: statusLine.count > 2 ? String(statusLine[2]) : "", headers: headers),
                        bodyStart - start, bodyLength)
        return withItsBody()
    }

    /// The response whose headers were read, once its whole body is there.
    private mutating func withItsBody() -> RTSPConnectionItem? {
        guard let (head, bodyOffset, bodyLength) = awaitingBody, buffer.count - start - bodyOffset >= bodyLength else { return nil }
        var response = head
        response.body = Array(buffer[start + bodyOffset..<start + bodyOffset + bodyLength])
        start += bodyOffset + bodyLength
        searched = start
        awaitingBody = nil
        return .response(response)
    }

    /// Where the blank line that ends the headers begins (CRLF CRLF, or LF LF).
    private mutating func headerEnd() -> Int? {
        // The last three bytes searched may begin the blank line with the bytes that came since.
        var index = max(start, searched - 3)
        let limit = min(buffer.count, start + Self.maxHeaderBytes + 4)
        while index + 1 < limit {
            if buffer[index] == 0x0A && buffer[index + 1] == 0x0A { return index }
            if index + 3 < buffer.count, buffer[index] == 0x0D, buffer[index + 1] == 0x0A, buffer[index + 2] == 0x0D, buffer[index + 3] == 0x0A {
                return index
            }
            index += 1
        }
        searched = max(index, start)
        return nil
    }
}
