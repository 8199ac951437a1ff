/// The window's keys as the `?` overlay lists them (and `reel play --help` describes).
public enum WindowKeys {
    /// Each line: the keys, then what they do.
    public static let help: [(keys: String, action: String)] = [
        ("space", "pause, play"),
        ("← →", "seek 5 s back, on"),
        ("↑ ↓", "volume"),
        ("m", "mute"),
        ("#", "next audio track"),
        ("j", "next subtitle track, then none"),
        ("v", "hide, show subtitles"),
        ("z x", "subtitle delay −/+ 0.1 s"),
        ("[ ]", "speed −/+ 0.1"),
        (". ,", "one frame on, back (paused)"),
        ("s", "screenshot (reel-shotNNNN.png)"),
        ("l", "A-B loop: set A, set B, clear"),
        ("PgUp PgDn", "chapter back, on"),
        ("< > Enter", "previous, next playlist item; Enter next"),
        ("f", "fullscreen"),
        ("g", "gravity: fit, fill, stretch"),
        ("p", "picture-in-picture"),
        ("?", "these keys"),
        ("q Esc", "quit"),
    ]
}
