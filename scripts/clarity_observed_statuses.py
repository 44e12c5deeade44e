#!/usr/bin/env python3
"""Writes CLARITY's published document with the statuses its service answers but does not list.

    scripts/clarity_observed_statuses.py PUBLISHED.json OUT.json

scripts/api-check.sh runs schemathesis's status-code check against the reference server with the
document this writes. The published document (Contracts/clarity-backend/openapi.json) is the
contract and is not edited; these are the only exceptions, each one an answer the real service's
route code gives (read at the commit the document was published from) and the reference server
gives too:

- on the auth routes (/api/v1/auth/...): 401 (a wrong password, a missing or spent token,
  GET/PUT me and logout without a token), 403 (an unconfirmed email, self sign-up off), 409 (an
  email that is taken), 429 (a locked account);
- refresh: 422 `missing_refresh_token` (no token in the header or the body);
- confirm-email and reset-password: 400 for a code that is not the one sent;
- any operation with an id in its path: 404 for an id the user has no such thing under;
- the two debug routes: 404 {"detail": "Not Found"}, as FastAPI answers routes a deployment
  does not mount (the service mounts them only in development);
- any operation that takes a body: 413 for a body past the server's limit.

Each added response has no content schema: the check is on the status, and the bodies of these
answers are the service's error shapes, which the README's CLARITY section describes.
Standard library only.
"""
import json
import sys

AUTH = "/api/v1/auth/"
DEBUG = "/api/v1/debug/"
METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}


def exceptions(path, method, operation):
    statuses = set()
    if path.startswith(AUTH):
        statuses |= {"401", "403", "409", "429"}
    if path == AUTH + "refresh":
        statuses.add("422")
    if path in (AUTH + "confirm-email", AUTH + "reset-password"):
        statuses.add("400")
    if any(p.get("in") == "path" for p in operation.get("parameters", [])):
        statuses.add("404")
    if path.startswith(DEBUG):
        statuses.add("404")
    if "requestBody" in operation:
        statuses.add("413")
    return statuses


def main(published, out):
    with open(published) as f:
        document = json.load(f)
    added = 0
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            responses = operation.setdefault("responses", {})
            for status in sorted(exceptions(path, method, operation)):
                if status not in responses:
                    responses[status] = {"description": "Answered by the service, not listed in its document"}
                    added += 1
    with open(out, "w") as f:
        json.dump(document, f, indent=1)
    print(f"added {added} undocumented statuses the service answers", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
