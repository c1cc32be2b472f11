// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors

/// A short code for a manifest, to print on the photo (`{proof}`) and type back in to find the
/// signed original (`verify --code`): the first 40 bits of the SHA-256 of the manifest's
/// instance id (the invisible mark's payload begins with the same bits) in Crockford's base32,
/// eight symbols, then Crockford's check symbol (the value modulo 37), written `K7M2-9QXD-4`.
/// Crockford's alphabet has no I, L, O or U, and a reader takes `i`/`l` as 1 and `o` as 0, in
/// any case, with or without the hyphens, so a code read off a printout types back in.
public struct ProofCode: Sendable, Hashable, CustomStringConvertible {
    static let symbols = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    /// The check symbols: the 32 above, then the five Crockford adds for 32–36.
    static let checks = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ*~$=U")

    /// The 40 bits.
    public let value: UInt64

    /// The code of the manifest whose instance id is `instanceID`.
    public init(instanceID: String) {
        value = MarkPayload(instanceID: instanceID).bytes.prefix(5).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// Why a typed code is not one.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case length(Int)
        case symbol(Character)
        case check

        public var description: String {
            switch self {
            case .length(let count): "it has \(count) symbols; a code has 9 (8 and a check symbol, as K7M2-9QXD-4)"
            case .symbol(let symbol): "'\(symbol)' is not a symbol of a code"
            case .check: "its last symbol does not check (a symbol mistyped?)"
            }
        }
    }

    /// A code as a person typed it: any case, hyphens and spaces anywhere, I and L for 1, O for 0.
    public init(typed text: String) throws(Failure) {
        let kept = text.uppercased().filter { $0 != "-" && $0 != " " }
        guard kept.count == 9 else { throw .length(kept.count) }
        // I and L read as 1, O as 0: in the check symbol too.
        let read = kept.map { $0 == "I" || $0 == "L" ? "1" : $0 == "O" ? "0" : $0 }
        var value: UInt64 = 0
        for (symbol, typed) in zip(read.prefix(8), kept) {
            guard let digit = Self.symbols.firstIndex(of: symbol) else { throw .symbol(typed) }
            value = value << 5 | UInt64(digit)
        }
        guard let check = read.last, Self.checks[Int(value % 37)] == check else { throw .check }
        self.value = value
    }

    /// `K7M2-9QXD-4`.
    public var description: String {
        let digits = (0..<8).reversed().map { Self.symbols[Int(value >> (5 * UInt64($0)) & 31)] }
        return String(digits[0..<4]) + "-" + String(digits[4..<8]) + "-" + String(Self.checks[Int(value % 37)])
    }
}
