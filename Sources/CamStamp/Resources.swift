import Foundation

/// Where the shipped files live: `presets/`, `pipelines/` and `fonts/` beside the package, or
/// under `share/camstamp` for an installed binary. `CAMSTAMP_HOME` overrides both.
public struct Resources: Sendable {
    /// The folder that holds `presets/`, `pipelines/` and `fonts/`.
    public let root: URL

    /// The shipped files under `root`.
    public init(root: URL) { self.root = root }

    /// Finds the resource folder from the environment or from the running executable.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment,
                              executable: URL = Resources.runningExecutable)
        -> Resources? {
        if let home = environment["CAMSTAMP_HOME"] { return Resources(root: URL(fileURLWithPath: home)) }
        var directory = executable.deletingLastPathComponent()
        // From .build/<triple>/debug/camstamp (or bin/camstamp) up to the first folder that has
        // the shipped files.
        for _ in 0..<6 {
            for candidate in [directory, directory.appendingPathComponent("share/camstamp")]
            where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("pipelines").path) {
                return Resources(root: candidate)
            }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    /// The running binary, symlinks resolved (found through /proc/self/exe, so `camstamp` on the
    /// PATH via a symlink still finds its files).
    public static var runningExecutable: URL {
        (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath()
    }

    /// The shipped presets, `NAME.json` each.
    public var presets: URL { root.appendingPathComponent("presets") }
    /// The shipped pipeline templates, `NAME.pipeline` each.
    public var pipelines: URL { root.appendingPathComponent("pipelines") }
    /// The bundled fonts, registered with fontconfig before the first mark is drawn.
    public var fonts: URL { root.appendingPathComponent("fonts") }

    /// The shipped pipeline template `NAME.pipeline`.
    public func pipeline(_ name: String) -> URL { pipelines.appendingPathComponent(name + ".pipeline") }
}
