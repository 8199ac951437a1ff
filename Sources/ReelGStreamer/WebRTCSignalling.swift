import Foundation
import ReelCore

/// How a WebRTC session is set up with its server (WHEP to watch, WHIP to publish): done
/// over HTTP by the caller, outside GStreamer. `webrtcbin` makes the offer and reads the
/// answer; this carries them.
public protocol WebRTCSignalling: AnyObject, Sendable {
    /// Sends `offer` (SDP, with the candidates gathered so far) and returns the server's
    /// answer (SDP); throws the server's refusal as the error a user should read.
    func exchange(offer: String) throws -> String
    /// Sends candidates found after the offer, as a trickle-ICE fragment (the body of a
    /// PATCH); a server that takes none may refuse it.
    func trickle(_ fragment: String)
    /// Ends the session at the server (a DELETE of its resource).
    func end()
}

/// What a WebRTC session keeps beside its pipeline: the signalling, the offer, and the local
/// candidates, sent with the offer or trickled after it.
final class WebRTCCandidates: @unchecked Sendable {
    let signalling: WebRTCSignalling
    private let lock = NSLock()
    private var gathered: [(mediaIndex: Int, candidate: String)] = []
    private var offer: WebRTCDescription?
    private var gatheringDone = false
    private var ended = false
    /// Trickles leave libnice's thread at once and go out in order, one at a time.
    private let trickles = DispatchQueue(label: "reel.webrtc.trickle")

    init(signalling: WebRTCSignalling) { self.signalling = signalling }

    var isGatheringDone: Bool { lock.withLock { gatheringDone } }

    /// A local candidate came (libnice's thread): kept for the offer, or trickled after it.
    func add(_ candidate: String, mediaIndex: Int) {
        let fragment = lock.withLock { () -> String? in
            guard let offer else {
                gathered.append((mediaIndex, candidate))
                return nil
            }
            return TrickleFragment.body(offer: offer, candidates: [(mediaIndex, candidate)], gatheringDone: false)
        }
        if let fragment { trickles.async { self.signalling.trickle(fragment) } }
    }

    /// Gathering is over (once): said in the offer, or trickled after it.
    func finishGathering() {
        let fragment = lock.withLock { () -> String? in
            guard !gatheringDone else { return nil }
            gatheringDone = true
            return offer.flatMap { TrickleFragment.body(offer: $0, candidates: [], gatheringDone: true) }
        }
        if let fragment { trickles.async { self.signalling.trickle(fragment) } }
    }

    /// Sends `offerText` with the candidates gathered until now and returns the answer;
    /// candidates that come later are trickled, once the answer has named the session.
    func exchange(offerText: String) throws -> String {
        trickles.suspend()
        defer { trickles.resume() }
        let full = try lock.withLock { () throws -> String in
            offer = try WebRTCDescription(parsing: offerText)
            return WebRTCDescription.adding(candidates: gathered, to: offerText, gatheringDone: gatheringDone)
        }
        return try signalling.exchange(offer: full)
    }

    /// Ends the session at the server, once, after any trickle still going out.
    func end() {
        guard lock.withLock({ () -> Bool in
            defer { ended = true }
            return !ended
        }) else { return }
        trickles.sync {}
        signalling.end()
    }
}
