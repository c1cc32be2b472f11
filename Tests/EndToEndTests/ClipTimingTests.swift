import Foundation
import Testing
import TestSupport

/// What a clip's frame timing becomes.
@Suite(.serialized) struct ClipTimingTests {
    /// A variable-rate clip whose first two frames are 1/90000 s apart (a 90 kHz timescale's
    /// finest) keeps all its frames in MP4 and MOV: in qtmux's 3000 Hz their DTSs were one tick, the
    /// first sample lasted nothing, and the track and its edit list ended one frame early, so
    /// players showed 59 of 60 frames (camstamp said 60). In MKV it kept them all already.
    @Test(arguments: ["vfr.mp4", "vfr.mov", "vfr.mkv"])
    func framesATickApartAreAllKept(name: String) throws {
        let folder = try temporaryFolder("\(#function)-\(name)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent(name)
        _ = try tool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-frames:v", "60",
                                "-vf", "settb=1/90000,setpts='if(gt(N,0),(N-1)*3000+1,0)'", "-fps_mode", "passthrough",
                                "-enc_time_base", "1/90000", "-video_track_timescale", "90000", "-c:v", "libx264", input.path])
        #expect(try Clips.frameCount(input) == 60)
        let out = folder.appendingPathComponent("out")
        let result = try camstamp(["batch", input.path, "-o", out.path, "--text", "{frame}", "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains(#""frames":60"#), "\(result.stdout)")
        #expect(try Clips.frameCount(out.appendingPathComponent(name)) == 60, "\(name)")
    }
}
