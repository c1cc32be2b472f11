// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// stamp-folder INPUT OUTPUT [--stop-after N]: stamps every JPEG and PNG in the folder INPUT with
// the shipped `credit` preset into OUTPUT, one `stampAll` run. Ctrl-C (or `--stop-after N`, which
// cancels once N photos are done) stops it between photos; what was finished stays written.
import CamStamp
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 || (arguments.count == 4 && arguments[2] == "--stop-after"),
    arguments.count == 2 || Int(arguments[3]) != nil
else {
    FileHandle.standardError.write(Data("usage: stamp-folder INPUT OUTPUT [--stop-after N]\n".utf8))
    exit(64)
}
let input = URL(fileURLWithPath: arguments[0], isDirectory: true)
let output = URL(fileURLWithPath: arguments[1], isDirectory: true)
let stopAfter = arguments.count == 4 ? Int(arguments[3]) : nil

// One token for the whole run: cancelled from the signal handler's queue or after N photos.
let token = CancellationToken()
signal(SIGINT, SIG_IGN)
let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
interrupt.setEventHandler { token.cancel() }
interrupt.resume()

/// Stamps the folder; the exit status: 0 all written, 1 some failed, 130 cancelled.
func stampFolder() throws(CamStampError) -> Int32 {
    let photos: [URL]
    do {
        photos = try FileManager.default.contentsOfDirectory(atPath: input.path).sorted()
            .filter { ["jpg", "jpeg", "png"].contains(($0 as NSString).pathExtension.lowercased()) }
            .map { input.appendingPathComponent($0) }
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    } catch {
        throw .failure("\(input.path): \(error.localizedDescription)")
    }
    let stamper = try Stamper(presets: [.named("credit")], variables: ["author": "StampFolder example"])
    var written = 0, failed = 0
    do {
        _ = try stamper.stampAll(photos.map { .file($0) }, cancellation: token) { index, result in
            switch result {
            case .success(let image):
                let target = output.appendingPathComponent(photos[index].lastPathComponent)
                do {
                    try image.data.write(to: target, options: .atomic)
                    written += 1
                    print("\(target.path): \(image.width)×\(image.height)")
                } catch {
                    failed += 1
                    print("\(target.path): cannot write: \(error.localizedDescription)")
                }
            case .failure(let error):
                failed += 1
                print("\(photos[index].path): \(error.message)")
            }
            if let stopAfter, written + failed >= stopAfter { token.cancel() }
        }
    } catch {
        guard error.kind == .interrupted else { throw error }
        // Cancelled between two photos: those before it are complete on disk.
        print("stopped: \(error.message); \(written) written")
        return 130
    }
    print("stamped \(written) of \(photos.count) photos, \(failed) failed")
    return failed == 0 ? 0 : 1
}

do {
    exit(try stampFolder())
} catch {
    FileHandle.standardError.write(Data("stamp-folder: \(error)\n".utf8))
    exit(1)
}
