// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// A program that embeds camstamp: stamps a generated photo in memory and writes it.
import PackageDescription

let package = Package(
    name: "StampPhoto",
    dependencies: [
        // The camstamp checkout two folders up, named so whatever its folder is called (a path
        // dependency's identity is otherwise its folder's name). A program of your own names the
        // Git URL instead: .package(url: "https://…/camstamp.git", from: "0.2.0").
        .package(name: "camstamp", path: "../..")
    ],
    targets: [
        .executableTarget(name: "stamp-photo", dependencies: [.product(name: "CamStamp", package: "camstamp")])
    ],
    swiftLanguageModes: [.v6]
)
