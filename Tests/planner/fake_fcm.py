"""A fake Firebase Cloud Messaging on 127.0.0.1 for the push tests: an OAuth token endpoint that
checks the server's RS256 JWT assertion against the test service account's public key (with the
`openssl` command), and `POST /v1/projects/<project>/messages:send`, which records each message.
Each status in `fail` answers one message request; while `release` is clear, message requests
are recorded as `attempted` and left unanswered."""

from __future__ import annotations

import base64
import json
import secrets
import subprocess
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
PROJECT = "carfit-push-test"
CLIENT_EMAIL = "planner@carfit-push-test.iam.gserviceaccount.com"


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class FakeFCM:
    def __init__(self, directory: Path) -> None:
        self.dir = directory
        self.dir.mkdir(parents=True, exist_ok=True)
        self.key = self.dir / "key.pem"
        self.public = self.dir / "public.pem"
        subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
                        "-out", str(self.key)], check=True, capture_output=True, timeout=60)
        subprocess.run(["openssl", "pkey", "-in", str(self.key), "-pubout", "-out", str(self.public)],
                       check=True, capture_output=True, timeout=60)
        self.lock = threading.RLock()
        self.tokens: list[str] = []            # access tokens issued
        self.token_requests: list[dict] = []   # the assertions' claims, each verified
        self.bad_token_requests: list[str] = []
        self.messages: list[dict] = []         # answered 200: {"path", "authorization", "body"}
        self.attempted: list[dict] = []        # every message request, answered or not
        self.fail: list[int] = []              # statuses to answer the next message requests with
        self.release = threading.Event()
        self.release.set()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path == "/token":
                    fake._token(self, body)
                elif self.path == f"/v1/projects/{PROJECT}/messages:send":
                    fake._message(self, body)
                else:
                    self._answer(404, {"error": {"code": 404, "status": "NOT_FOUND"}})

            def _answer(self, status: int, document: object) -> None:
                data = json.dumps(document).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def write_config(self) -> Path:
        """The service account file and the push config naming it; returns the config's path."""
        account = {
            "type": "service_account",
            "project_id": PROJECT,
            "private_key_id": "test",
            "private_key": self.key.read_text(),
            "client_email": CLIENT_EMAIL,
            "token_uri": f"{self.base}/token",
        }
        (self.dir / "service-account.json").write_text(json.dumps(account))
        config = self.dir / "push.json"
        config.write_text(json.dumps({"fcm": {"serviceAccountFile": "service-account.json", "baseUrl": self.base}}))
        return config

    def _verify(self, assertion: str) -> dict:
        header, claims, signature = assertion.split(".")
        assert json.loads(b64url_decode(header)) == {"alg": "RS256", "typ": "JWT"}
        signature_file = self.dir / f"sig-{secrets.token_hex(6)}"
        signature_file.write_bytes(b64url_decode(signature))
        try:
            checked = subprocess.run(["openssl", "dgst", "-sha256", "-verify", str(self.public), "-signature",
                                      str(signature_file)], input=f"{header}.{claims}".encode(), capture_output=True,
                                     timeout=30)
        finally:
            signature_file.unlink()
        assert checked.returncode == 0, checked.stdout + checked.stderr
        return json.loads(b64url_decode(claims))

    def _token(self, handler, body: bytes) -> None:
        form = urllib.parse.parse_qs(body.decode())
        try:
            assert handler.headers.get("Content-Type", "").startswith("application/x-www-form-urlencoded")
            assert form.get("grant_type") == [GRANT]
            claims = self._verify(form["assertion"][0])
            assert claims["iss"] == CLIENT_EMAIL and claims["scope"] == SCOPE, claims
            assert claims["aud"] == f"{self.base}/token", claims
            assert isinstance(claims["iat"], int) and claims["exp"] - claims["iat"] == 3600, claims
            assert abs(claims["iat"] - time.time()) < 120, claims
        except (AssertionError, KeyError, ValueError) as exc:
            with self.lock:
                self.bad_token_requests.append(repr(exc))
            handler._answer(400, {"error": "invalid_grant"})
            return
        token = "ya29.fake-" + secrets.token_hex(16)
        with self.lock:
            self.tokens.append(token)
            self.token_requests.append(claims)
        handler._answer(200, {"access_token": token, "expires_in": 3599, "token_type": "Bearer"})

    def _message(self, handler, body: bytes) -> None:
        record = {"path": handler.path, "authorization": handler.headers.get("Authorization"),
                  "body": json.loads(body)}
        with self.lock:
            self.attempted.append(record)
            failure = self.fail.pop(0) if self.fail else None
        if failure is not None:
            handler._answer(failure, {"error": {"code": failure, "message": "The service is unavailable.",
                                                "status": "UNAVAILABLE"}})
            return
        if not self.release.is_set():
            self.release.wait(timeout=90)
            return  # the request stays unanswered; its server is gone by now
        if record["authorization"] not in [f"Bearer {t}" for t in self.tokens]:
            handler._answer(401, {"error": {"code": 401, "status": "UNAUTHENTICATED"}})
            return
        with self.lock:
            self.messages.append(record)
        handler._answer(200, {"name": f"projects/{PROJECT}/messages/{secrets.token_hex(8)}"})

    def carfit(self, token: str) -> list[dict]:
        """The `carfit` members sent to one device token, in the order they arrived."""
        with self.lock:
            return [json.loads(m["body"]["message"]["data"]["carfit"]) for m in self.messages
                    if m["body"]["message"]["token"] == token]

    def wait_for(self, condition, timeout: float = 30.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if condition():
                    return True
            time.sleep(0.05)
        with self.lock:
            return bool(condition())

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
