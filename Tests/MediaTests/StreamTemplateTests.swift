// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Testing
@testable import Media

/// The shipped stream templates: the one encode head (`stream-encode`) placed as each one-target
/// template's `{encode}` gives the named elements `stream` and `--pipeline`'s docs promise.
@Suite struct StreamTemplateTests {
    @Test(arguments: ["stream-mkv", "stream-mp4", "stream-rtp"])
    func eachOneTargetTemplateStartsWithTheEncodeHead(name: String) throws {
        let encode = try shippedTemplate("stream-encode").fragment([
            "bitrate": .integer(2500), "keyint": .integer(25), "raw": .fragment(.empty),
        ])
        let text = try shippedTemplate(name).render([
            "encode": .fragment(encode), "bitrate": .integer(2500), "keyint": .integer(25),
            "location": .quoted("/nonexistent/out"), "host": .quoted("127.0.0.1"), "port": .integer(5004),
        ])
        let pipeline = try Pipeline(text)
        defer { pipeline.stop() }
        let named = ["pace", "mark", "encoder", "out"] + (name == "stream-rtp" ? ["pay"] : ["mux"])
        for element in named {
            #expect((try? pipeline.element(named: element)) != nil, "\(name) has no element named \(element)")
        }
        #expect(try pipeline.element(named: "encoder").string("bitrate") == "2500")
        #expect(try pipeline.element(named: "encoder").string("key-int-max") == "25")
    }
}
