"""A loopback server speaking the Gemini REST API that google-genai uses for File Search:
stores (create, get, delete), resumable uploads into a store (with custom metadata), operations,
paginated document lists and deletes, and generateContent. The real SDK is pointed at it through
its base-URL option; nothing leaves the machine."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

Answer = Callable[[dict[str, Any]], str]


@dataclass
class Document:
    name: str
    key: str
    data: bytes


@dataclass
class GeminiEmulator:
    """The server's state: stores, their documents, and every request seen."""

    page_size: int = 2
    answer: Answer = lambda request: '{"status": "UNSUPPORTED", "passage": "", "reason": "-"}'
    fail_uploads: int = 0
    # How many of the next generateContent and batch requests are refused (400 INVALID_ARGUMENT).
    fail_generations: int = 0
    # Questions (their metadata numbers) that a batch answers with no response at all.
    batch_drops: set[str] = field(default_factory=set)
    stores: dict[str, list[Document]] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)
    generate_requests: list[dict[str, Any]] = field(default_factory=list)
    batches: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    _pending: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    _counter: int = 0

    def __post_init__(self) -> None:
        emulator = self

        class Handler(BaseHTTPRequestHandler):
            def _send(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _any(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length) if length else b""
                emulator.requests.append((self.command, self.path))
                status, reply, headers = emulator.route(
                    self.command, self.path, body, dict(self.headers.items())
                )
                self._send(status, reply, headers)

            do_GET = do_POST = do_DELETE = _any  # noqa: N815 (http.server's naming)

            def log_message(self, *args: object) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next(self, prefix: str) -> str:
        self._counter += 1
        return f"{prefix}{self._counter}"

    def route(
        self, method: str, raw_path: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, Any, dict[str, str] | None]:
        url = urlsplit(raw_path)
        path = url.path.split("/", 2)[2] if url.path.startswith(("/v1beta/", "/v1/")) else url.path
        query = parse_qs(url.query)
        if url.path.startswith("/upload/"):
            return self._upload(url.path, query, body, headers)
        if method == "POST" and path == "fileSearchStores":
            name = self._next("fileSearchStores/store")
            self.stores[name] = []
            return 200, {"name": name, "displayName": json.loads(body).get("displayName")}, None
        if path.startswith("fileSearchStores/") and "/documents" in path:
            store = path.split("/documents")[0]
            if store not in self.stores:
                return 404, {"error": {"code": 404, "status": "NOT_FOUND"}}, None
            if method == "GET":
                start = int(query.get("pageToken", ["0"])[0])
                documents = self.stores[store][start : start + self.page_size]
                reply: dict[str, Any] = {
                    "documents": [
                        {
                            "name": d.name,
                            "customMetadata": [{"key": "bibkey", "stringValue": d.key}],
                        }
                        for d in documents
                    ]
                }
                if start + self.page_size < len(self.stores[store]):
                    reply["nextPageToken"] = str(start + self.page_size)
                return 200, reply, None
            self.stores[store] = [d for d in self.stores[store] if d.name != path]
            return 200, {}, None
        if path.startswith("fileSearchStores/") and "/operations/" in path:
            return 200, {"name": path, "done": True}, None
        if path.startswith("fileSearchStores/"):
            if path not in self.stores:
                return 404, {"error": {"code": 404, "status": "NOT_FOUND"}}, None
            if method == "DELETE":
                del self.stores[path]
                return 200, {}, None
            return 200, {"name": path}, None
        if path.startswith("models/") and "enerateContent" in path and self.fail_generations:
            self.fail_generations -= 1
            refusal = {"code": 400, "message": "refused", "status": "INVALID_ARGUMENT"}
            return 400, {"error": refusal}, None
        if path.startswith("models/") and path.endswith(":batchGenerateContent"):
            requests = json.loads(body)["batch"]["inputConfig"]["requests"]["requests"]
            name = self._next("batches/job")
            self.batches[name] = requests
            return 200, {"name": name, "metadata": self._batch(name, "BATCH_STATE_PENDING")}, None
        if path.startswith("batches/"):
            responses = []
            for item in self.batches[path]:
                if item.get("metadata", {}).get("question") in self.batch_drops:
                    continue
                self.generate_requests.append(item["request"])
                text = self.answer(item["request"])
                responses.append(
                    {
                        "response": {
                            "candidates": [
                                {"content": {"role": "model", "parts": [{"text": text}]}}
                            ]
                        },
                        "metadata": item.get("metadata", {}),
                    }
                )
            output = {"inlinedResponses": {"inlinedResponses": responses}}
            metadata = {**self._batch(path, "BATCH_STATE_SUCCEEDED"), "output": output}
            return (
                200,
                {
                    "name": path,
                    "metadata": metadata,
                    "done": True,
                    "response": {
                        "@type": "type.googleapis.com/google.ai.generativelanguage.v1main."
                        "GenerateContentBatchOutput",
                        **output,
                    },
                },
                None,
            )
        if path.startswith("models/") and path.endswith(":generateContent"):
            request = json.loads(body)
            self.generate_requests.append(request)
            text = self.answer(request)
            return (
                200,
                {
                    "candidates": [
                        {
                            "content": {"role": "model", "parts": [{"text": text}]},
                            "finishReason": "STOP",
                        }
                    ]
                },
                None,
            )
        return 404, {"error": {"code": 404, "message": f"no route {method} {path}"}}, None

    @staticmethod
    def _batch(name: str, state: str) -> dict[str, Any]:
        return {
            "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
            "name": name,
            "model": "models/m",
            "state": state,
        }

    def _upload(
        self, path: str, query: dict[str, list[str]], body: bytes, headers: dict[str, str]
    ) -> tuple[int, Any, dict[str, str] | None]:
        store = path.split("/", 3)[3].split(":")[0]
        if "upload_id" not in query:
            upload = self._next("upload")
            self._pending[upload] = (store, json.loads(body or b"{}"))
            location = f"{self.url}{path}?upload_id={upload}&upload_protocol=resumable"
            return 200, {}, {"x-goog-upload-url": location, "x-goog-upload-status": "active"}
        store, config = self._pending.pop(query["upload_id"][0])
        operation = self._next(f"{store}/upload/operations/op")
        if self.fail_uploads:
            self.fail_uploads -= 1
            return (
                200,
                {
                    "name": operation,
                    "done": True,
                    "error": {"code": 13, "message": "import failed"},
                },
                {"x-goog-upload-status": "final"},
            )
        key = next(
            (
                m.get("string_value") or m.get("stringValue")
                for m in config.get("customMetadata", [])
                if m.get("key") == "bibkey"
            ),
            "",
        )
        document = Document(self._next(f"{store}/documents/doc"), str(key), body)
        self.stores.setdefault(store, []).append(document)
        return (
            200,
            {"name": operation, "done": True, "response": {"documentName": document.name}},
            {"x-goog-upload-status": "final"},
        )
