// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// Small tmpfs disks for the full-disk and read-only-disk tests. Mounting one needs root (or
// CAP_SYS_ADMIN), as `make test` has on CI; elsewhere those tests are skipped, and say so.
import Foundation
import Testing

/// Whether this process can mount a tmpfs: tried once, on a scratch folder, the first time a
/// test asks.
package let canMountTmpfs: Bool = {
    guard geteuid() == 0 else { return false }
    guard let folder = try? temporaryFolder("tmpfs-probe") else { return false }
    defer { try? FileManager.default.removeItem(at: folder) }
    guard (try? mountTmpfs(at: folder, options: "size=4k")) != nil else { return false }
    unmount(folder)
    return true
}()

extension Trait where Self == ConditionTrait {
    /// The test mounts a tmpfs (a full or read-only disk): it runs only where one can be mounted.
    package static var mountsTmpfs: Self {
        .enabled(if: canMountTmpfs, "mounts a small tmpfs (a full or read-only disk): needs root, as on CI")
    }
}

/// Mounts a tmpfs with `options` (`size=16k,ro`) on `folder`; `unmount` takes it away.
package func mountTmpfs(at folder: URL, options: String) throws {
    let result = try runProcess("mount", ["-t", "tmpfs", "-o", options, "tmpfs", folder.path], timeout: 20)
    guard result.status == 0 else {
        throw ProcessFailure("mount -t tmpfs -o \(options) on \(folder.path): \(result.stderr)")
    }
}

/// Unmounts what `mountTmpfs` mounted on `folder` (nothing is said when nothing is there).
package func unmount(_ folder: URL) {
    _ = try? runProcess("umount", [folder.path], stderr: .discard, timeout: 20)
}

/// A disk of 1 MiB with about 100 kB left (a few seconds of the test pattern and its tone),
/// mounted as `small` in `folder`, for tests marked `.mountsTmpfs`. The caller unmounts it.
package func nearlyFullDisk(in folder: URL) throws -> URL {
    let small = folder.appendingPathComponent("small")
    try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
    try mountTmpfs(at: small, options: "size=1m")
    do {
        try Data(count: 1_048_576 - 100_000).write(to: small.appendingPathComponent("filler"))
    } catch {
        unmount(small)
        throw error
    }
    return small
}
