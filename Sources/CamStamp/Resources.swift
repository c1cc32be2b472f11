import Foundation

/// Where the shipped files live: `presets/`, `pipelines/` and `fonts/` beside the package, or
/// under `share/camstamp` for an installed binary. `CAMSTAMP_HOME` overrides both.
public struct Resources: Sendable {
    public let root: URL

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

    public var presets: URL { root.appendingPathComponent("presets") }
    public var pipelines: URL { root.appendingPathComponent("pipelines") }
    public var fonts: URL { root.appendingPathComponent("fonts") }
    /// The camera's web page (plain HTML, CSS and JavaScript).
    public var web: URL { root.appendingPathComponent("web") }

    public func pipeline(_ name: String) -> URL { pipelines.appendingPathComponent(name + ".pipeline") }
}
