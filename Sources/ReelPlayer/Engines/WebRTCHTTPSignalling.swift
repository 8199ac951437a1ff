import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReelCore
import ReelGStreamer

/// The HTTP side of WHEP (draft-ietf-wish-whep) and WHIP (RFC 9725), one exchange for
/// both: the offer is POSTed to the endpoint, the answer and the session's `Location` come
/// back; candidates found later are PATCHed to the session while the server takes them;
/// the session is DELETEd at the end. A bearer token goes with every request when given.
package final class WebRTCHTTPSignalling: WebRTCSignalling, @unchecked Sendable {
    let endpoint: WebRTCEndpoint
    /// The URL the user gave, for errors.
    let given: String
    private let token: String?
    private let timeout: Double
    private let lock = NSLock()
    private var session: (url: URL, entityTag: String?)?
    /// The server refused a trickle (405, 501…): it takes candidates in offers only.
    private var tricklesRefused = false

    /// How long the session's DELETE may take when the player stops.
    static let endTimeout = 2.0

    package init(endpoint: WebRTCEndpoint, given: String, token: String?, timeout: Double) {
        self.endpoint = endpoint
        self.given = given
        self.token = token
        self.timeout = timeout
    }

    package func exchange(offer: String) throws -> String {
        guard let url = URL(string: endpoint.url) else { throw InputError(.other, operation: .open, url: given, detail: "not a URL") }
        let (data, response) = try send(request(url, method: "POST", type: "application/sdp", body: offer), timeout: timeout)
        guard (200..<300).contains(response.statusCode) else {
            throw InputError(.httpStatus(response.statusCode), operation: .open, url: given, detail: Self.firstLine(of: data))
        }
        guard data.count <= WebRTCDescription.maximumBytes else {
            throw InputError(.invalidData, operation: .open, url: given, detail: "the answer is over \(WebRTCDescription.maximumBytes / 1024) KiB")
        }
        if let location = response.value(forHTTPHeaderField: "Location"), let sessionURL = endpoint.sessionURL(location: location).flatMap(URL.init(string:)) {
            lock.withLock { session = (sessionURL, response.value(forHTTPHeaderField: "ETag")) }
        }
        return String(decoding: data, as: UTF8.self)
    }

    package func trickle(_ fragment: String) {
        guard let session = lock.withLock({ tricklesRefused ? nil : session }) else { return }
        var patch = request(session.url, method: "PATCH", type: TrickleFragment.contentType, body: fragment)
        patch.setValue(session.entityTag ?? "\"*\"", forHTTPHeaderField: "If-Match")
        guard let (_, response) = try? send(patch, timeout: timeout) else { return }
        // 405 and 501 say the server takes no trickle; a refused fragment is not retried.
        if !(200..<300).contains(response.statusCode) { lock.withLock { tricklesRefused = true } }
    }

    package func end() {
        guard let session = lock.withLock({ () -> (url: URL, entityTag: String?)? in
            defer { self.session = nil }
            return self.session
        }) else { return }
        _ = try? send(request(session.url, method: "DELETE", type: nil, body: nil), timeout: Self.endTimeout)
    }

    private func request(_ url: URL, method: String, type: String?, body: String?) -> URLRequest {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        if let type { request.setValue(type, forHTTPHeaderField: "Content-Type") }
        if method == "POST" { request.setValue("application/sdp", forHTTPHeaderField: "Accept") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    /// Sends `request` and waits for its answer, at most `timeout` seconds.
    private func send(_ request: URLRequest, timeout: Double) throws -> (Data, HTTPURLResponse) {
        let answer = LockedValue<Result<(Data, HTTPURLResponse), any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        var bounded = request
        bounded.timeoutInterval = timeout
        let task = URLSession.shared.dataTask(with: bounded) { data, response, error in
            answer.withLock {
                if let response = response as? HTTPURLResponse {
                    $0 = .success((data ?? Data(), response))
                } else {
                    $0 = .failure(error ?? URLError(.badServerResponse))
                }
            }
            done.signal()
        }
        task.resume()
        if done.wait(timeout: .now() + timeout + 1) == .timedOut {
            task.cancel()
            throw InputError(.timedOut(seconds: timeout), operation: .open, url: given)
        }
        switch answer.withLock({ $0 }) {
        case .success(let result)?: return result
        case .failure(let error)?: throw inputError(error)
        case nil: throw InputError(.other, operation: .open, url: given)
        }
    }

    /// A transport failure as the error a user reads.
    private func inputError(_ error: any Error) -> InputError {
        switch (error as? URLError)?.code {
        case .cannotConnectToHost?: InputError(.connectionRefused, operation: .open, url: given)
        case .timedOut?: InputError(.timedOut(seconds: timeout), operation: .open, url: given)
        case .cannotFindHost?: InputError(.notFound, operation: .open, url: given, detail: "no such host")
        default: InputError(.other, operation: .open, url: given, detail: "\(error.localizedDescription)")
        }
    }

    /// The first line of a refusal's body (a server's reason), if it is short text.
    private static func firstLine(of data: Data) -> String? {
        String(decoding: data.prefix(200), as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init)
    }
}
