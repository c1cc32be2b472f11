// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
/// `batch --shard K/N`: this process takes share K of N of the photos, so N processes (on one
/// machine or many, over a shared folder) stamp a corpus together with no photo done twice.
///
/// A photo's share comes from a hash of its path relative to the INPUT it was found under, not
/// from its position in the listing: adding files does not move the others to another share,
/// and every machine computes the same split whatever its mount point. The hash is FNV-1a
/// (64-bit), fixed by its definition; Swift's `Hasher` is seeded per process and would split
/// differently in every run.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based: `--shard 1/4` … `--shard 4/4`.
    public let index: Int
    /// How many shards share the photos (N).
    public let count: Int

    /// Shard `index` of `count`; traps unless 1 ≤ index ≤ count.
    public init(index: Int, count: Int) {
        precondition(count >= 1 && (1...count).contains(index), "shard \(index)/\(count) out of range")
        self.index = index
        self.count = count
    }

    /// `K/N` with 1 ≤ K ≤ N. Slurm's `$SLURM_ARRAY_TASK_ID` and Kubernetes' `$JOB_COMPLETION_INDEX`
    /// count from 0: docs/scale.md adds 1.
    public init(parsing text: String, option: String = "--shard") throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
            parts[0].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isASCII)
        else {
            throw OptionValueError.invalid(text, for: option, expected: "K/N with 1 ≤ K ≤ N, such as 2/8")
        }
        guard (1...count).contains(index) else {
            throw OptionValueError(
                "invalid value '\(text)' for '\(option)': K must be 1 to \(count) (shards count from 1)")
        }
        self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether the photo at `relativePath` (as found under its INPUT: `2024/june/a.jpg`) is this
    /// shard's.
    public func contains(relativePath: String) -> Bool {
        Int(Self.fnv1a(relativePath) % UInt64(count)) == index - 1
    }

    /// 64-bit FNV-1a over the UTF-8 bytes (offset basis 14695981039346656037, prime 1099511628211).
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
