/// How often something repeats, as mpv's `--loop-file` and `--loop-playlist` count it.
public enum LoopCount: Sendable, Equatable, CustomStringConvertible {
    /// A number of times.
    case times(Int)
    /// Without end (`inf`).
    case forever

    /// mpv's spellings: a number, `inf`, or `no` (zero; `yes` is `inf`, as in mpv).
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "inf", "yes": self = .forever
        case "no": self = .times(0)
        default:
            guard let count = Int(text), count >= 0 else { return nil }
            self = .times(count)
        }
    }

    /// Whether `done` repetitions leave another to do.
    func allowsAnother(after done: Int) -> Bool {
        switch self {
        case .forever: true
        case .times(let count): done < count
        }
    }

    public var description: String {
        switch self {
        case .forever: "inf"
        case .times(let count): "\(count)"
        }
    }
}
