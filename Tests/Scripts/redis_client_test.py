#!/usr/bin/env python3
"""Drives a live lecternd through the Redis client library from PyPI
(`redis`), as an app in any language would: PUT, VIEW, TAP, SELECT, TYPE and
WATCH over RESP2 and RESP3, then a strict request/response session (one
request at a time, a 5 s read timeout: a reply that does not come fails
instead of waiting). Exits non-zero with a message on the first mismatch.
Usage: redis_client_test.py PORT (run by RESPTests.swift)."""
import sys

import redis

port = int(sys.argv[1])


def check(condition, message):
    if not condition:
        print("FAILED:", message)
        sys.exit(1)


def client(protocol, **options):
    r = redis.Redis(port=port, protocol=protocol, **options)
    # Lectern's SELECT, TYPE, GET, DEL and HELLO share names with Redis
    # commands whose replies the library would reinterpret: read them raw.
    for name in ("SELECT", "TYPE", "GET", "DEL", "HELLO", "MOVE"):
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


# A strict session: no pipelining, one connection, every reply awaited
# with a read timeout before the next request goes out. The text is one
# bulk argument with spaces, line ends and three scripts.
STRICT_TEXT = "Dr. Smith arrived at 5 p.m. today.\nПривет, мир! Он опоздал.\n안녕하세요. 반갑습니다."
for protocol in (2, 3):
    r = client(protocol, socket_timeout=5, socket_connect_timeout=5, single_connection_client=True)
    doc, notes = f"strict{protocol}", f"strict-notes{protocol}"

    def strict(*arguments):
        try:
            return r.execute_command(*arguments)
        except redis.exceptions.TimeoutError:
            check(False, f"no reply within 5 s to {arguments!r}")

    put = strict("PUT", doc, STRICT_TEXT)
    size = len(STRICT_TEXT.encode())
    check(put.startswith(f"PUT id={doc} ".encode()) and f" bytes={size} ".encode() in put, f"strict PUT: {put!r}")
    check(b" sentences=5 " in put and b" paragraphs=3 " in put, f"strict PUT: {put!r}")
    got = strict("GET", doc)
    check(got[0] == STRICT_TEXT.encode(), f"strict GET gives back the bytes: {got!r}")
    view = strict("VIEW", doc, "width=200", "size=17", "font=DejaVu Sans")
    check(view.startswith(f"VIEW id={doc} ".encode()) and b" lines=" in view, f"strict VIEW: {view!r}")
    tap = strict("TAP", doc, "30", "10")
    check(tap[0].startswith(b'sentence 0 range=0..35 content=0..34 paragraph=0 text="Dr. Smith arrived at 5 p.m. today."'), f"strict TAP: {tap!r}")
    check(tap[-1].startswith(b"TAP hit sentence=0 "), f"strict TAP: {tap!r}")
    select = strict("SELECT", doc, "30", "10")
    check(select[-1] == b"SELECT added sentence=0 selected=1", f"strict SELECT: {select!r}")
    move = strict("MOVE", doc, f"to={notes}")
    check(move.startswith(f"MOVE sentences=1 to={notes} ".encode()), f"strict MOVE: {move!r}")
    moved = strict("GET", notes)
    check(moved[0] == b"Dr. Smith arrived at 5 p.m. today.", f"strict MOVE target: {moved!r}")
    source = strict("GET", doc)
    check(b"Dr. Smith" not in source[0] and "Привет, мир!".encode() in source[0], f"strict MOVE source: {source!r}")
    # Lectern's HELP through a library (redis-cli answers HELP itself).
    help = strict("HELP", "TAP")
    check(help[0].startswith(b"TAP <id> <x> <y>") and help[-1] == b"TAP", f"HELP TAP: {help!r}")
    check(strict("DEL", doc) == f"DEL id={doc}".encode() and strict("DEL", notes) == f"DEL id={notes}".encode(), "strict DEL")
    r.close()

print("ok")
