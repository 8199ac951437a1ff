/// Reel's release, as `reel --version` and bug reports give it.
///
/// Not named `ReelVersion`: the symbol graph leaves out every type whose name starts with
/// the module's name and `Version` (the slot of a framework's generated version symbols),
/// so it would have no documentation page.
public enum ReelRelease {
    /// The version, `MAJOR.MINOR.PATCH`.
    public static let version = "0.16.0"
}
