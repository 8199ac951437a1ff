import Reel

extension TrackRequest {
    /// mpv's pair of options for a track type: `--aid`/`--sid` (`N`, `auto`, `no`) and
    /// `--alang`/`--slang` (a comma-separated preference list, used with `auto`).
    init(mpvTrackID id: String, languages: String?) {
        let preferred = languages?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
        self = preferred.isEmpty ? TrackRequest(mpvTrackID: id) ?? .automatic() : .automatic(languages: preferred)
    }
}
