import CGStreamer
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

    /// The `webrtcbin` watched and its pipeline's bus (``watch(_:postingTo:)``), alive as
    /// long as the pipeline: its owner stops it before letting this go.
    private var watched: (webrtc: UnsafeMutablePointer<GstElement>, bus: UnsafeMutablePointer<GstBus>)?

    init(signalling: WebRTCSignalling) { self.signalling = signalling }

    /// Takes `webrtc`'s local candidates (for the offer, or trickled after it) and the end
    /// of their gathering; each change of its ICE or connection state is posted on `bus`
    /// as an application message, for whoever waits on the bus to look again.
    func watch(_ webrtc: UnsafeMutablePointer<GstElement>, postingTo bus: UnsafeMutablePointer<GstBus>) {
        lock.withLock { watched = (webrtc, bus) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        reel_webrtc_connect_ice_candidate(webrtc, { _, mediaIndex, candidate, context in
            guard let candidate, let context else { return }
            Unmanaged<WebRTCCandidates>.fromOpaque(context).takeUnretainedValue().add(String(cString: candidate), mediaIndex: Int(mediaIndex))
        }, context)
        for property in ["ice-gathering-state", "ice-connection-state", "connection-state"] {
            reel_g_connect_notify(UnsafeMutableRawPointer(webrtc), property, { _, _, context in
                guard let context else { return }
                Unmanaged<WebRTCCandidates>.fromOpaque(context).takeUnretainedValue().noteState()
            }, context)
        }
    }

    /// A state of the watched `webrtcbin` changed (an ICE or DTLS thread).
    private func noteState() {
        guard let (webrtc, bus) = lock.withLock({ watched }) else { return }
        if WebRTCBin.isGatheringComplete(webrtc) { finishGathering() }
        guard let word = gst_structure_new_empty("reel-webrtc-state"), let message = gst_message_new_application(reel_gst_object(webrtc), word) else { return }
        gst_bus_post(bus, message)
    }

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
