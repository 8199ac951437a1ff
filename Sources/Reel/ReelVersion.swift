/// Reel's release, as `reel --version` and bug reports give it.
public enum ReelVersion {
    public static let current = "0.14.0"
}
