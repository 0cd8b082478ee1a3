import Foundation
import SkillHostCore
import XCTest

extension WorkerRuntimeTests {
    /// `"workers": {"eager": true}` starts every worker when the host opens, before any call, and
    /// leaves trusted skills in-process; the first call then uses the worker that is already there.
    func testEagerWorkersStartWhenTheHostOpensAndServeTheFirstCall() throws {
        try addSkill("echo_c.so")
        try addSkill("slow.so")
        let h = try openHost(config: #"{"workers":{"eager":true},"trusted":["test.fixture.slow"]}"#)
        var pid: pid_t? = nil
        let end = Date().addingTimeInterval(5)
        while pid == nil && Date() < end {
            pid = try workerPID(h, "test.fixture.echo")
            if pid == nil { usleep(10_000) }
        }
        let started = try XCTUnwrap(pid, "the echo worker starts without any call")
        XCTAssertNil(try workerPID(h, "test.fixture.slow"), "a trusted skill gets no worker")
        guard case .success = call(h, "fixture.echo", #"{"text":"x"}"#) else { return XCTFail("the first call works") }
        XCTAssertEqual(try workerPID(h, "test.fixture.echo"), started, "the first call used the worker started eagerly")
    }
}
