// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
import Foundation

extension PhotoWorker {
    /// `batch PHOTO -o -`: the photo whole onto stdout, once it is stamped (nothing is written
    /// before, so a failure leaves stdout empty).
    func writeStandardOutput(_ parts: [Data]) throws(CamStampError) {
        do { for part in parts { try FileHandle.standardOutput.write(contentsOf: part) } } catch {
            let reason =
                (error as? POSIXError).map { String(cString: strerror($0.code.rawValue)) }
                ?? error.localizedDescription
            throw .failure("cannot write the photo to stdout: \(reason)")
        }
    }
}
