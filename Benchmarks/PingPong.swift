import Foundation
import Glibc
import SkillHostCore

/// The baseline for (c): a raw ping-pong between this process and a tiny C child, with frames shaped
/// like the host ↔ worker protocol (4-byte big-endian length, then the body) and sized like the real
/// invoke and complete frames. The child reads whatever is available (one `read`), and for every whole
/// frame writes one reply frame (one `write`); this process writes a request with one `write` and reads
/// until the whole reply is in. No threads, no polling, no parsing: the least two processes can do per
/// round trip. Over a socketpair (the issue's baseline, what the worker channel was) and over two
/// pipes (what the worker channel is now, `WireProtocol.workerSendFD`).
struct PingPong {
    /// How the two processes are connected.
    enum Transport {
        /// One AF_UNIX stream socketpair: the child's fd 3 both ways.
        case socketpair
        /// Two pipes, laid out like a worker's: the child writes to fd 3 and reads from fd 4.
        case pipes
    }

    /// The peer: `pingpong_peer REPLY_BYTES [IN_FD]`, reads fd IN_FD (default 3), writes fd 3, exits at end-of-file.
    static let peerSource = """
        #include <stdint.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>
        #include <errno.h>
        int main(int argc, char **argv) {
            size_t reply = argc > 1 ? strtoul(argv[1], NULL, 10) : 16;
            int from = argc > 2 ? atoi(argv[2]) : 3;
            unsigned char *out = malloc(4 + reply);
            static unsigned char in[1 << 16];
            if (!out || reply == 0 || reply > sizeof in) return 2;
            out[0] = reply >> 24; out[1] = reply >> 16; out[2] = reply >> 8; out[3] = reply;
            memset(out + 4, 'x', reply);
            out[4] = '{'; out[3 + reply] = '}';
            size_t have = 0;
            for (;;) {
                ssize_t n = read(from, in + have, sizeof in - have);
                if (n < 0 && errno == EINTR) continue;
                if (n <= 0) return 0;
                have += (size_t)n;
                size_t at = 0;
                while (have - at >= 4) {
                    size_t len = (size_t)in[at] << 24 | (size_t)in[at + 1] << 16 | (size_t)in[at + 2] << 8 | in[at + 3];
                    if (len == 0 || len > sizeof in - 4) return 3;
                    if (have - at < 4 + len) break;
                    at += 4 + len;
                    for (size_t off = 0; off < 4 + reply;) {
                        ssize_t w = write(3, out + off, 4 + reply - off);
                        if (w < 0 && errno == EINTR) continue;
                        if (w <= 0) return 0;
                        off += (size_t)w;
                    }
                }
                memmove(in, in + at, have - at);
                have -= at;
            }
        }

        """

    static func build(into dir: String, workspace: Workspace) -> String {
        let src = dir + "/pingpong_peer.c"
        let out = dir + "/pingpong_peer"
        do { try peerSource.write(toFile: src, atomically: true, encoding: .utf8) } catch {
            fail("cannot write \(src): \(error.localizedDescription)")
        }
        ProcessTimer.mustSucceed(Fixtures.cc, ["-O2", "-o", out, src], in: workspace, what: "compiling the ping-pong peer")
        return out
    }

    /// One running peer and this process's ends of its channel.
    final class Peer {
        let pid: pid_t
        /// Where requests are written and replies read (the same socket, or two pipes).
        let sendFD: Int32
        let readFD: Int32
        let isSocket: Bool
        let request: [UInt8]
        let replyBytes: Int
        private var buffer = [UInt8](repeating: 0, count: 1 << 16)

        /// Starts `executable` connected over `transport`. `requestBytes` and `replyBytes` are body
        /// sizes (without the 4-byte header).
        init(executable: String, requestBytes: Int, replyBytes: Int, transport: Transport = .socketpair) {
            // (child's fd, its number in the child), and this process's send and read ends.
            var childEnds: [(Int32, Int32)] = []
            switch transport {
            case .socketpair:
                var sv: [Int32] = [0, 0]
                guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sv) == 0 else {
                    fail("socketpair: \(String(cString: strerror(errno)))")
                }
                childEnds = [(sv[1], 3)]
                (sendFD, readFD) = (sv[0], sv[0])
            case .pipes:
                // Close-on-exec from the start, as the host makes a worker's (no child another thread
                // starts meanwhile inherits an end).
                guard let requests = Descriptors.pipe(), let replies = Descriptors.pipe() else { fail("pipe2: \(String(cString: strerror(errno)))") }
                childEnds = [(replies.write, 3), (requests.read, 4)]
                (sendFD, readFD) = (requests.write, replies.read)
            }
            // adddup2 onto the same number would keep close-on-exec, and must not overwrite an end
            // still to be copied: copy the child's ends above 10 first.
            childEnds = childEnds.map { end in
                let copy = fcntl(end.0, F_DUPFD_CLOEXEC, 10)
                close(end.0)
                return (copy, end.1)
            }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            for (fd, target) in childEnds { posix_spawn_file_actions_adddup2(&actions, fd, target) }
            let args: [String] = [executable, String(replyBytes), transport == .pipes ? "4" : "3"]
            let argv = args.map { strdup($0) }
            defer { argv.forEach { free($0) } }
            var cargv = argv + [nil]
            var cenv: [UnsafeMutablePointer<CChar>?] = [nil]
            var child: pid_t = 0
            let rc = posix_spawn(&child, executable, &actions, nil, &cargv, &cenv)
            for (fd, _) in childEnds { close(fd) }
            guard rc == 0 else { fail("cannot start \(executable): \(String(cString: strerror(rc)))") }
            pid = child
            isSocket = transport == .socketpair
            self.replyBytes = replyBytes
            // A request frame of exactly `requestBytes`: JSON-looking, padded.
            var body = Array(#"{"op":"invoke","id":1,"intent":"fixture.echo","input":{"text":"hello, skillhost"},"pad":""#.utf8)
            if body.count + 2 < requestBytes { body += [UInt8](repeating: UInt8(ascii: "x"), count: requestBytes - body.count - 2) }
            body += Array(#""}"#.utf8)
            body = Array(body.prefix(max(requestBytes, 1)))
            let h = UInt32(body.count)
            request = [UInt8(h >> 24), UInt8(h >> 16 & 0xff), UInt8(h >> 8 & 0xff), UInt8(h & 0xff)] + body
        }

        /// One round trip: send the request, read until the whole reply is in. False on any error.
        @inline(never)
        func roundTrip() -> Bool {
            let sent = request.withUnsafeBytes {
                isSocket ? send(sendFD, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) : write(sendFD, $0.baseAddress, $0.count)
            }
            guard sent == request.count else { return false }
            let want = 4 + replyBytes
            var have = 0
            return buffer.withUnsafeMutableBytes { buf -> Bool in
                while have < want {
                    let n = read(readFD, buf.baseAddress! + have, buf.count - have)
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 { return false }
                    have += n
                }
                return have == want
            }
        }

        /// Closes the channel (the peer exits at end-of-file) and reaps it.
        func stop() {
            close(sendFD)
            if readFD != sendFD { close(readFD) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }

    /// posix_spawn of the peer → its first round trip answered: the least a process start and one
    /// exchange cost, the baseline for a worker's start (ms, one sample per run).
    static func startAndFirstRoundTrip(executable: String, requestBytes: Int, replyBytes: Int) -> Double {
        let t0 = monotonicNs()
        let p = Peer(executable: executable, requestBytes: requestBytes, replyBytes: replyBytes)
        let ok = p.roundTrip()
        let t1 = monotonicNs()
        p.stop()
        if !ok { fail("the ping-pong peer did not answer its first frame") }
        return Double(t1 - t0) / 1e6
    }
}
