"""JSON-RPC edges pygls leaves open: every request gets an answer, a rejection one log line.

pygls structures each message while parsing it (a `json.loads` object hook); when the params
of a request do not fit the method's schema (`workspace/executeCommand` with `arguments: 5`,
no `command`, params that are not an object) it logs a traceback and never answers, so the
client waits forever. Here messages are structured once, whole, after parsing: a request
that does not fit is answered with InvalidParams (InvalidRequest when it is no JSON-RPC 2.0
message at all) and logged in one line. Requests rejected by a handler are logged in one
line too (pygls logs each with a full traceback); internal errors keep theirs.
"""

from __future__ import annotations

import logging
from typing import Any

from cattrs import transform_error
from cattrs.errors import ClassValidationError
from lsprotocol.types import ResponseErrorMessage
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import (
    JsonRPCNotification,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
)

log = logging.getLogger(__name__)
REJECTION_CODES = {
    JsonRpcInvalidParams.CODE,
    JsonRpcInvalidRequest.CODE,
    -32601,  # MethodNotFound
    -32800,  # RequestCancelled
}


class CodekithProtocol(LanguageServerProtocol):
    def structure_message(self, data: dict[str, Any]) -> Any:
        """Called for every JSON object while parsing, inner ones first: leave them all as
        they are (params are data, whatever keys they hold); `handle_message` structures the
        whole message."""
        return data

    def handle_message(self, message: Any) -> None:
        if not isinstance(message, dict):
            self._reject({}, JsonRpcInvalidRequest("a message must be a JSON object"))
            return
        try:
            structured = self._structure(message)
        except JsonRpcException as exc:
            self._reject(message, exc)
            return
        super().handle_message(structured)

    def _structure(self, data: dict[str, Any]) -> Any:
        """pygls' own message typing (see JsonRPCProtocol.structure_message), with errors that
        say what did not fit instead of a logged traceback."""
        if data.get("jsonrpc") != self.VERSION:
            raise JsonRpcInvalidRequest('not a JSON-RPC 2.0 message ("jsonrpc": "2.0" missing)')
        method = data.get("method")
        if "method" in data and not isinstance(method, str):
            raise JsonRpcInvalidRequest("method must be a string")
        if "id" in data and "error" in data:
            kind: Any = ResponseErrorMessage
        elif "id" in data and method is not None:
            kind = self.get_message_type(method) or JsonRPCRequestMessage
        elif "id" in data:
            kind = self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
        else:
            kind = self.get_message_type(method or "") or JsonRPCNotification
        try:
            return self._converter.structure(data, kind)
        except ClassValidationError as exc:
            raise JsonRpcInvalidParams(f"invalid params for {method}: {_reasons(exc)}") from None
        except Exception as exc:
            raise JsonRpcInvalidParams(f"invalid params for {method}: {exc}") from None

    def _reject(self, data: dict[str, Any], error: JsonRpcException) -> None:
        """Answer a request that cannot be handled; a notification or response has no one to
        answer. One log line either way."""
        msg_id, method = data.get("id"), data.get("method")
        log.warning("rejected %s %s: %s", method or "message", msg_id or "", error.message)
        if method is not None and isinstance(msg_id, str | int) and not isinstance(msg_id, bool):
            self._send_response(msg_id, error=error.to_response_error())


def _reasons(exc: ClassValidationError) -> str:
    """cattrs' nested validation errors as `what, expected … @ $.path` phrases."""
    try:
        return "; ".join(transform_error(exc, path="$")[:3])
    except Exception:  # transform_error cannot describe every nesting
        return str(exc)


class OneLineRejections(logging.Filter):
    """pygls logs every request a handler rejected (InvalidParams and the like) with a full
    traceback; a rejection is the client's mistake and says all in its message."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, JsonRpcException) and error.code in REJECTION_CODES:
            record.msg, record.args = f"{record.getMessage()}: {error.message}", ()
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def install_log_filter() -> None:
    logging.getLogger("pygls.protocol.json_rpc").addFilter(OneLineRejections())
