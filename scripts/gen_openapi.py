"""The OpenAPI back end of scripts/gen-schema: include/carfit.planner.openapi.json, the planner's
washer API (what the library sends to the planner and what it accepts back), as an OpenAPI 3.1
document.

    document(contract, fragments, merge, error) -> the OpenAPI document

Sources: schema/planner/*.json, each a part of the OpenAPI document ("openapi", "info",
"security", "paths", "components"), merged as the contract's fragments are (objects member-wise,
lists as a union, other values must agree, prose keeps the first file's words). A fragment's
schemas may $ref the contract's definitions ("#/$defs/instant", "#/$defs/visitState"): each one
named is copied into components/schemas under its own name (with the definitions it names in
turn) and the $ref rewritten, so the wire and the library's contract say a shape once.

Checks (any failure is an error): the document is OpenAPI 3.1 with info and paths; every $ref
resolves inside it; a contract definition does not take the name of a planner schema; every
operation has an operationId (unique) and answers at least one 2xx.

Python 3 standard library only.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable, Dict, List

CONTRACT_PREFIX = "#/$defs/"
SCHEMAS_PREFIX = "#/components/schemas/"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


def refs(node: Any):
    """Every $ref string under ``node``."""
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


def rewrite(node: Any) -> Any:
    """``node`` with each $ref to a contract definition pointing at components/schemas."""
    if isinstance(node, dict):
        out = {key: rewrite(value) for key, value in node.items()}
        if isinstance(out.get("$ref"), str) and out["$ref"].startswith(CONTRACT_PREFIX):
            out["$ref"] = SCHEMAS_PREFIX + out["$ref"][len(CONTRACT_PREFIX):]
        return out
    if isinstance(node, list):
        return [rewrite(value) for value in node]
    return node


def resolve(document: Dict[str, Any], reference: str, error) -> Any:
    if not reference.startswith("#/"):
        raise error(f"planner: $ref {reference} does not point inside the document")
    node: Any = document
    for part in reference[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            raise error(f"planner: $ref {reference} does not resolve")
        node = node[part]
    return node


def document(contract: Dict[str, Any], fragments: List[Path], merge: Callable[[Any, Any, str], Any],
             error=ValueError, root: Path = Path(".")) -> Dict[str, Any]:
    merged: Dict[str, Any] = {}
    for path in fragments:
        try:
            fragment = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise error(f"{path}: {exc}") from exc
        if not isinstance(fragment, dict):
            raise error(f"{path}: not a JSON object")
        unknown = set(fragment) - {"openapi", "info", "security", "paths", "components"}
        if unknown:
            raise error(f"{path}: unknown members {sorted(unknown)}")
        merged = merge(merged, fragment, str(path.relative_to(root)) if path.is_absolute() else str(path))
    if merged.get("openapi", "").split(".")[:2] != ["3", "1"]:
        raise error("schema/planner: openapi must be 3.1.x")
    for member in ("info", "paths"):
        if not merged.get(member):
            raise error(f"schema/planner: no {member}")
    schemas = merged.setdefault("components", {}).setdefault("schemas", {})
    # The contract's definitions the fragments name, and those they name in turn.
    wanted = [r[len(CONTRACT_PREFIX):] for r in refs(merged) if r.startswith(CONTRACT_PREFIX)]
    copied: Dict[str, Any] = {}
    while wanted:
        name = wanted.pop()
        if name in copied:
            continue
        if name in schemas:
            raise error(f"schema/planner: the contract's definition {name} takes the name of a planner schema")
        definition = contract.get("$defs", {}).get(name)
        if definition is None:
            raise error(f"schema/planner: $ref {CONTRACT_PREFIX}{name} is not a definition of the contract")
        copied[name] = copy.deepcopy(definition)
        wanted += [r[len(CONTRACT_PREFIX):] for r in refs(definition) if r.startswith(CONTRACT_PREFIX)]
    for name in sorted(copied):
        schemas[name] = copied[name]
    out = rewrite(merged)
    out["components"]["schemas"] = dict(sorted(out["components"]["schemas"].items()))
    order = ["openapi", "info", "security", "paths", "components"]
    out = {key: out[key] for key in order if key in out}
    # Checks.
    for reference in refs(out):
        resolve(out, reference, error)
    seen = set()
    for path, item in out["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            operation_id = operation.get("operationId")
            if not operation_id or operation_id in seen:
                raise error(f"schema/planner: {method.upper()} {path} needs an operationId of its own")
            seen.add(operation_id)
            if not any(str(code).startswith("2") for code in operation.get("responses", {})):
                raise error(f"schema/planner: {method.upper()} {path} answers no 2xx")
    return out


def text(document: Dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
