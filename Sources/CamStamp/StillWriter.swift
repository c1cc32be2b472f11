// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Dispatch
import Foundation
internal import Media
import Presets

/// Encodes photos off the camera's thread, one at a time, each written atomically.
final class StillWriter: @unchecked Sendable {
    private let destination: StillDestination
    private let template: PipelineTemplate
    private let quality: Int
    private let session: CameraSession
    private let queue = DispatchQueue(label: "camstamp.camera.stills")
    /// `--sign`: each photo signed as its last write.
    private let credentials: ContentCredentials?
    /// `--invisible`: each photo gets an invisible mark of a new instance id, the manifest's.
    private let invisible: Bool

    init(
        destination: StillDestination, template: PipelineTemplate, quality: Int, session: CameraSession,
        credentials: ContentCredentials? = nil, invisible: Bool = false
    ) {
        self.credentials = credentials
        self.invisible = invisible
        self.destination = destination
        self.template = template
        self.quality = quality
        self.session = session
    }

    /// Writes `frame` (the camera loop's frame `number`), with `geotag` in its EXIF when there is
    /// one, and calls `done` on the writer's thread; `marks`: what was drawn on `frame`, for the
    /// photo's Content Credentials.
    func write(
        _ frame: VideoFrame, number: Int? = nil, geotag: GeoFix? = nil, marks: [ContentCredentials.Mark] = [],
        done: @escaping @Sendable (Result<CameraSession.Shot, CamStampError>) -> Void
    ) {
        let taken = Date()
        queue.async { [self] in
            do throws(CamStampError) {
                // Marked here, off the camera's thread; into a frame of its own (the ring's is shown).
                let instanceID = invisible ? InvisibleMarking.newInstanceID() : nil
                let frame =
                    try instanceID.map { (id) throws(CamStampError) in
                        try InvisibleMarking.marked(frame, instanceID: id)
                    } ?? frame
                let file = try destination.write { (temporary: URL) throws(CamStampError) in
                    do {
                        try StillDestination.encode(frame, template: template, quality: quality, to: temporary)
                    } catch {
                        throw .failure("photo: \(error)")
                    }
                    if let geotag { try Geotag.write(geotag, into: temporary) }
                    try credentials?.signCapture(
                        temporary, format: .jpg, date: taken, marks: marks, invisible: instanceID)
                }
                var written = stat()
                guard lstat(file.path, &written) == 0 else {
                    throw CamStampError.failure("photo: \(file.path) vanished")
                }
                let shot = CameraSession.Shot(
                    name: file.lastPathComponent, path: file.path, width: frame.width,
                    height: frame.height, taken: Date(), device: UInt64(written.st_dev),
                    inode: UInt64(written.st_ino), frame: number, invisible: instanceID)
                session.addShot(shot)
                done(.success(shot))
            } catch {
                done(.failure(error))
            }
        }
    }

    /// Returns once every photo asked for so far is on disk.
    func waitUntilDone() { queue.sync {} }
}
