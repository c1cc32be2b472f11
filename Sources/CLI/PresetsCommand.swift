import CamStamp
import Foundation
import Presets

/// `camstamp presets list | show NAME | check FILE...`.
enum PresetsCommand {
    static func run(_ command: ParsedCommand) throws(CamStampError) {
        let resources = Resources.locate()
        let library = PresetLibrary(directories: resources.map { [$0.presets] } ?? [])
        switch command {
        case .presetsList:
            guard resources != nil else {
                throw .failure("cannot find the shipped presets/ folder next to camstamp; set CAMSTAMP_HOME to the folder that holds presets/")
            }
            let presets = library.list()
            let width = presets.map(\.name.count).max() ?? 0
            for preset in presets {
                Console.output(preset.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + preset.description)
            }
        case .presetsShow(let name):
            do {
                Console.output(try library.load(name).resolvedJSON())
            } catch {
                throw .usage(error.description)
            }
        case .presetsCheck(let files):
            var failures: [String] = []
            for file in files {
                do {
                    for warning in try MarkSetup.check(file, resources: resources) { Console.error(warning) }
                    Console.output("\(file): ok")
                } catch {
                    failures.append(error.message)
                }
            }
            if !failures.isEmpty {
                for failure in failures.dropLast() { Console.error(failure) }
                throw .usage(failures.last!)
            }
        default:
            return
        }
    }
}
