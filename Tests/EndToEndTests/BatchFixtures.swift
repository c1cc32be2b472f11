// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import PhotoMetadata

/// The EXIF of a JPEG file, nil when it has none.
func readEXIF(_ file: URL) throws -> EXIF? {
    let structure = try JPEGStructure(parsing: try Data(contentsOf: file))
    guard
        let app1 = structure.segments.first(where: {
            $0.marker == 0xE1 && $0.payload.starts(with: Data("Exif\0\0".utf8))
        })
    else {
        return nil
    }
    return try EXIF(app1Payload: app1.payload)
}

/// Writes `data` to `folder/name`, creating subfolders.
@discardableResult
func put(_ data: Data, _ name: String, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: url)
    return url
}

/// Every file under `folder`, relative, sorted.
func listing(_ folder: URL) -> [String] {
    (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? [])
        .filter {
            !((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($0).path)[.type]
                as? FileAttributeType) == .typeDirectory)
        }
        .sorted()
}
