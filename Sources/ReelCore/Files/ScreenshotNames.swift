/// mpv's screenshot names: `PREFIX-shotNNNN.png`, numbered from 0001, taking the first
/// number no file in the directory has yet (mpv's `%n` template).
public enum ScreenshotNames {
    /// The name prefix, as mpv's `mpv-shot`.
    public static let prefix = "reel-shot"

    /// The first free name, given the names the directory holds; nil once 9999 are taken
    /// (mpv gives up there too).
    public static func next(existing: some Sequence<String>, fileExtension: String = "png") -> String? {
        let taken = Set(existing)
        for number in 1...9999 {
            let digits = String(number)
            let name = prefix + String(repeating: "0", count: 4 - digits.count) + digits + "." + fileExtension
            if !taken.contains(name) { return name }
        }
        return nil
    }
}
