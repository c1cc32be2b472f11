import Foundation

/// Where a still goes: `-o photo.jpg`, or a folder (`-o shots/`, default the current folder)
/// where photos are named `camstamp-YYYYMMDD-HHMMSS-N.jpg`. Written to a temporary file in the
/// same folder and renamed into place, so a crash never leaves half a photo.
struct StillDestination {
    let folder: URL
    /// The file name when one was given; nil means a generated name in `folder`.
    let fileName: String?
    let format: ImageFormat
    /// Generated names start with this.
    let prefix: String

    init(output: URL?, format: ImageFormat, prefix: String = "camstamp") throws(CamStampError) {
        self.format = format
        self.prefix = prefix
        let fileManager = FileManager.default
        let output = output ?? URL(fileURLWithPath: fileManager.currentDirectoryPath)
        var isDirectory: ObjCBool = false
        let exists = fileManager.fileExists(atPath: output.path, isDirectory: &isDirectory)
        if (exists && isDirectory.boolValue) || output.hasDirectoryPath {
            folder = output
            fileName = nil
        } else {
            folder = output.deletingLastPathComponent()
            fileName = output.lastPathComponent
        }
        try Self.checkWritableFolder(folder, option: "-o")
    }

    /// `folder` exists (else a usage error naming `option`) and can be written (else a failure).
    static func checkWritableFolder(_ folder: URL, option: String) throws(CamStampError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .usage("\(option): folder \(folder.path) does not exist; create it first")
        }
        guard access(folder.path, W_OK) == 0 else {
            throw .failure("\(folder.path): cannot write here (permission denied); choose another folder with \(option)")
        }
    }

    /// Runs `produce` on a temporary path in the target folder, then moves the result into place.
    func write(_ produce: (URL) throws(CamStampError) -> Void) throws(CamStampError) -> URL {
        let temporary = folder.appendingPathComponent(".camstamp-\(UUID().uuidString.prefix(8)).\(format.fileExtension).part")
        // Removed however this ends, a second Ctrl-C included.
        TemporaryFiles.shared.add(temporary)
        defer { TemporaryFiles.shared.remove(temporary) }
        try produce(temporary)
        let target = folder.appendingPathComponent(fileName ?? generatedName())
        // rename(2) replaces atomically: a reader sees the old photo or the new one, never half.
        guard rename(temporary.path, target.path) == 0 else {
            throw .failure("\(target.path): \(String(cString: strerror(errno)))")
        }
        return target
    }

    /// `PREFIX-YYYYMMDD-HHMMSS-N.ext`, N counting up from 1 until the name is free.
    private func generatedName(now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let stamp = formatter.string(from: now)
        var counter = 1
        while true {
            let name = "\(prefix)-\(stamp)-\(counter).\(format.fileExtension)"
            if !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) { return name }
            counter += 1
        }
    }
}
