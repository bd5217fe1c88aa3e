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
- ``type_name``, ``element_type_name``, ``unique_name``: the name of a type a member declares in
  place (a closed enum nested in its record or struct: ``VisitsSetStateRequest.State``), and
  ``value_words``/``enum_case_names``: the words each package spells an enum's cases from, so the
  Swift and Java packages name them alike; ``closed_enums``: every closed enum of the contract.
- ``type_of``: what type a schema is (a ``TypeRef``: an object of declared members, a map, an
  array, a string, a closed string enum, a number, a union, a definition named by ``$ref``, any
  JSON value; and whether null is allowed). The Swift, Java and Python generators map each kind
  to their language and never read a schema's type keywords themselves.

Python 3 standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Dict, List, NamedTuple, Optional, Tuple


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


# -- names every package derives alike ------------------------------------------------------

def type_name(member: str) -> str:
    """The name of the type a member's value declares in place (a nested record or enum): the
    member's name UpperCamelCase ("firstWeekday" -> FirstWeekday, "content_type" -> ContentType)."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[._\-\s/]", member) if part)


def element_type_name(name: str) -> str:
    """The name of the type an array member's elements declare in place, from the member's type
    name: Stops -> Stop, Entries -> Entry, Durations -> Duration; Data -> DataItem."""
    if name.endswith("ies") and len(name) > 3:
        return name[:-3] + "y"
    if name.endswith(("sses", "uses", "xes")):
        return name[:-2]
    if name.endswith("s") and not name.endswith("ss") and len(name) > 1:
        return name[:-1]
    return name + "Item"


def unique_name(wanted: str, taken) -> str:
    """``wanted``, or ``wanted`` numbered from 2 on when a type of that name is already there."""
    name, n = wanted, 1
    while name in taken:
        n += 1
        name = f"{wanted}{n}"
    return name


def value_words(value: str) -> List[str]:
    """The words of a closed enum's value, from which every package spells its case: split at
    camelCase humps and at everything that is not a letter or digit ("InProgress" -> In Progress,
    "image/svg+xml" -> image svg xml, "not_modified" -> not modified, "-name" -> name)."""
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", value)
    return [word for word in re.split(r"[\W_]+", text) if word]


def enum_case_names(values, spell) -> List[str]:
    """The case names of a closed enum's ``values``: ``spell`` makes one of a value's words (see
    ``value_words``); a name that an earlier value already took gets "_" appended until it is free."""
    seen: set = set()
    out: List[str] = []
    for value in values:
        name = spell(value_words(value))
        while name in seen:
            name += "_"
        seen.add(name)
        out.append(name)
    return out


def closed_enums(document: Dict[str, Any]) -> List[Tuple[str, "TypeRef"]]:
    """Every closed string enum of the contract, where it is written: (a path such as
    "operations/visits.set_state/request/state" or "$defs/visitState", its TypeRef), each schema
    node once, in the document's order (operations, the event, the error, the definitions; not the
    configuration, which no package declares a type of)."""
    found: List[Tuple[str, TypeRef]] = []
    seen: set = set()

    def walk(schema: Any, path: str, depth: int = 0) -> None:
        if not isinstance(schema, dict) or depth > 40 or "$ref" in schema:
            return
        t = type_of(document, schema)
        if t.kind == "enum":
            if id(schema) not in seen:
                seen.add(id(schema))
                found.append((path, t))
            return
        for key in ("anyOf", "oneOf", "allOf"):
            for i, branch in enumerate(schema.get(key) or []):
                walk(branch, f"{path}/{key}/{i}", depth + 1)
        for name, value in (schema.get("properties") or {}).items():
            walk(value, f"{path}/{name}", depth + 1)
        for key in ("items", "additionalProperties"):
            walk(schema.get(key), f"{path}/{key}", depth + 1)

    for key, entry in (document.get("operations") or {}).items():
        walk(entry.get("request"), f"operations/{key}/request")
        walk(entry.get("response"), f"operations/{key}/response")
    for root in ("event", "error"):
        walk(document.get(root), root)
    for name, definition in (document.get("$defs") or {}).items():
        walk(definition, f"$defs/{name}")
    return found


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


# -- types ------------------------------------------------------------------------------------

#: The kinds of TypeRef.
KINDS = ("object", "map", "array", "string", "enum", "integer", "number", "boolean", "union", "ref", "null", "any")

_VALUE_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null"}


@dataclass
class TypeRef:
    """What a schema is, decided once for every package.

    kind:
      ``object``   an object; ``declared`` when it has members of its own (``properties``) or
                   composes definitions of members (``allOf``), which ``members`` lists; an
                   object without declared members is ``closed`` when it allows no member
      ``map``      an object of ``additionalProperties``: ``item`` is the type of its values
      ``array``    ``item`` is the type of its elements (``any`` when the schema says none)
      ``enum``     a closed string enum: ``values`` (in the schema's order)
      ``string``, ``integer``, ``number``, ``boolean``   the JSON scalar (a ``const`` is its
                   value's type)
      ``union``    several alternatives (``anyOf``/``oneOf`` branches or several JSON types), in
                   order, null ones included: ``variants``; ``single`` is the one that is not null
                   when there is one ("X or null")
      ``ref``      a definition ``$ref`` names: ``reference``, ``name`` (its one type name in every
                   package), ``target`` (its own TypeRef)
      ``null``     only null
      ``any``      any JSON value (no type said)
    nullable: null is allowed too (a type list with "null", an enum with null, a null branch).
    types: the JSON types the schema allows ("object", "array", ... "null"), as the schema says.
    description: the doc comment every package writes (``description``).
    """

    kind: str
    schema: Any
    document: Any = field(repr=False, default=None)
    nullable: bool = False
    types: Tuple[str, ...] = ()
    item: Optional["TypeRef"] = None
    values: Tuple[str, ...] = ()
    variants: Tuple["TypeRef", ...] = ()
    reference: Optional[str] = None
    name: Optional[str] = None
    description: Optional[str] = None
    declared: bool = False
    closed: bool = False

    @property
    def target(self) -> "TypeRef":
        """A ``ref``'s definition, its own ``$ref``s followed."""
        node, seen = self, 0
        while node.kind == "ref" and seen < 32:
            node, seen = type_of(self.document, resolve(self.document, node.reference or "")), seen + 1
        return node

    @property
    def resolved(self) -> "TypeRef":
        """This type, or the definition a ``ref`` names."""
        return self.target if self.kind == "ref" else self

    @property
    def others(self) -> List["TypeRef"]:
        """A union's variants that are not null."""
        return [v for v in self.variants if v.kind != "null"]

    @property
    def single(self) -> Optional["TypeRef"]:
        """A union's one variant that is not null ("X or null"), else None."""
        others = self.others
        return others[0] if self.kind == "union" and len(others) == 1 else None

    def is_record(self) -> bool:
        """An object of declared members, or a union of several such objects and null."""
        node = self.resolved
        if node.kind == "object":
            return node.declared
        others = node.others if node.kind == "union" else []
        return len(others) > 1 and all(v.resolved.kind == "object" and v.resolved.declared for v in others)

    def kinds(self) -> Optional[List[str]]:
        """The "kind" constant of each variant of a oneOf of objects that each have a different one
        (the events: a package tells the variants apart by it), else None."""
        node = self.resolved
        items = node.schema.get("oneOf") if node.kind == "union" and isinstance(node.schema, dict) else None
        if not isinstance(items, list) or len(items) < 2:
            return None
        found = [variant.kind_value() for variant in node.variants]
        if any(k is None for k in found) or len(set(found)) != len(found):
            return None
        return [k for k in found if k is not None]

    def kind_value(self) -> Optional[str]:
        """An object's "kind" constant, or None."""
        node = self.resolved
        if node.kind != "object":
            return None
        names, _ = node.members()
        kind = dict(names).get("kind")
        kind = type_of(self.document, kind).resolved.schema if kind is not None else None
        return kind["const"] if isinstance(kind, dict) and isinstance(kind.get("const"), str) else None

    def members(self) -> Tuple[List[Tuple[str, Any]], set]:
        """An object's members (name, schema) in order, those of the definitions it composes
        (``allOf``) first, and the names it requires."""
        node = self.resolved
        out: Dict[str, Any] = {}
        required: set = set()
        schema = node.schema if isinstance(node.schema, dict) else {}
        for part in node.parts():
            names, needed = part.members()
            for name, value in names:
                out.setdefault(name, value)
            required |= needed
        for name, value in (schema.get("properties") or {}).items():
            out[name] = value
        required |= set(schema.get("required", []) or [])
        return list(out.items()), required

    def parts(self) -> List["TypeRef"]:
        """The definitions an object composes (its ``allOf``), in order."""
        node = self.resolved
        schema = node.schema if isinstance(node.schema, dict) else {}
        return [type_of(self.document, part) for part in schema.get("allOf", []) or []]

    def own(self) -> Tuple[List[Tuple[str, Any]], List[str]]:
        """An object's own members (``properties``, without those it composes) and the names it
        requires itself, in the schema's order."""
        node = self.resolved
        schema = node.schema if isinstance(node.schema, dict) else {}
        return list((schema.get("properties") or {}).items()), list(schema.get("required", []) or [])


def json_types(schema: Dict[str, Any]) -> List[str]:
    """The JSON types a schema node says (without following ``$ref`` or unions): its ``type``, else
    those of its ``const`` or ``enum`` values, else "object" for an object's keywords."""
    t = schema.get("type")
    if isinstance(t, str):
        return [t]
    if isinstance(t, list):
        return [x for x in t if isinstance(x, str)]
    if "const" in schema:
        return [_VALUE_TYPES.get(type(schema["const"]), "object")]
    if isinstance(schema.get("enum"), list):
        out: List[str] = []
        for value in schema["enum"]:
            kind = _VALUE_TYPES.get(type(value), "object")
            if kind not in out:
                out.append(kind)
        return out
    if "properties" in schema or "allOf" in schema or "additionalProperties" in schema:
        return ["object"]
    return []


def type_of(document: Dict[str, Any], schema: Any) -> TypeRef:
    """The TypeRef of ``schema`` (a member's, an array's items, a definition, a request)."""
    if not isinstance(schema, dict) or not schema:
        return TypeRef("any", schema if isinstance(schema, dict) else {}, document)
    text = description(document, schema)
    if isinstance(schema.get("$ref"), str):
        reference = schema["$ref"]
        ref = TypeRef("ref", schema, document, reference=reference, name=definition_name(reference), description=text)
        target = ref.target
        ref.nullable, ref.types = target.nullable, target.types
        return ref
    union = next((schema[u] for u in ("anyOf", "oneOf") if isinstance(schema.get(u), list)), None)
    if union is not None and not {"type", "properties", "allOf"} & set(schema):
        variants = tuple(type_of(document, branch) for branch in union)
        types: List[str] = []
        for variant in variants:
            types += [t for t in variant.types if t not in types]
        return TypeRef("union", schema, document, nullable=any(v.kind == "null" for v in variants),
                       types=tuple(types), variants=variants, description=text)
    types = json_types(schema)
    values = schema.get("enum") if isinstance(schema.get("enum"), list) else None
    nullable = "null" in types or (values is not None and None in values) or ("const" in schema and schema["const"] is None)
    non_null = [t for t in types if t != "null"]
    common = dict(schema=schema, document=document, nullable=nullable, types=tuple(types), description=text)
    declared = "properties" in schema or "allOf" in schema
    if "object" in non_null and declared:
        return TypeRef("object", declared=True, **common)
    if len(non_null) > 1:
        variants = tuple(type_of(document, {**schema, "type": t}) for t in types)
        return TypeRef("union", variants=variants, **common)
    if not non_null:
        return TypeRef("null" if nullable else "any", **common)
    kind = non_null[0]
    if kind == "string":
        strings = [v for v in values or [] if v is not None]
        if strings and all(isinstance(v, str) for v in strings):
            return TypeRef("enum", values=tuple(strings), **common)
        return TypeRef("string", **common)
    if kind in ("integer", "number", "boolean"):
        return TypeRef(kind, **common)
    if kind == "array":
        return TypeRef("array", item=type_of(document, schema.get("items")), **common)
    if kind == "object":
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            return TypeRef("map", item=type_of(document, extra), **common)
        return TypeRef("object", closed=extra is False, **common)
    return TypeRef("any", **common)


# -- the boundary's operation table ----------------------------------------------------------

#: How an operation holds the core's lock (its fragment entry's "locking").
LOCKINGS = ("serialized", "selfLocking", "streamed")
#: What an operation's body hands back, besides a JSON object: its fragment entry's "output"
#: "written" (JSON text written straight from stored rows). A streamed operation reads the
#: request's bytes (body "bytes"); one of the header's bytes-out shape answers bytes and an object
#: (body "binary").
OUTPUTS = ("object", "written")


class Boundary(NamedTuple):
    """An operation's entry of the library's operation table (``Manifest.operations``)."""
    #: "visits.set_state"; None for an operation ``carfit_call`` cannot reach (bytes out).
    method: Optional[str]
    symbol: str
    #: "serialized", "selfLocking" or "streamed".
    locking: str
    #: "object", "written", "bytes" (the request's bytes in) or "binary" (bytes out).
    body: str
    #: The area and the verb of the API function the table calls (``VisitsAPI.setState``).
    area: str
    verb: str


def boundary(key: str, entry: Dict[str, Any], bytes_out: bool) -> Boundary:
    """The table entry of operation ``key`` (its fragment ``entry``, merged); ``bytes_out`` when the
    header gives it the bytes-out shape. Locking and body must fit: a streamed operation reads
    bytes and only a streamed one does; bytes out only without the core's lock; written text only
    under it."""
    locking = entry.get("locking")
    if locking not in LOCKINGS:
        raise ContractError(f"{key}: locking must be one of {list(LOCKINGS)}, not {locking!r}")
    output = entry.get("output", "object")
    if output not in OUTPUTS:
        raise ContractError(f"{key}: output must be one of {list(OUTPUTS)}, not {output!r}")
    if bytes_out:
        body = "binary"
    elif locking == "streamed":
        body = "bytes"
    else:
        body = output
    allowed = {("streamed", "bytes"), ("serialized", "object"), ("serialized", "written"),
               ("selfLocking", "object"), ("selfLocking", "binary")}
    if (locking, body) not in allowed or (output != "object" and body != output):
        raise ContractError(f"{key}: locking {locking} does not fit its body ({body}, output {output})")
    area, _, verb = key.partition(".")
    return Boundary(None if bytes_out else key, str(entry.get("symbol")), locking, body, area, verb)
