"""A real S3-compatible server for the tests: moto's server on 127.0.0.1, one per session."""

from __future__ import annotations

import itertools
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field

import boto3

REGION = "us-east-1"


@dataclass
class S3Server:
    """Buckets are cheap: each test takes its own, so tests never see each other's data."""

    process: subprocess.Popen[bytes]
    endpoint: str
    _names: itertools.count[int] = field(default_factory=itertools.count)

    @property
    def env(self) -> dict[str, str]:
        """The standard AWS variables LanceDB reads: what a user exports."""
        return {
            "AWS_ENDPOINT_URL": self.endpoint,
            "AWS_ALLOW_HTTP": "true",
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_REGION": REGION,
        }

    @property
    def options(self) -> dict[str, str]:
        """The same as `[tool.codekith] storage-options`."""
        return {
            "endpoint": self.endpoint,
            "allow_http": "true",
            "aws_access_key_id": "testing",
            "aws_secret_access_key": "testing",
            "region": REGION,
        }

    def new_bucket(self) -> str:
        name = f"codekith-test-{next(self._names)}"
        client = boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name=REGION,
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
        )
        client.create_bucket(Bucket=name)
        return name

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


def start_s3_server(deadline_s: float = 60) -> S3Server:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "MOTO_ALLOW_NONEXISTENT_REGION": "true"},
    )
    deadline = time.time() + deadline_s
    while time.time() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"moto server exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return S3Server(process, f"http://127.0.0.1:{port}")
        except OSError:
            time.sleep(0.1)
    process.terminate()
    raise RuntimeError("moto server did not start")
