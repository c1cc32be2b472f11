import Foundation

/// Where a file written to `url` lands: its folder with the symlinks on the way resolved, and its
/// name as given. Compared with an input's fully resolved path (`inputPath`), it says whether
/// the output would replace that input. The name itself is not followed: an output named like a
/// link to an input replaces the link (the file is written aside and renamed), not the input.
enum TargetPath {
    static func of(_ url: URL) -> String {
        url.standardizedFileURL.deletingLastPathComponent().resolvingSymlinksInPath().appendingPathComponent(url.lastPathComponent).path
    }

    /// An input's path with every symlink resolved, its name too.
    static func input(_ url: URL) -> String {
        url.standardizedFileURL.resolvingSymlinksInPath().path
    }
}
