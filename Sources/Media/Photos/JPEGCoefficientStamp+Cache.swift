// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation
import Synchronization

extension JPEGCoefficientStamp {
    /// The components' plans by what they depend on besides the photo's quantisation tables.
    /// Each thread renders its own marks, so an image is told by its pixels, not its identity:
    /// the workers of a batch find each other's plans.
    final class PlanCache: Sendable {
        static let shared = PlanCache()

        private let entries = Mutex<[PatchKey: [PlanePlan]]>([:])
        /// The most entries kept: a batch has one per size, orientation and sampling of its
        /// photos, and a clock in a mark makes a new one every second.
        private let capacity: Int
        /// The most bytes kept, all entries together: a mark over a whole 50 MP photo plans to
        /// hundreds of megabytes. A plan larger than a quarter of it is not kept (made again).
        private let budget: Int

        init(capacity: Int = 8, budget: Int = 128 << 20) {
            self.capacity = capacity
            self.budget = budget
        }

        func plans(for key: PatchKey) -> [PlanePlan]? {
            entries.withLock { $0[key] }
        }

        func store(_ plans: [PlanePlan], for key: PatchKey) {
            let size = plans.reduce(0) { $0 + $1.bytes }
            guard size <= budget / 4 else { return }
            entries.withLock { entries in
                let held = entries.values.reduce(0) { $0 + $1.reduce(0) { $0 + $1.bytes } }
                if entries[key] == nil, entries.count >= capacity || held + size > budget { entries.removeAll() }
                entries[key] = plans
            }
        }

        /// How many entries it holds (for tests).
        var count: Int { entries.withLock { $0.count } }
    }

    struct PatchKey: Hashable, Sendable {
        var placements: [PlacementKey]
        var orientation: Orientation
        var width: Int, height: Int, colourSpace: Int
        var factors: [Int]
    }

    /// A mark and where it goes. The key holds the image, so its pixels can be compared.
    struct PlacementKey: Hashable, Sendable {
        var image: OverlayImage
        var x: Int, y: Int

        static func == (a: Self, b: Self) -> Bool {
            guard a.x == b.x, a.y == b.y, a.image.width == b.image.width, a.image.height == b.image.height else {
                return false
            }
            return a.image === b.image || Self.samePixels(a.image.premultiplied, b.image.premultiplied)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(x)
            hasher.combine(y)
            hasher.combine(image.width)
            hasher.combine(image.height)
        }

        private static func samePixels(_ a: [UInt8], _ b: [UInt8]) -> Bool {
            a.withUnsafeBytes { a in
                b.withUnsafeBytes { b in
                    guard a.count == b.count else { return false }
                    guard let first = a.baseAddress, let second = b.baseAddress else { return true }
                    return memcmp(first, second, a.count) == 0
                }
            }
        }
    }
}
