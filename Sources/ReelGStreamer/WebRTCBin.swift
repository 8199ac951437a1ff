import CGStreamer
import Foundation
import ReelCore

/// What receiving and sending share of `webrtcbin`: its states, read by GStreamer's names,
/// and the offer/answer of a session with its server.
enum WebRTCBin {
    /// How long the offer waits for the host's candidates (they come within milliseconds;
    /// a STUN server's may not, and are trickled after it).
    static let gatheringWait = 1.0

    /// GStreamer's names of `GstWebRTCICEConnectionState`'s values, in order.
    private static let iceStates = ["new", "checking", "connected", "completed", "failed", "disconnected", "closed"]
    /// GStreamer's names of `GstWebRTCPeerConnectionState`'s values (ICE and DTLS together), in order.
    private static let connectionStates = ["new", "connecting", "connected", "disconnected", "failed", "closed"]

    /// The ICE connection's state, by GStreamer's name.
    static func iceConnection(of webrtc: UnsafeMutablePointer<GstElement>) -> String {
        name(reel_g_object_get_enum(UnsafeMutableRawPointer(webrtc), "ice-connection-state"), in: iceStates)
    }

    /// The peer connection's state (ICE, then DTLS: `connected` once media can flow), by
    /// GStreamer's name.
    static func connection(of webrtc: UnsafeMutablePointer<GstElement>) -> String {
        name(reel_g_object_get_enum(UnsafeMutableRawPointer(webrtc), "connection-state"), in: connectionStates)
    }

    static func isGatheringComplete(_ webrtc: UnsafeMutablePointer<GstElement>) -> Bool {
        reel_g_object_get_enum(UnsafeMutableRawPointer(webrtc), "ice-gathering-state") == reel_webrtc_enum_value("gst_webrtc_ice_gathering_state_get_type", "complete")
    }

    /// Why a session is lost, when ICE says it is (`disconnected`: the peer stopped
    /// answering its consent checks; `failed`, `closed`); nil while it is not.
    static func lostConnection(of webrtc: UnsafeMutablePointer<GstElement>) -> String? {
        let state = iceConnection(of: webrtc)
        return ["disconnected", "failed", "closed"].contains(state) ? "the WebRTC connection was lost (ICE \(state))" : nil
    }

    private static func name(_ value: gint, in names: [String]) -> String {
        names.indices.contains(Int(value)) ? names[Int(value)] : "unknown"
    }

    /// Has `webrtc` (started) make its offer, waits with `wait` up to ``gatheringWait`` for
    /// its host candidates, sends the offer through `candidates`' signalling, and sets the
    /// server's answer, which it returns. Throws the signalling's error as it is.
    static func negotiate(_ webrtc: UnsafeMutablePointer<GstElement>, through candidates: WebRTCCandidates, until deadline: Date,
                          wait: (Date, () -> Bool) throws -> Bool) throws -> WebRTCDescription {
        var refusal: UnsafeMutablePointer<gchar>?
        guard let offerText = reel_webrtc_create_offer(webrtc, &refusal) else {
            defer { g_free(refusal) }
            throw GStreamerError("webrtcbin made no offer: \(refusal.map { String(cString: $0) } ?? "no reason given")")
        }
        let offer = String(cString: offerText)
        g_free(offerText)
        _ = try wait(min(deadline, Date().addingTimeInterval(gatheringWait))) { candidates.isGatheringDone }
        let answerText = try candidates.exchange(offerText: offer)
        let answer: WebRTCDescription
        do { answer = try WebRTCDescription(parsing: answerText) } catch { throw GStreamerError("the server's answer: \(error)", kind: .notMedia) }
        if let failed = reel_webrtc_set_remote_description(webrtc, "answer", answerText) {
            defer { g_free(failed) }
            throw GStreamerError("webrtcbin refused the server's answer: \(String(cString: failed))")
        }
        return answer
    }
}
