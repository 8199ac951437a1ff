/// One event of a text subtitle track as libass takes it: an ASS `Dialogue` line's fields
/// after its timing (`ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`),
/// which is what FFmpeg's decoders make of SRT, WebVTT and ASS alike.
public struct TextSubtitleEvent: Sendable, Equatable {
    /// The dialogue fields, without the `Dialogue:` prefix and the start and end times.
    public var dialogue: String
    /// When it appears, in milliseconds on the track's timeline.
    public var startMilliseconds: Int64
    /// How long it stays, in milliseconds.
    public var durationMilliseconds: Int64

    /// An event shown from `startMilliseconds` for `durationMilliseconds`.
    public init(dialogue: String, startMilliseconds: Int64, durationMilliseconds: Int64) {
        self.dialogue = dialogue
        self.startMilliseconds = startMilliseconds
        self.durationMilliseconds = durationMilliseconds
    }
}
