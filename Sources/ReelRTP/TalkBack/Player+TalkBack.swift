import ReelCore
import ReelPlayer

extension Player {
    /// Talks to the `rtsp://` camera this player plays, through its ONVIF audio
    /// back-channel (a session of its own beside the playback): `source`'s audio sent as
    /// the camera asks, from now until it ends or the talk is stopped.
    ///
    /// Throws when nothing is open, the input is not an RTSP camera, or the camera has no
    /// back-channel Reel can send to.
    public func talk(_ source: any TalkSource, transport: TalkBack.Transport? = nil) throws -> TalkBack {
        guard let url = currentURL else { throw InputError(.other, operation: .open, url: "", detail: "the player has no camera open to talk to") }
        guard url.lowercased().hasPrefix("rtsp://") else {
            throw InputError(.invalidData, operation: .open, url: url, detail: "talking back needs an rtsp:// camera (its ONVIF back-channel)")
        }
        let talk = try TalkBack(url: url, source: source, transport: transport)
        talk.start()
        // The window's `t` turns this talk on and off.
        setPushToTalk { [weak talk] in talk?.toggleTalking() ?? false }
        return talk
    }
}
