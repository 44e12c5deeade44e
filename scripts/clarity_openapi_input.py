#!/usr/bin/env python3
"""Writes the generator's input for the CLARITY client from the backend's published document.

    scripts/clarity_openapi_input.py PUBLISHED.json OUT.json

The published document (Contracts/clarity-backend/openapi.json) is the contract and is
not edited. Two changes make the code generated from it fit a client that must keep working as
the service grows, and keep its authors' prose out of this project:

1. Every closed string set (`enum`, `const`) becomes a plain string. The service adds metric
   types and statuses over time; a generated Swift enum would fail a whole page on the first
   value it does not know. ClarityAPI reads these strings into its own enums, each with an
   `unknown` case (see ClarityAPI's README section).
2. `description`, `summary`, `example` and `examples` are dropped, with the `info` block's
   contact and licence: they are the document's authors' text, not ours, and the generated
   code would otherwise carry it as doc comments. (A response keeps an empty `description`,
   which OpenAPI requires.)
3. Pydantic's way of writing an optional field, `anyOf: [X, {"type": "null"}]`, becomes X.
   swift-openapi-generator 1.14 leaves such properties and parameters out of the generated
   code altogether (the sleep, biometric and activity data of a health metric, the health-data
   list's `cursor`). None of them is required, so X generates as an optional value, and a
   `null` on the wire still reads as nil.

Nothing else changes: paths, operations, parameters, schemas, required fields and types stay
as published. Standard library only.
"""
import json
import sys

PROSE = {"description", "summary", "example", "examples"}


def is_null(schema):
    return isinstance(schema, dict) and schema.get("type") == "null"


def transform(node, in_properties=False, is_response=False):
    if isinstance(node, dict) and not in_properties:
        for key in ("anyOf", "oneOf"):
            choices = node.get(key)
            if isinstance(choices, list) and any(is_null(c) for c in choices):
                concrete = [c for c in choices if not is_null(c)]
                if len(concrete) == 1:
                    merged = {k: v for k, v in node.items() if k != key}
                    merged.update(concrete[0])
                    return transform(merged)
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            # Inside `properties` the keys are field names, which may be called anything.
            if not in_properties and key in PROSE:
                continue
            if not in_properties and key in ("enum", "const") and node.get("type") == "string":
                continue
            if not in_properties and key == "enum" and all(isinstance(v, str) for v in value) and "type" not in node:
                continue
            if not in_properties and key == "responses" and isinstance(value, dict):
                out[key] = {status: transform(response, is_response=True) for status, response in value.items()}
                continue
            out[key] = transform(value, in_properties=(key == "properties" and not in_properties))
        if is_response:
            out["description"] = ""  # required in a response object; its text is the authors'
        if not in_properties and "enum" in node and "type" not in node and "type" not in out:
            out["type"] = "string"
        return out
    if isinstance(node, list):
        return [transform(item) for item in node]
    return node


def main():
    source, target = sys.argv[1], sys.argv[2]
    with open(source, encoding="utf-8") as handle:
        document = json.load(handle)
    result = transform(document)
    info = result.get("info", {})
    result["info"] = {"title": info.get("title", "CLARITY"), "version": info.get("version", "0")}
    with open(target, "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1, sort_keys=True)
        handle.write("\n")


if __name__ == "__main__":
    main()
