import CamStamp
import Foundation
import Media

/// `camstamp devices`: the cameras GStreamer's device monitor finds, with their modes.
enum DevicesCommand {
    static func run(json: Bool) throws(CamStampError) {
        let cameras: [CameraDevice]
        do { cameras = try Devices.cameras() } catch { throw .failure("devices: \(error)") }
        if json {
            struct Mode: Encodable { var format: String; var width: Int?; var height: Int?; var framerates: [String] }
            struct Camera: Encodable { var name: String; var path: String?; var modes: [Mode] }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let list = cameras.map { camera in
                Camera(name: camera.name, path: camera.path, modes: camera.modes.map {
                    Mode(format: $0.format, width: $0.width, height: $0.height, framerates: $0.framerates)
                })
            }
            let data = (try? encoder.encode(list)) ?? Data("[]".utf8)
            Console.output(String(decoding: data, as: UTF8.self))
            return
        }
        guard !cameras.isEmpty else {
            Console.output("no cameras found (`--source test` uses the built-in test camera)")
            return
        }
        for camera in cameras {
            Console.output("\(camera.path ?? "(no device path)")  \(camera.name)")
            for mode in camera.modes { Console.output("    \(mode)") }
        }
    }
}
