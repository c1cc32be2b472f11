#!/usr/bin/env python3
"""An RFC 3161 time-stamp authority on 127.0.0.1 for the tests: OpenSSL's `openssl ts -reply`
does the work; this only passes bytes over HTTP (RFC 3161 section 3.4: a POST of
application/timestamp-query, answered with application/timestamp-reply).

Usage: tsa.py FOLDER [--mode good|garbage|slow|refuse]
FOLDER gets a TSA root and a TSA certificate (extendedKeyUsage critical timeStamping), and
`port` once the server listens; every request is logged to FOLDER/requests. `slow` answers
after 60 s; `garbage` answers bytes that are no reply; `refuse` answers HTTP 500.
"""
import http.server
import os
import subprocess
import sys
import tempfile
import threading
import time

folder = sys.argv[1]
mode = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--mode" else "good"
path = lambda name: os.path.join(folder, name)
PROFILE = """
[root]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[tsa_certificate]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, nonRepudiation
extendedKeyUsage = critical, timeStamping
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid, issuer
[tsa]
default_tsa = here
[here]
dir = {folder}
serial = $dir/serial
crypto_device = builtin
signer_cert = $dir/tsa.pem
certs = $dir/tsa-chain.pem
signer_key = $dir/tsa-key.pem
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
"""


def openssl(*arguments):
    subprocess.run(["openssl", *arguments], check=True, capture_output=True)


def make_authority():
    os.makedirs(folder, exist_ok=True)
    with open(path("tsa.cnf"), "w") as f:
        f.write(PROFILE.replace("{folder}", folder))
    with open(path("serial"), "w") as f:
        f.write("01\n")
    for name in ("root", "tsa"):
        openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path(name + "-key.pem"))
    openssl("req", "-new", "-x509", "-key", path("root-key.pem"), "-subj", "/CN=Test TSA Root/O=camstamp tests",
            "-days", "30", "-config", path("tsa.cnf"), "-extensions", "root", "-out", path("root.pem"))
    openssl("req", "-new", "-key", path("tsa-key.pem"), "-subj", "/CN=Test Time Stamps/O=camstamp tests",
            "-out", path("tsa.csr"))
    openssl("x509", "-req", "-in", path("tsa.csr"), "-CA", path("root.pem"), "-CAkey", path("root-key.pem"),
            "-set_serial", "7", "-days", "30", "-extfile", path("tsa.cnf"), "-extensions", "tsa_certificate",
            "-out", path("tsa.pem"))
    with open(path("tsa-chain.pem"), "w") as f:
        f.write(open(path("tsa.pem")).read() + open(path("root.pem")).read())


class Responder(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        length = min(int(self.headers.get("Content-Length", "0")), 65536)
        query = self.rfile.read(length)
        with open(path("requests"), "a") as log:
            log.write(f"{self.path} {self.headers.get('Content-Type')} {length}\n")
        if mode == "slow":
            time.sleep(60)
        if mode == "refuse":
            self.send_error(500, "the authority is down")
            return
        if mode == "garbage":
            body = b"\x30\x03\x02\x01\x07 not a time-stamp reply"
        else:
            with tempfile.TemporaryDirectory() as work:
                with open(os.path.join(work, "q.tsq"), "wb") as f:
                    f.write(query)
                done = subprocess.run(
                    ["openssl", "ts", "-reply", "-config", path("tsa.cnf"), "-queryfile",
                     os.path.join(work, "q.tsq"), "-out", os.path.join(work, "r.tsr")], capture_output=True)
                if done.returncode != 0:
                    self.send_error(400, done.stderr.decode(errors="replace")[:200])
                    return
                body = open(os.path.join(work, "r.tsr"), "rb").read()
        self.send_response(200)
        self.send_header("Content-Type", "application/timestamp-reply")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


make_authority()
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Responder)
server.daemon_threads = True
with open(path("port.tmp"), "w") as f:
    f.write(str(server.server_address[1]))
os.rename(path("port.tmp"), path("port"))
server.serve_forever()
