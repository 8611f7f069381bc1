#!/usr/bin/env python3
"""Drives a live lecternd through the Redis client library from PyPI
(`redis`), as an app in any language would: PUT, VIEW, TAP, SELECT, TYPE and
WATCH over RESP2 and RESP3. Exits non-zero with a message on the first
mismatch. Usage: redis_client_test.py PORT (run by RESPTests.swift)."""
import sys

import redis

port = int(sys.argv[1])


def check(condition, message):
    if not condition:
        print("FAILED:", message)
        sys.exit(1)


def client(protocol):
    r = redis.Redis(port=port, protocol=protocol)
    # Lectern's SELECT, TYPE, GET, DEL and HELLO share names with Redis
    # commands whose replies the library would reinterpret: read them raw.
    for name in ("SELECT", "TYPE", "GET", "DEL", "HELLO"):
        r.set_response_callback(name, lambda response, **options: response)
    return r


for protocol in (2, 3):
    r = client(protocol)
    doc = f"py{protocol}"
    check(r.ping() is True, "PING")
    put = r.execute_command("PUT", doc, "Dr. Smith arrived at 5 p.m. today. He was late! Nobody minded.", "lang=en")
    check(put.startswith(f"PUT id={doc} revision=".encode()), f"PUT: {put!r}")
    view = r.execute_command("VIEW", doc, "width=200", "size=17", "font=DejaVu Sans")
    check(b'font="DejaVu Sans"' in view and b"lines=3" in view, f"VIEW: {view!r}")
    tap = r.execute_command("TAP", doc, "30", "10")
    check(tap[0].startswith(b"sentence 0 range=0..35"), f"TAP sentence: {tap!r}")
    check(tap[1].startswith(b"rects ") and tap[1].count(b";") == 1, f"TAP rects, one per line: {tap!r}")
    check(tap[-1].startswith(b"TAP hit sentence=0"), f"TAP status: {tap!r}")
    miss = r.execute_command("TAP", doc, "30", "500")
    check(miss.startswith(b"TAP miss"), f"TAP miss: {miss!r}")
    select = r.execute_command("SELECT", doc, "30", "10")
    check(select[-1] == b"SELECT added sentence=0 selected=1", f"SELECT: {select!r}")
    selection = r.execute_command("SELECTION", doc)
    check(selection[-1] == b"SELECTION 1", f"SELECTION: {selection!r}")
    try:
        r.execute_command("RECTS", doc, "99")
        check(False, "RECTS 99 should fail")
    except redis.ResponseError as error:
        check(str(error).startswith("RANGE sentence 99 does not exist"), f"error: {error}")

    # Watching: a second client sees the first one's tap, in its own view.
    watcher = client(protocol)
    wconn = watcher.connection_pool.get_connection()
    wconn.send_command("VIEW", doc, "width=120")
    wconn.read_response()
    wconn.send_command("WATCH", doc)
    check(wconn.read_response().startswith(f"WATCH id={doc}".encode()), "WATCH")
    r.execute_command("TAP", doc, "30", "10")
    event = wconn.read_response(push_request=True)
    check(event[0] == b"message" and event[1] == doc.encode(), f"event frame: {event!r}")
    check(event[2].startswith(f"TAP {doc} by=".encode()) and b"rects=" in event[2], f"event: {event!r}")

    # A typewriter stream: ticks arrive as pub/sub messages (RESP2) or pushes (RESP3).
    conn = r.connection_pool.get_connection()
    conn.send_command("TYPE", doc, "interval=1")
    started = conn.read_response()
    check(started.startswith(b"TYPE stream="), f"TYPE: {started!r}")
    ticks = 0
    while True:
        frame = conn.read_response(push_request=True)
        check(frame[0] == b"message", f"stream frame: {frame!r}")
        if frame[2].startswith(b"DONE"):
            check(b"end=62 graphemes=62" in frame[2], f"DONE: {frame!r}")
            break
        check(frame[2].startswith(b"TICK"), f"tick: {frame!r}")
        ticks += 1
    check(ticks == 62, f"62 ticks, got {ticks}")
    r.connection_pool.release(conn)
    watcher.connection_pool.release(wconn)
    check(r.execute_command("DEL", doc) == f"DEL id={doc}".encode(), "DEL")

print("ok")
