"""Drives a running Engram with the public `korely-memory` Python SDK, as an existing client would.

Usage: python korely_python.py  (ENGRAM_URL, ENGRAM_API_KEY, ENGRAM_READ_ONLY_KEY in the environment)
Prints one line per step and exits non-zero at the first surprise.
"""
import os
import sys
import time

from korely_memory import Korely
from korely_memory.exceptions import (
    APIError,
    AuthenticationError,
    KorelyError,
    NamespaceForbiddenError,
    NotFoundError,
    StaleWriteError,
)

url = os.environ["ENGRAM_URL"]
key = os.environ["ENGRAM_API_KEY"]
read_only_key = os.environ["ENGRAM_READ_ONLY_KEY"]
USER = "py-sdk"


def step(name):
    print(f"ok {name}", flush=True)


def expect_raises(cls, fn, status=None):
    try:
        fn()
    except cls as error:
        if status is not None:
            assert getattr(error, "status", None) == status, f"{cls.__name__}: status {getattr(error, 'status', None)} != {status}"
        return error
    raise AssertionError(f"expected {cls.__name__}")


def settle(client, user_id, timeout=30):
    """What the SDK documents: poll events() until nothing of the user is processing."""
    deadline = time.time() + timeout
    while client.events(user_id=user_id).processing > 0:
        assert time.time() < deadline, "writes still processing"
        time.sleep(0.2)


assert key.startswith("eng_") and not key.startswith("kor_live_")
k = Korely(api_key=key, base_url=url)
assert k.base_url == url.rstrip("/")

ping = k.ping()
assert ping.ok is True and "memories:write" in ping.scopes, ping
step("ping")

berlin = k.add("I live in Berlin and work at Siemens.", user_id=USER, timestamp="2024-01-10T00:00:00Z", metadata={"source": "sdk"})
assert berlin.id.startswith("mem_") and berlin.status == "processing" and berlin.metadata == {"source": "sdk"}, berlin
moved = k.add(
    [{"role": "user", "content": "I moved to Munich last week."}, {"role": "assistant", "content": "Noted, enjoy Munich!"}],
    user_id=USER,
)
assert moved.content.startswith("user: I moved to Munich"), moved.content
step("add text and chat messages")

settle(k, USER)
events = k.events(user_id=USER)
assert {e.status for e in events.events} == {"ready"}, events
step("events until processed")

got = k.get(berlin.id)
assert got.status == "ready" and got.content == "I live in Berlin and work at Siemens.", got
# lives_in Berlin was superseded by the Munich message; the memory shows its facts that are still current.
assert ("works_at", "Siemens") in {(f.predicate, f.object) for f in got.facts}, got.facts
step("get")

page = k.get_all(user_id=USER)
assert page.total == 2 and [m.id for m in page.memories] == [moved.id, berlin.id], page
step("list")

hits = k.search("Munich", user_id=USER)
assert hits and hits[0].id == moved.id and 0 <= hits[0].score <= 1, hits
step("search")

context = k.get_context("where does the user live", user_id=USER)
assert "Munich" in context.context and context.stable_hash, context
step("context")

live = k.get_facts(user_id=USER)
lives = [f for f in live if f.predicate == "lives_in"]
assert [f.object for f in lives] == ["Munich"], lives
history = k.get_facts(user_id=USER, include_invalidated=True)
old = [f for f in history if f.predicate == "lives_in" and f.object == "Berlin"]
assert old and old[0].invalid_at is not None and old[0].invalidated_by == lives[0].id, old
then = k.get_facts(user_id=USER, as_of="2024-06-01")
assert [f.object for f in then if f.predicate == "lives_in"] == ["Berlin"], then
siemens = k.get_facts(user_id=USER, entity="Siemens")
assert [(f.predicate, f.object) for f in siemens] == [("works_at", "Siemens")], siemens
assert live.total == len(live)
step("facts with as_of and entity")

updated = k.update(berlin.id, content="I work at BMW.", expected_updated_at=got.updated_at)
assert updated.content == "I work at BMW." and updated.updated_at != got.updated_at, updated
stale = expect_raises(StaleWriteError, lambda: k.update(berlin.id, content="I work at Audi.", expected_updated_at=got.updated_at), 409)
assert stale.code == "stale_write"
settle(k, USER)
step("update with expected_updated_at")

receipt = k.delete(moved.id)
assert receipt.status == "forgotten" and receipt.audit_id.startswith("aud_"), receipt
missing = expect_raises(NotFoundError, lambda: k.get(moved.id), 404)
assert missing.code == "not_found"
expect_raises(NotFoundError, lambda: k.delete(moved.id), 404)
step("delete")

expect_raises(AuthenticationError, lambda: Korely(api_key="eng_not_a_key", base_url=url).ping(), 401)
reader = Korely(api_key=read_only_key, base_url=url)
reader.get_facts(user_id=USER)
forbidden = expect_raises(NamespaceForbiddenError, lambda: reader.add("should not be stored", user_id=USER), 403)
assert forbidden.code == "forbidden"
invalid = expect_raises(APIError, lambda: k.search("", user_id=USER), 422)
assert invalid.code == "invalid_request" and invalid.message.startswith("query"), invalid
expect_raises(KorelyError, lambda: Korely(api_key="kor_live_" + "x" * 20, base_url=url))
step("error classes")

erased = k.delete_all(user_id=USER)
assert erased.erasure == "permanent" and erased.memories_deleted == 1 and erased.user_id == USER, erased
assert k.get_all(user_id=USER).total == 0
assert k.get_facts(user_id=USER, include_invalidated=True).total == 0
assert k.get_context("where does the user live", user_id=USER).context == ""
step("user erasure")

print("ALL OK", flush=True)
