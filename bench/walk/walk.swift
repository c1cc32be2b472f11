// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
// bench/walk/swalk DIR MCUS: the entropy splice's walk (jpeg_splice.c's skip_mcu) in Swift over
// unsafe buffers, on the tables and destuffed scan cwalk left in DIR: the same algorithm and tables,
// for the C-or-Swift comparison issue 12 asks for. 4:2:0 only (six blocks an MCU).
import Foundation

struct Table {
    var look: UnsafeMutablePointer<UInt16>, maxcode: UnsafeMutablePointer<Int32>, valoffset: UnsafeMutablePointer<Int32>
    var huffval: UnsafeMutablePointer<UInt8>, pair: UnsafeMutablePointer<UInt16>
}
let tablesData = try! Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1] + "/tables.bin"))
var offset = 0
func take<T>(_ type: T.Type, _ count: Int) -> UnsafeMutablePointer<T> {
    let p = UnsafeMutablePointer<T>.allocate(capacity: count)
    _ = tablesData.withUnsafeBytes { raw in memcpy(p, raw.baseAddress! + offset, count * MemoryLayout<T>.size) }
    offset += count * MemoryLayout<T>.size
    return p
}
/// jpeg_splice.c's FAST: the bits the grouped-code table takes.
let fast = 14
var dc: [Table] = [], ac: [Table] = []
for _ in 0..<3 {
    for j in 0..<2 {
        let t = Table(look: take(UInt16.self, 512), maxcode: take(Int32.self, 18), valoffset: take(Int32.self, 17),
                      huffval: take(UInt8.self, 256), pair: take(UInt16.self, 1 << fast))
        if j == 0 { dc.append(t) } else { ac.append(t) }
    }
}
let scan = try! Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1] + "/scan.bin"))
let data = UnsafeMutablePointer<UInt8>.allocate(capacity: scan.count)
scan.copyBytes(to: data, count: scan.count)

/// The eight bytes from `byte`, big-endian.
@inline(__always) func load(_ byte: Int) -> UInt64 {
    UnsafeRawPointer(data + byte).loadUnaligned(as: UInt64.self).byteSwapped
}
@inline(__always) func symbol(_ t: Table, _ w: UInt64, _ length: inout Int) -> Int {
    let entry = t.look[Int(w >> 55)]
    if entry != 0 { length = Int(entry >> 8); return Int(entry & 0xFF) }
    for l in 10...16 {
        let code = Int32(truncatingIfNeeded: w >> UInt64(64 - l))
        if code <= t.maxcode[l] { length = l; return Int(t.huffval[Int((code + t.valoffset[l]) & 0xFF)]) }
    }
    length = 0
    return 0
}
@inline(__always) func extend(_ w: UInt64, _ s: Int) -> Int {
    let v = Int(w >> UInt64(64 - s))
    return v < (1 << (s - 1)) ? v - (1 << s) + 1 : v
}
// 4:2:0: four luma blocks, one Cb, one Cr.
let components = [0, 0, 0, 0, 1, 2]
func skipMCU(_ pos: inout UInt64, _ pred: inout (Int, Int, Int)) -> Bool {
    // The register refilled from the next whole byte it does not hold (as in the C).
    var next = Int(pos >> 3) + 8
    var w = load(next - 8) << (pos & 7)
    var left = 64 - Int(pos & 7)
    @inline(__always) func refill() {
        w |= load(next) >> UInt64(left)
        next += (63 - left) >> 3
        left |= 56
    }
    for b in 0..<6 {
        let c = components[b]
        if left < 27 { refill() }
        var length = 0
        let s = symbol(dc[c], w, &length)
        if length == 0 || s > 11 { return false }
        if s != 0 {
            let d = extend(w << UInt64(length), s)
            switch c { case 0: pred.0 += d; case 1: pred.1 += d; default: pred.2 += d }
        }
        var n = length + s
        w <<= UInt64(n); left -= n
        let t = ac[c]
        var k = 1
        while k < 64 {
            if left < fast { refill() }
            // C's group as one little-endian UInt16: length | step << 8.
            let entry = Int(t.pair[Int(w >> UInt64(64 - fast))]), step = entry >> 8
            if k + (step >> 1) <= 64 {
                n = entry & 0xFF
                w <<= UInt64(n); left -= n
                if step & 1 != 0 { break }
                k += step >> 1
                continue
            }
            if left < 27 { refill() }
            let rs = symbol(t, w, &length)
            if length == 0 { return false }
            let s2 = rs & 15
            n = length + s2
            w <<= UInt64(n); left -= n
            if s2 != 0 { k += (rs >> 4) + 1 } else if rs >> 4 == 15 { k += 16 } else { break }
        }
        if k > 64 { return false }
    }
    pos = UInt64(next) * 8 - UInt64(left)
    return true
}
let mcus = Int(CommandLine.arguments[2])!
// CPU time, as the machine may be shared.
func cpuMilliseconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
}
let start = cpuMilliseconds()
var pos: UInt64 = 0
var pred = (0, 0, 0)
for _ in 0..<20 {
    pos = 0; pred = (0, 0, 0)
    for i in 0..<mcus where !skipMCU(&pos, &pred) { print("bad \(i)"); exit(1) }
}
print("Swift walk: \((cpuMilliseconds() - start) / 20) ms CPU per scan, end bit \(pos), pred \(pred)")
