// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import Credentials
import Dispatch
import Foundation
internal import Viewfinder

/// `verify --serve`: the verify page on 127.0.0.1, for whoever has a photo and no terminal. A
/// dropped file is posted to `/api/verify` (nothing leaves the machine: the page's server is this
/// one) and answered with the object `verify --json` prints. The camera server's rules hold: Host
/// and Origin checked, bodies capped, connections and idle time limited, only the page's own
/// files served.
extension VerifyJob {
    /// The largest file the page takes: a 200 MP photo or a short clip.
    static let maxPageUpload = 512 << 20
    /// The page's files, in the resources' `web/` folder.
    static let pageFiles = ["verify.html", "verify.js", "verify.css"]
    /// Checks run one at a time: the SDK and the mark search are memory-hungry.
    static let pageWork = DispatchQueue(label: "camstamp verify page")

    func serve(
        port: UInt16, checker: Checker, report: JobOutput, interrupts: Interrupts?
    ) throws(CamStampError) -> Bool {
        let web = Resources.locate()?.web
        let route = Self.pageUploadRoute()
        let server: WebServer
        do {
            server = try WebServer(address: "127.0.0.1", port: port, limits: WebLimits(uploads: [route])) {
                request, reply in
                if request.method == "GET" && request.path == "/" {
                    reply.send(Self.page("verify.html", web: web))
                } else if !Self.answerPage(request, reply, checker: checker, web: web, headers: []) {
                    reply.send(.text("camstamp: nothing at \(request.path)", status: 404))
                }
            }
        } catch {
            throw .failure("--serve on 127.0.0.1:\(port): \(error.message); choose another port with --port")
        }
        defer { server.stop() }
        report.essential("http://127.0.0.1:\(server.port)/")
        // Until Ctrl-C or SIGTERM: 130 or 143, as every job that runs until stopped.
        let stop = interrupts ?? Interrupts.shared
        while !stop.isRequested { Thread.sleep(forTimeInterval: 0.1) }
        throw .interrupted
    }

    /// The upload route of `/api/verify`, for a server's limits; `admits` as the server's own.
    static func pageUploadRoute(
        admits: @escaping @Sendable (String?, String?, String?) -> Bool = { _, _, _ in true }
    ) -> WebUploadRoute {
        WebUploadRoute(method: "POST", path: "/api/verify", maxBytes: maxPageUpload, admits: admits)
    }

    /// The verify page's routes (`/verify`, its files, `POST /api/verify`), on `verify --serve`'s
    /// server and the camera's; false for any other path, which the caller answers.
    static func answerPage(
        _ request: WebRequest, _ reply: WebReply, checker: Checker, web: URL?, headers: [(String, String)]
    ) -> Bool {
        switch (request.method, request.path) {
        case ("GET", "/verify"), ("GET", "/verify.html"): reply.send(page("verify.html", web: web, headers: headers))
        case ("GET", let path) where pageFiles.contains(String(path.dropFirst())):
            reply.send(page(String(path.dropFirst()), web: web, headers: headers))
        case ("POST", "/api/verify"):
            guard let upload = request.upload else {
                reply.send(.text("camstamp: send the file as the request's body", status: 400, headers: headers))
                return true
            }
            // The name the page gives, as a name only: it is said back, never opened.
            let name = request.query["name"].map { String(($0 as NSString).lastPathComponent.prefix(200)) }
            pageWork.async {
                defer { upload.discard() }
                let shown = name ?? "the file"
                do throws(CamStampError) {
                    let text =
                        switch try checker.check(upload.url) {
                        case .unreadable(let reason): unreadableJSON(shown, reason)
                        case .checked(let result, let finding, let blocks):
                            json(URL(fileURLWithPath: shown), result, mark: finding, blocks: blocks, name: shown)
                        }
                    reply.send(.json(Data(text.utf8), headers: headers + [("Cache-Control", "no-store")]))
                } catch {
                    reply.send(.json(Data(unreadableJSON(shown, error.message).utf8), status: 500, headers: headers))
                }
            }
        case ("GET", "/api/verify"):
            guard let code = request.query["code"] else {
                reply.send(.text("camstamp: give ?code=K7M2-9QXD-4, or POST the file", status: 400, headers: headers))
                return true
            }
            pageWork.async { reply.send(lookUp(code, checker: checker, headers: headers)) }
        case (_, "/api/verify"):
            reply.send(
                .text("camstamp: \(request.method) is not allowed on /api/verify", status: 405, headers: headers))
        default:
            return false
        }
        return true
    }

    /// `GET /api/verify?code=`: the signed file in --manifests that the proof code names, checked;
    /// 404 when none does, 422 for a code that is not one.
    private static func lookUp(_ code: String, checker: Checker, headers: [(String, String)]) -> WebResponse {
        let found: [URL]
        do { found = try checker.files(namedBy: String(code.prefix(64))) } catch {
            return .json(
                Data(JSONValue.object(["error": .string(error.message)]).text.utf8), status: 422, headers: headers)
        }
        guard let file = found.first else {
            let said = "no signed file this page knows of has the code \(code.prefix(64))"
            return .json(Data(JSONValue.object(["error": .string(said)]).text.utf8), status: 404, headers: headers)
        }
        do throws(CamStampError) {
            let text =
                switch try checker.check(file) {
                case .unreadable(let reason): unreadableJSON(file.path, reason)
                case .checked(let result, let finding, let blocks): json(file, result, mark: finding, blocks: blocks)
                }
            return .json(Data(text.utf8), headers: headers + [("Cache-Control", "no-store")])
        } catch {
            return .json(Data(unreadableJSON(file.path, error.message).utf8), status: 500, headers: headers)
        }
    }

    /// One of the page's own files, from the resources' `web/` folder.
    static func page(_ name: String, web: URL?, headers: [(String, String)] = []) -> WebResponse {
        guard let web, let data = FileManager.default.contents(atPath: web.appendingPathComponent(name).path) else {
            return .text(
                "camstamp: the page's file \(name) is missing; set CAMSTAMP_HOME to the folder with web/", status: 404)
        }
        let type = Resources.webContentType(name)
        return WebResponse(
            contentType: type, body: data,
            headers: headers + [
                ("Content-Security-Policy", "default-src 'self'; img-src 'self' blob: data:; frame-ancestors 'none'"),
                ("X-Content-Type-Options", "nosniff"),
            ])
    }
}
