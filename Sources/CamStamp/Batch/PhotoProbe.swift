import Foundation

/// What the batch must know about a photo's bytes before decoding: that it is a complete JPEG or
/// PNG, and its stored pixel size (before orientation).
struct PhotoProbe {
    var width: Int
    var height: Int

    enum Failure: Error, CustomStringConvertible {
        case empty, notJPEG, notPNG, truncated, noFrame
        var description: String {
            switch self {
            case .empty: "empty file"
            case .notJPEG: "not a JPEG image (the file does not start like one)"
            case .notPNG: "not a PNG image (the file does not start like one)"
            case .truncated: "truncated image (the file ends before the picture does)"
            case .noFrame: "damaged JPEG (no picture size found)"
            }
        }
    }

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init(_ data: Data, kind: BatchPlan.Kind) throws(Failure) {
        guard !data.isEmpty else { throw .empty }
        switch kind {
        case .jpeg: self = try Self.jpeg(data)
        case .png: self = try Self.png(data)
        }
    }

    /// Walks the marker segments to the first SOFn for the size, and checks that an EOI marker
    /// follows the scan data (a truncated file has none).
    private static func jpeg(_ data: Data) throws(Failure) -> PhotoProbe {
        let bytes = [UInt8](data)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw .notJPEG }
        var index = 2
        var size: (Int, Int)?
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { throw .noFrame }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }   // fill byte
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { index += 2; continue }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2, index + 2 + length <= bytes.count else { throw .truncated }
            // SOF0…SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker), length >= 7 {
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                size = (width, height)
            }
            if marker == 0xDA {   // start of scan: the entropy-coded data runs to EOI
                guard let (width, height) = size, width > 0, height > 0 else { throw .noFrame }
                let scan = index + 2 + length
                // EOI normally ends the file; some cameras append a few bytes after it.
                let tail = bytes[max(scan, bytes.count - 4096)...]
                guard zip(tail, tail.dropFirst()).contains(where: { $0 == 0xFF && $1 == 0xD9 }) else { throw .truncated }
                return PhotoProbe(width: width, height: height)
            }
            index += 2 + length
        }
        throw size == nil ? .noFrame : .truncated
    }

    /// PNG: the signature, IHDR for the size, and an IEND chunk at the end.
    private static func png(_ data: Data) throws(Failure) -> PhotoProbe {
        let bytes = [UInt8](data.prefix(33))
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 33, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw bytes.count < 33 && Array(bytes.prefix(8)) == Array(signature.prefix(bytes.count)) ? .truncated : .notPNG
        }
        func be32(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        guard data.suffix(12).prefix(8).suffix(4) == Data("IEND".utf8) else { throw .truncated }
        return PhotoProbe(width: be32(16), height: be32(20))
    }
}
