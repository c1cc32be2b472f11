// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The camstamp authors
internal import CGStreamer
internal import CGstApp
internal import CGstVideo
import Foundation
import Synchronization

/// The branches of a stream's output that may fail alone (a file on a full disk, of several
/// targets): isolated when they fail, so the others go on, and ended by hand.
extension LiveStream {
    /// A branch of the output that may fail alone (a file on a full disk): the names of its
    /// elements an error of it comes from, and of the queues at its head, which the tees feed.
    public struct Branch: Sendable {
        /// Names of the branch's elements (an error from one, or from inside one, is the branch's).
        public let parts: [String]
        /// Names of the queues the tees push into.
        public let heads: [String]
        /// A branch of `parts`, fed at `heads`.
        public init(parts: [String], heads: [String]) {
            self.parts = parts
            self.heads = heads
        }
    }

    /// Lets each of `branches` fail alone: from the moment an element of one posts an error (a
    /// sync handler, in the failing thread, before the error goes back up), its heads drop what
    /// the tees give them, so the error does not travel up to the encoder and stop every
    /// target. Before `start`.
    public func isolateFailedBranches(_ branches: [Branch]) {
        let gates = BranchGates(branches.map(\.parts))
        self.gates = gates
        for (index, branch) in branches.enumerated() {
            for head in branch.heads {
                guard let element = try? pipeline.element(named: head),
                    let pad = gst_element_get_static_pad(element.pointer, "sink")
                else { continue }
                let types = GstPadProbeType(
                    GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_BUFFER_LIST.rawValue)
                gst_pad_add_probe(
                    pad, types, branchGateProbe,
                    Unmanaged.passRetained(BranchGate(gates: gates, index: index)).toOpaque()
                ) {
                    if let context = $0 { Unmanaged<AnyObject>.fromOpaque(context).release() }
                }
                gst_object_unref(UnsafeMutableRawPointer(pad))
            }
        }
        let bus = gst_element_get_bus(pipeline.element)!
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        gst_bus_set_sync_handler(
            bus,
            { _, message, context in
                guard let message, let context, message.pointee.type == GST_MESSAGE_ERROR else { return GST_BUS_PASS }
                let gates = Unmanaged<BranchGates>.fromOpaque(context).takeUnretainedValue()
                var names: [String] = []
                var object = message.pointee.src
                if let object { gst_object_ref(UnsafeMutableRawPointer(object)) }
                while let current = object {
                    names.append(objectName(current))
                    object = gst_object_get_parent(current)
                    gst_object_unref(UnsafeMutableRawPointer(current))
                }
                gates.close(containingAny: names)
                return GST_BUS_PASS
            }, Unmanaged.passRetained(gates).toOpaque()
        ) { context in
            if let context { Unmanaged<BranchGates>.fromOpaque(context).release() }
        }
    }

    /// Whether the branch with the element named `part` (see `isolateFailedBranches`) has failed
    /// and been isolated: its errors, and those its queue posts after it, are known.
    public func hasIsolated(branchWith part: String) -> Bool {
        gates?.isClosed(branchWith: part) ?? false
    }

    /// Ends the sink (or sink bin) named `name` by hand: one whose branch failed gets no end
    /// from upstream, and the pipeline ends only once every sink has.
    public func endSink(named name: String) {
        if let sink = try? pipeline.element(named: name) {
            forEachPad(of: sink.pointer, sink: true) { _ = gst_pad_send_event($0, gst_event_new_eos()) }
        }
    }

    /// Takes the sink (or sink bin) named `name` out of the pipeline, stopped: a failed one that
    /// never ends (hlssink2 after a write error takes no end) would keep the pipeline's end from
    /// coming; the bin ends once the others have.
    public func removeSink(named name: String) {
        guard let sink = try? pipeline.element(named: name) else { return }
        forEachPad(of: sink.pointer, sink: true) { pad in
            guard let peer = gst_pad_get_peer(pad) else { return }
            _ = gst_pad_unlink(peer, pad)
            gst_object_unref(UnsafeMutableRawPointer(peer))
        }
        gst_object_ref(UnsafeMutableRawPointer(sink.pointer))
        defer { gst_object_unref(UnsafeMutableRawPointer(sink.pointer)) }
        _ = gst_element_set_state(sink.pointer, GST_STATE_NULL)
        if let parent = gst_object_get_parent(gcast(sink.pointer)) {
            gst_bin_remove(gcast(parent), sink.pointer)
            gst_object_unref(UnsafeMutableRawPointer(parent))
        }
    }

    /// After the branch of tee `tee` that ends in `lost` failed (a file on a full disk): ends
    /// every branch of the tee, and `lost` itself, by hand. The end that follows a flow error up
    /// and down the pipeline does not always come (a queue the error stopped refuses it), and
    /// the pipeline ends only once every sink has, the lost one included.
    public func endBranches(of tee: String, afterLosing lost: String) {
        if let tee = try? pipeline.element(named: tee) {
            forEachPad(of: tee.pointer, sink: false) { pad in
                guard let peer = gst_pad_get_peer(pad) else { return }
                // Refused (harmlessly) by a branch the end already reached.
                _ = gst_pad_send_event(peer, gst_event_new_eos())
                gst_object_unref(UnsafeMutableRawPointer(peer))
            }
        }
        endSink(named: lost)
    }
}

/// Which branches of `LiveStream.isolateFailedBranches` have failed: set by the bus's sync handler,
/// read by the heads' probes on the tees' threads.
final class BranchGates: Sendable {
    let parts: [[String]]
    let closed: Mutex<Set<Int>>

    init(_ parts: [[String]]) {
        self.parts = parts
        closed = Mutex([])
    }

    func close(containingAny names: [String]) {
        let hit = parts.indices.filter { !Set(parts[$0]).isDisjoint(with: names) }
        guard !hit.isEmpty else { return }
        closed.withLock { $0.formUnion(hit) }
    }

    func isClosed(_ index: Int) -> Bool { closed.withLock { $0.contains(index) } }

    func isClosed(branchWith part: String) -> Bool {
        guard let index = parts.firstIndex(where: { $0.contains(part) }) else { return false }
        return isClosed(index)
    }
}

/// One head's view of its branch's gate.
private final class BranchGate: Sendable {
    let gates: BranchGates
    let index: Int
    init(gates: BranchGates, index: Int) {
        self.gates = gates
        self.index = index
    }
}

/// Drops what reaches a failed branch's head (the tee sees it taken), lets all else pass.
private let branchGateProbe: GstPadProbeCallback = { _, _, context in
    guard let context else { return GST_PAD_PROBE_OK }
    let gate = Unmanaged<BranchGate>.fromOpaque(context).takeUnretainedValue()
    return gate.gates.isClosed(gate.index) ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK
}
