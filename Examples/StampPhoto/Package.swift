// swift-tools-version:6.0
// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// A program that embeds camstamp: stamps a generated photo in memory and writes it.
import PackageDescription

let package = Package(
    name: "StampPhoto",
    dependencies: [
        // The camstamp package two folders up; a program of your own would use its Git URL.
        .package(name: "camstamp", path: "../..")
    ],
    targets: [
        .executableTarget(name: "stamp-photo", dependencies: [.product(name: "CamStamp", package: "camstamp")])
    ],
    swiftLanguageModes: [.v6]
)
