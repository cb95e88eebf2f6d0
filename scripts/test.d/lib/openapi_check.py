#!/usr/bin/env python3
"""Checks openapi.yaml against the gateway as it is.

1. The document is valid OpenAPI 3.1 (openapi-spec-validator).
2. It describes every route the gateway's router serves (the `router.get("…")`/`group.post("…")` calls under
   Sources/Gateway), with the same method, and the problem codes of GatewayAPIError (Sources/GatewayAPI), each
   under the HTTP status `GatewayAPIError.Code.httpStatus` gives it.
3. Every HTTP exchange the live gateway tests recorded (scripts/test runs them with CONTACTLESS_API_SAMPLES=DIR; see
   APISampleRecorder in Tests/GatewayTests/Identity/IdentityFixture.swift) matches it, checked with openapi-core:
   - every response: a documented status, content type, headers and body (problem codes included);
   - every request the gateway accepted (2xx): valid by the document, with a credential the operation lists in
     its `security`; a request the document calls invalid must have been refused (4xx);
   - `Idempotent-Replayed` only where the document declares it;
   - prepare's `application/x-ndjson` bodies line by line against the line schema (`x-itemSchema`,
     PrepareProgress) and the staged progress the document describes.

Usage: openapi_check.py OPENAPI_YAML SOURCES_DIR [SAMPLES_DIR]   (no SAMPLES_DIR: steps 1 and 2 only)
Exits 1 with a report of every mismatch.
"""

import collections
import json
import os
import pathlib
import re
import sys
import urllib.parse

from importlib.metadata import version

from openapi_core import Config, OpenAPI
from openapi_core.deserializing.media_types.util import json_loads, plain_loads
from openapi_core.testing import MockRequest, MockResponse
from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import validate
from openapi_spec_validator.readers import read_from_filename
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

HOST = "http://127.0.0.1:8080"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
STAGES = [("started", 0), ("deviceRegistered", 25), ("pinKeyStored", 50), ("configurationBuilt", 75),
          ("sessionIssued", 100)]


def describe(error):
    """An openapi-core error with its schema errors, one per line, each with where in the instance it is."""
    text = str(error)
    lines = [f"{type(error).__name__}: " + (text if len(text) <= 200 else text[:200] + "…")]
    seen = set()
    cause = error
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        for schema_error in getattr(cause, "schema_errors", None) or []:
            where = "/".join(str(part) for part in schema_error.absolute_path) or "(body)"
            lines.append(f"    at {where}: {schema_error.message[:300]}")
        cause = cause.__cause__ or cause.__context__
    return "\n".join(lines)


class Spec:
    def __init__(self, path):
        self.document, _ = read_from_filename(str(path))
        validate(self.document)
        self.openapi = OpenAPI.from_file_path(
            str(path),
            config=Config(extra_media_type_deserializers={
                "application/problem+json": json_loads,
                # Checked line by line below; openapi-core sees the text.
                "application/x-ndjson": plain_loads,
            }))
        self.operations = {}
        for template, item in self.document["paths"].items():
            pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
            for method in METHODS:
                if method in item:
                    self.operations[(method.upper(), template)] = (pattern, item[method])
        resource = Resource.from_contents(self.document, default_specification=DRAFT202012)
        registry = Registry().with_resource("urn:openapi", resource)
        self.line_validator = OAS31Validator(
            {"$ref": "urn:openapi#/components/schemas/PrepareProgress"}, registry=registry,
            format_checker=OAS31Validator.FORMAT_CHECKER)

    def operation(self, method, path):
        """(template, operation) of the documented operation `method path` matches, or None."""
        matches = [(template, operation) for (m, template), (pattern, operation) in self.operations.items()
                   if m == method and pattern.match(path)]
        # A literal segment beats a parameter, as in the router.
        matches.sort(key=lambda match: match[0].count("{"))
        return matches[0] if matches else None

    def response(self, operation, status):
        responses = operation.get("responses", {})
        response = responses.get(str(status)) or responses.get(f"{str(status)[0]}XX") or responses.get("default")
        if response and "$ref" in response:
            response = self.document["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
        return response


def is_console(path):
    """The merchant console's and the point of sale's pages (HTML for browsers, Sources/Gateway/Console and
    PointOfSale): not the API this file describes."""
    return any(path == root or path.startswith(root + "/") for root in ("/console", "/pos"))


def router_routes(sources):
    """(METHOD, /path/{param}) of every API route registered under Sources/Gateway (the console's pages aside)."""
    routes = set()
    call = re.compile(r'\b(?:router|group)\.(get|post|put|patch|delete|head)\(\s*"([^"]+)"')
    for file in sorted(pathlib.Path(sources).rglob("*.swift")):
        for method, path in call.findall(file.read_text()):
            path = "/" + re.sub(r":([A-Za-z0-9_]+)", r"{\1}", path.strip("/"))
            if not is_console(path):
                routes.add((method.upper(), path))
    return routes


def problem_codes(api_sources):
    """{code: HTTP status} from GatewayAPIError.Code.httpStatus."""
    text = (pathlib.Path(api_sources) / "Errors" / "GatewayAPIError.swift").read_text()
    switch = text[text.index("var httpStatus"):]
    switch = switch[:switch.index("\n        }\n")]
    return {code: int(status) for cases, status in re.findall(r"case ([^:]+):\s*(\d{3})", switch)
            for code in re.findall(r"\.(\w+)", cases)}


def check_problem_codes(spec, statuses):
    """The mismatches between the document's problem codes and GatewayAPIError's: the same set, and every response
    that names codes names only codes of its own status."""
    mismatches = []
    documented = set(spec.document["components"]["schemas"]["Problem"]["properties"]["code"]["enum"])
    if documented != set(statuses):
        mismatches.append(f"Problem.code lists {sorted(documented - set(statuses))} that GatewayAPIError lacks and "
                          f"lacks {sorted(set(statuses) - documented)}")
    responses = dict(spec.document["components"]["responses"])
    named = [(f"components/responses/{name}", None, response) for name, response in responses.items()]
    for (method, template), (_, operation) in spec.operations.items():
        for status, response in operation.get("responses", {}).items():
            if "$ref" not in response:
                named.append((f"{method} {template} {status}", int(status), response))
    for where, status, response in named:
        for media in response.get("content", {}).values():
            schema = media.get("schema", {})
            if "$ref" in schema:
                schema = spec.document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
            for part in schema.get("allOf", []):
                properties = part.get("properties", {})
                code = properties.get("code", {})
                codes = code.get("enum") or ([code["const"]] if "const" in code else [])
                const = properties.get("status", {}).get("const")
                for name in codes:
                    expected = statuses.get(name)
                    if expected is None or expected != (status or const) or (const and const != expected):
                        mismatches.append(f"{where}: code {name} is HTTP {expected} in GatewayAPIError, "
                                          f"documented as {status or const}")
    return mismatches


def check_prepare_stream(spec, exchange, body):
    """The mismatches of one prepare stream."""
    problems = []
    if not body.endswith("\n"):
        problems.append("the stream does not end with a newline")
    lines = []
    for number, text in enumerate(body.split("\n")[:-1] if body.endswith("\n") else body.split("\n"), 1):
        try:
            line = json.loads(text)
        except ValueError:
            problems.append(f"line {number} is not JSON: {text[:120]!r}")
            continue
        for error in spec.line_validator.iter_errors(line):
            where = "/".join(str(part) for part in error.absolute_path) or "(line)"
            problems.append(f"line {number} at {where}: {error.message[:300]}")
        lines.append(line)
    if not lines or problems:
        return problems or ["the stream is empty"]
    finals = [number for number, line in enumerate(lines, 1) if "provisioning" in line or "error" in line]
    if finals != [len(lines)]:
        problems.append(f"the last line, and only it, must hold provisioning or error (final lines: {finals})")
    progress = [line["progress"] for line in lines]
    if progress != sorted(progress):
        problems.append(f"progress goes down: {progress}")
    last = lines[-1]
    if "provisioning" in last:
        if (last.get("stage"), last["progress"]) != ("sessionIssued", 100):
            problems.append("the provisioning line is not stage sessionIssued at progress 100")
        device = urllib.parse.unquote(exchange["path"].split("/")[3])
        if last["provisioning"].get("deviceId") != device:
            problems.append(f"provisioned device {last['provisioning'].get('deviceId')!r}, asked for {device!r}")
    if len(lines) > 1:
        # A first prepare: each stage in order with its progress, then provisioning or an error at the progress
        # reached.
        staged = lines if "provisioning" in last else lines[:-1]
        expected = STAGES[:len(staged)]
        actual = [(line.get("stage"), line["progress"]) for line in staged]
        if actual != expected:
            problems.append(f"stages {actual}, expected {expected}")
        if "error" in last and last["progress"] != staged[-1]["progress"]:
            problems.append("the error line does not carry the progress reached")
    return problems


def check_exchange(spec, exchange, counts, stats):
    """The mismatches of one recorded exchange."""
    method, path, status = exchange["method"], exchange["path"], exchange["status"]
    found = spec.operation(method, path)
    if found is None:
        return [f"{method} {path} is not in openapi.yaml"]
    template, operation = found
    counts[(method, template)][status] += 1
    headers = {}
    if exchange.get("contentType"):
        headers["Content-Type"] = exchange["contentType"]
    if exchange.get("idempotencyKey") is not None:
        headers["Idempotency-Key"] = exchange["idempotencyKey"]
    credential = exchange["credential"]
    if credential != "none":
        # The recording names the kind, never the credential.
        headers["Authorization"] = "Bearer recorded-" + credential
    body = exchange.get("requestBody")
    # Path parameters are what the percent-encoded segments decode to (RFC 3986; the gateway decodes them so).
    decoded_path = "/".join(urllib.parse.unquote(segment) for segment in path.split("/"))
    request = MockRequest(
        HOST, method, decoded_path, args=urllib.parse.parse_qsl(exchange.get("query") or "", keep_blank_values=True),
        headers=headers, data=body.encode() if body is not None else None,
        content_type=exchange.get("contentType") or "application/json")
    response_headers = exchange["responseHeaders"]
    content_type = next((value for name, value in response_headers.items() if name.lower() == "content-type"), "")
    response_body = exchange["responseBody"]
    response = MockResponse(
        response_body.encode(), status_code=status, headers=response_headers,
        content_type=content_type.split(";")[0].strip())
    problems = []

    request_errors = spec.openapi.unmarshal_request(request).errors
    if request_errors and status < 400:
        problems.append(f"the gateway accepted ({status}) a request openapi.yaml calls invalid:")
        problems += ["  " + describe(error) for error in request_errors]
    elif request_errors:
        stats["refused"] += 1
    schemes = {name for requirement in operation.get("security", []) for name in requirement}
    if status < 400 and schemes and credential not in schemes:
        problems.append(f"the gateway accepted ({status}) a {credential} credential; "
                        f"openapi.yaml lists {sorted(schemes)}")

    for error in spec.openapi.unmarshal_response(request, response).errors:
        problems.append("response: " + describe(error))
    documented = spec.response(operation, status) or {}
    replayed = next((name for name in response_headers if name.lower() == "idempotent-replayed"), None)
    if replayed and replayed.lower() not in {name.lower() for name in documented.get("headers", {})}:
        problems.append(f"response {status} has {replayed}, which openapi.yaml does not declare for it")
    if replayed:
        stats["replayed"] += 1
    if content_type.startswith("application/x-ndjson"):
        problems += ["prepare stream: " + problem for problem in check_prepare_stream(spec, exchange, response_body)]
    return problems


def main():
    spec_path, sources = sys.argv[1], sys.argv[2]
    samples = sys.argv[3] if len(sys.argv) > 3 else None
    failures = 0
    spec = Spec(spec_path)
    print(f"openapi.yaml: valid OpenAPI {spec.document['openapi']} (openapi-spec-validator "
          f"{version('openapi-spec-validator')}), {len(spec.operations)} operations")

    routes = router_routes(sources)
    missing = sorted(route for route in routes if route not in {(m, t) for m, t in spec.operations})
    extra = sorted(route for route in spec.operations if route not in routes)
    if not routes:
        print("FAIL routes: no router.get/post calls found under", sources)
        failures += 1
    for method, path in missing:
        print(f"FAIL routes: the router serves {method} {path}, openapi.yaml does not describe it")
        failures += 1
    for method, path in extra:
        print(f"FAIL routes: openapi.yaml describes {method} {path}, the router does not serve it")
        failures += 1
    if routes and not missing and not extra:
        print(f"routes: the router's {len(routes)} routes are exactly the documented operations")

    statuses = problem_codes(pathlib.Path(sources).parent / "GatewayAPI")
    code_mismatches = check_problem_codes(spec, statuses)
    for mismatch in code_mismatches:
        print("FAIL problem codes: " + mismatch)
    failures += len(code_mismatches)
    if statuses and not code_mismatches:
        print(f"problem codes: the {len(statuses)} codes of GatewayAPIError, each documented under its HTTP status")

    if samples is None:
        return 1 if failures else 0
    files = sorted(pathlib.Path(samples).glob("*.json"))
    if not files:
        print(f"FAIL exchanges: none recorded in {samples} (did the unit tests run with CONTACTLESS_API_SAMPLES?)")
        return 1
    counts = collections.defaultdict(collections.Counter)
    stats = collections.Counter()
    sources_seen = collections.Counter()
    by_problem = collections.defaultdict(list)
    for file in files:
        exchange = json.loads(file.read_text())
        if is_console(exchange["path"]):
            continue
        sources_seen[exchange.get("source", "?")] += 1
        found = spec.operation(exchange["method"], exchange["path"])
        for problem in check_exchange(spec, exchange, counts, stats):
            # One report per kind of problem (values aside), with the exchanges that show it.
            key = (exchange["method"], found[0] if found else exchange["path"], exchange["status"],
                   re.sub(r"'[^']*'", "'…'", problem))
            by_problem[key].append((file.name, exchange.get("test", "?"), problem))

    print(f"exchanges: {len(files)} checked ("
          + ", ".join(f"{count} from {source}" for source, count in sorted(sources_seen.items())) + ")")
    for (method, template), statuses in sorted(counts.items(), key=lambda item: (item[0][1], item[0][0])):
        print(f"  {method:6} {template:34} " + ", ".join(f"{s} ×{n}" for s, n in sorted(statuses.items())))
    print(f"  {stats['refused']} requests invalid by openapi.yaml, refused by the gateway as they should be; "
          f"{stats['replayed']} idempotent replays")
    unexercised = sorted(f"{m} {t}" for (m, t) in spec.operations if (m, t) not in counts)
    if unexercised:
        print("  not exercised by the tests: " + ", ".join(unexercised))

    for (method, path, status, _), where in sorted(by_problem.items(), key=lambda item: str(item[0])):
        failures += 1
        name, test, problem = where[0]
        print(f"\nFAIL {method} {path} → {status} ({len(where)} exchange{'s' if len(where) > 1 else ''}, "
              f"e.g. {name} in test {test!r})")
        print("  " + problem.replace("\n", "\n  "))
    if failures:
        print(f"\nopenapi.yaml: {failures} mismatch{'es' if failures > 1 else ''}")
        return 1
    print("openapi.yaml matches every recorded exchange")
    return 0


if __name__ == "__main__":
    sys.exit(main())
