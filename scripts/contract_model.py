"""The resolved contract: what every generator of scripts/gen-schema reads, each question decided
once here rather than by each back end on its own.

- ``header_statuses``: the statuses, from the header's ``CARFIT_*`` status macros (the one place
  they are written), parsed once; every list of them (the library's ``Status``, the Swift,
  Java and Python packages' statuses, the README's table, the web example's HTTP mapping) is
  made from this.
- ``definition_name``: the type name of a definition a ``$ref`` names, the same in every package
  (``#/$defs/visitChange`` is ``VisitChange``; the error document, ``#/$defs/errorDocument``,
  is ``ErrorDocument``).
- ``visit_transitions``: the visit state machine (``$defs/visitState``), which the library's
  ``VisitTransition``, the cards' ``nextStates`` and the reference update server follow.
- ``description`` (with ``operation_description`` and ``element_description``): the words each
  package writes as the doc comment of a member or type, read from the schema alike by the Swift,
  Java and Python generators.

Python 3 standard library only.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, NamedTuple, Optional


class ContractError(Exception):
    """The sources contradict themselves or the header: nothing is written."""


class Status(NamedTuple):
    value: int
    #: The lowercase name error documents use ("bad_json").
    name: str
    #: The macro's comment, its white space joined.
    comment: str

    @property
    def macro(self) -> str:
        """The macro's suffix, ``BAD_JSON``."""
        return self.name.upper()


STATUS_MACRO = re.compile(r"^#define CARFIT_([A-Z_]+)[ \t]+(\d+)[ \t]*/\*(.*?)\*/", re.M | re.S)


def header_statuses(text: str) -> List[Status]:
    """Every status macro of the header (``#define CARFIT_BAD_JSON 1 /* ... */``), in value
    order: CARFIT_OK 0 first, the others numbered on from it, CARFIT_MISUSE and
    CARFIT_INTERNAL last."""
    found = [Status(int(value), macro.lower(), " ".join(comment.split()))
             for macro, value, comment in STATUS_MACRO.findall(text)
             if not macro.startswith("VERSION_")]
    found.sort()
    if [s.value for s in found] != list(range(len(found))) or len(found) < 3 or found[0].name != "ok":
        raise ContractError("include/carfit.h: the status macros must be CARFIT_OK 0 and the others numbered on from it")
    if [s.name for s in found][-2:] != ["misuse", "internal"]:
        raise ContractError("include/carfit.h: the last two statuses must be CARFIT_MISUSE and CARFIT_INTERNAL")
    return found


#: The HTTP status a host that forwards calls over HTTP answers for each status but ok (the web
#: example's server): a status the header adds must be given one here (the generator fails).
HTTP_STATUS = {
    "bad_json": 400,
    "invalid": 400,
    "not_found": 404,
    "conflict": 409,
    "unauthorized": 401,
    "unavailable": 503,
    "storage": 500,
    "misuse": 400,
    "internal": 500,
}


def http_statuses(statuses: List[Status]) -> Dict[str, int]:
    """Each status but ok -> its HTTP status, in the header's order."""
    missing = [s.name for s in statuses[1:] if s.name not in HTTP_STATUS]
    if missing:
        raise ContractError(f"scripts/contract_model.py: HTTP_STATUS has no HTTP status for {missing}")
    return {s.name: HTTP_STATUS[s.name] for s in statuses[1:]}


#: The type names of the document's roots a $ref may name.
ROOT_NAMES = {"#/error": "ErrorDocument", "#/$defs/errorDocument": "ErrorDocument", "#/event": "Event",
              "#/config": "Config"}


def upper_camel(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", text) if part)


def definition_name(reference: str) -> str:
    """The type name every package gives the definition ``reference`` names."""
    return ROOT_NAMES.get(reference) or upper_camel(reference.rsplit("/", 1)[-1])


def visit_transitions(document: Dict[str, Any]) -> Dict[str, List[str]]:
    """The state machine of ``$defs/visitState``: each state -> the states it may become, in the
    enum's order. Every state and target is one of the enum's, each once."""
    definition = document.get("$defs", {}).get("visitState")
    if not isinstance(definition, dict) or not isinstance(definition.get("nextStates"), dict):
        raise ContractError("$defs/visitState: no nextStates (the visit state machine)")
    states = definition.get("enum")
    if not isinstance(states, list) or not states or not all(isinstance(s, str) for s in states):
        raise ContractError("$defs/visitState: enum must list the states")
    table = definition["nextStates"]
    for state, targets in table.items():
        if state not in states:
            raise ContractError(f"$defs/visitState/nextStates: {state!r} is not one of the states")
        if not isinstance(targets, list) or any(t not in states for t in targets) or len(set(targets)) != len(targets):
            raise ContractError(f"$defs/visitState/nextStates/{state}: each target must be a state, once")
    return {state: [t for t in states if t in table.get(state, [])] for state in states}


def resolve(document: Dict[str, Any], reference: str) -> Any:
    """The node a local ``$ref`` ("#/$defs/card") names, or None."""
    node: Any = document
    for part in reference[2:].split("/") if reference.startswith("#/") else [None]:
        if not isinstance(node, dict) or part is None:
            return None
        node = node.get(part.replace("~1", "/").replace("~0", "~"))
    return node


def description(document: Dict[str, Any], schema: Any) -> Optional[str]:
    """The words every package writes as the doc comment of a member or a type: the schema's own
    ``description``, else that of the definition a ``$ref`` names, else that of the one branch
    of an "X or null" union (``{"anyOf": [{"$ref": ...}, {"type": "null"}]}``). None when it has
    none (``Tests/system/test_schema.py`` requires one of every member)."""
    seen = 0
    while isinstance(schema, dict) and seen < 32:
        seen += 1
        text = schema.get("description")
        if isinstance(text, str) and text.strip():
            return " ".join(text.split())
        if isinstance(schema.get("$ref"), str):
            schema = resolve(document, schema["$ref"])
            continue
        branches = [b for union in ("anyOf", "oneOf") for b in schema.get(union) or []
                    if not (isinstance(b, dict) and b.get("type") == "null")]
        if len(branches) == 1:
            schema = branches[0]
            continue
        return None
    return None


def continued(text: str) -> str:
    """``text`` continuing a sentence: its first letter lower-cased when it starts a word."""
    return text[:1].lower() + text[1:] if text[:1].isupper() and text[1:2].islower() else text


def element_description(member: str, text: Optional[str]) -> Optional[str]:
    """The doc comment of the type of one element of the list ``member`` (described ``text``)."""
    return f"One element of {member}: {continued(text)}" if text else None


def operation_description(key: str, entry: Dict[str, Any], part: str) -> str:
    """The doc comment of an operation's request (``part`` "request") or response type."""
    summary = " ".join(str(entry.get("summary", "")).split())
    return f"The {'request' if part == 'request' else 'answer'} of {key}: {continued(summary)}"
