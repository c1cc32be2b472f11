// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
internal import Media
import Presets
internal import Viewfinder

/// The gallery's changes: `DELETE /shots/NAME` (only a photo this camera wrote) and
/// `POST /api/stamp` (a photo from the phone's album, marked with the presets in force as
/// `camstamp batch` marks it, answered with the result and kept in the gallery).
extension CameraAPI {
    /// The most an album photo may be: a phone's largest (a 200-megapixel JPEG is ~40 MB) with room
    /// to spare; the pixels are capped as batch caps them (`--max-pixels`).
    static let maxUploadBytes = 100 << 20

    /// `POST /api/stamp`: only a request with the token (when there is one) may send its photo.
    static func uploadRoute(token: String?) -> WebUploadRoute {
        WebUploadRoute(method: "POST", path: "/api/stamp", maxBytes: maxUploadBytes) { cookie, authorization, query in
            guard let token else { return true }
            let given = query.flatMap {
                URLComponents(string: "/?" + $0)?.queryItems?.first { $0.name == "token" }?.value
            }
            return [given, cookie.flatMap { Self.cookie(cookieName, in: $0) }, authorization.flatMap(Self.bearerToken)]
                .contains { $0.map { Self.same($0, token) } ?? false }
        }
    }

    /// `POST /api/verify`: only a request with the token (when there is one) may send its file.
    static func verifyRoute(token: String?) -> WebUploadRoute {
        let stamp = uploadRoute(token: token)
        return VerifyJob.pageUploadRoute(admits: stamp.admits)
    }

    func deleteShot(_ name: String, reply: WebReply, headers: [(String, String)]) {
        // The same rule as serving it: only a name this camera wrote, still the file it wrote.
        guard let shot = session.shot(named: name), Self.isStillOurs(shot) else {
            reply.send(.text("camstamp: no photo named '\(name)' from this camera", status: 404))
            return
        }
        guard unlink(shot.path) == 0 else {
            let reason = String(cString: strerror(errno))
            reply.send(.text("camstamp: cannot delete \(shot.path): \(reason)", status: 500))
            return
        }
        session.removeShot(named: name)
        reply.send(.json(Self.encode(["deleted": shot.path]), headers: headers))
    }

    /// The file at the shot's path is still the regular file this camera wrote (no link followed).
    static func isStillOurs(_ shot: CameraSession.Shot) -> Bool {
        var status = stat()
        return lstat(shot.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
            && UInt64(status.st_dev) == shot.device && UInt64(status.st_ino) == shot.inode
    }

    func stampUpload(_ request: WebRequest, reply: WebReply, headers: [(String, String)]) {
        guard let upload = request.upload else {
            reply.send(.text("camstamp: send the photo as the request's body", status: 400))
            return
        }
        let settings = session.settings
        let name = request.query["name"].map { ($0 as NSString).lastPathComponent }.map { String($0.prefix(200)) }
        let (resources, session, folder) = (resources, session, outputFolder)
        Self.pageWork.async {
            let outcome = Result { () throws(CamStampError) in
                try Self.stamp(upload.url, name: name, settings: settings, folder: folder, resources: resources)
            }
            // Gone before the answer: nothing of the upload outlives its request.
            upload.discard()
            switch outcome {
            case .success(let (stamped, shot)):
                session.addShot(shot)
                reply.send(
                    WebResponse(
                        contentType: Self.imageType(shot.name), body: stamped.data,
                        headers: headers + [("X-Camstamp-Path", shot.path), ("X-Camstamp-URL", ShotJSON(shot).url)]))
            case .failure(let error):
                // A bad photo is the sender's (422); no camera marks or files is ours (500).
                let status = error.kind == .usage ? 422 : 500
                reply.send(.json(Self.encode(["error": error.message]), status: status, headers: headers))
            }
        }
    }

    private static func stamp(
        _ file: URL, name: String?, settings: CameraSession.Settings, folder: URL?, resources: Resources?
    ) throws(CamStampError) -> (StampedImage, CameraSession.Shot) {
        guard let format = BatchPlan.sniff(file) else {
            throw .usage("the upload is not a photo camstamp reads (JPEG, PNG, WebP, HEIC, AVIF or TIFF)")
        }
        // What a browser shows stays as it is; HEIC and TIFF become JPEG, so the gallery shows them.
        let output: BatchFormat = [ImageFormat.jpg, .png, .webp].contains(format) ? .keep : .convert(.jpg)
        let stamper = try Stamper(
            presets: settings.presets.map(PresetSource.named), text: settings.text, variables: settings.variables,
            settings: .init(format: output), resources: resources)
        let data: Data
        do { data = try PhotoWorker.read(file) } catch { throw .failure("the upload: \(error.message)") }
        let stamped: StampedImage
        do { stamped = try stamper.stamp(data, filename: name) } catch {
            throw .usage("the upload: \(error.message)")
        }
        let destination = try StillDestination(output: folder, format: stamped.format, prefix: "camstamp-album")
        let written = try destination.write { (temporary: URL) throws(CamStampError) in
            do { try stamped.data.write(to: temporary) } catch {
                throw .failure("cannot write \(temporary.path): \(error.localizedDescription)")
            }
        }
        var status = stat()
        guard lstat(written.path, &status) == 0 else { throw .failure("\(written.path) vanished") }
        let shot = CameraSession.Shot(
            name: written.lastPathComponent, path: written.path, width: stamped.width, height: stamped.height,
            taken: Date(), device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        return (stamped, shot)
    }

    /// The Content-Type of a photo in the gallery, by the extension camstamp gave it.
    static func imageType(_ name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "png": "image/png"
        case "webp": "image/webp"
        default: "image/jpeg"
        }
    }
}

extension CameraAPI {
    /// The page's routes beyond the first API (docs/camera.md, "HTTP API").
    func handlePage(_ request: WebRequest, _ reply: WebReply, headers: [(String, String)]) {
        switch (request.method, request.path) {
        case ("GET", "/api/presets"):
            reply.send(.json(presetsJSON(), headers: headers))
        case ("GET", let path) where path.hasPrefix("/api/presets/"):
            guard let name = thumbnailName(path) else {
                reply.send(.text("camstamp: no preset at \(path); GET /api/presets lists them", status: 404))
                return
            }
            sendThumbnail(name, reply: reply, headers: headers)
        case ("GET", "/api/marks"):
            sendMarkPlaces(reply: reply, headers: headers)
        case ("POST", "/api/marks/move"):
            moveMark(request.body, reply: reply, headers: headers)
        case ("POST", "/api/stamp"):
            stampUpload(request, reply: reply, headers: headers)
        case ("DELETE", let path) where path.hasPrefix("/shots/"):
            deleteShot(String(path.dropFirst("/shots/".count)), reply: reply, headers: headers)
        case (_, "/api/presets"), (_, "/api/marks"), (_, "/api/marks/move"), (_, "/api/stamp"):
            reply.send(.text("camstamp: \(request.method) is not allowed on \(request.path)", status: 405))
        default:
            reply.send(.text("camstamp: nothing at \(request.path)", status: 404))
        }
    }
}
