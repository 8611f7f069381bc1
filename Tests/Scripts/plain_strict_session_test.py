#!/usr/bin/env python3
"""A strict request/response session over the plain line protocol, with
nothing but a socket, as a new app's first client would be written: send
one request, read its whole reply (5 s read timeout: a reply that does not
come fails instead of waiting), then send the next. The literals are sent
with no line end after their bytes, which the protocol allows; the reply
must come without one. Exits non-zero with a message on the first
mismatch. Usage: plain_strict_session_test.py PORT (run by
StrictSessionScriptTests.swift)."""
import socket
import sys

port = int(sys.argv[1])


def fail(message):
    print("FAILED:", message)
    sys.exit(1)


def is_final(line):
    """`[@tag ]OK …` or `[@tag ]ERR …`: the line that ends a reply."""
    words = line.split(" ")
    if words[0].startswith("@"):
        words = words[1:]
    return bool(words) and words[0] in ("OK", "ERR")


class Session:
    def __init__(self):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.buffer = b""

    def _fill(self, what):
        try:
            chunk = self.sock.recv(65536)
        except socket.timeout:
            fail(f"no reply within 5 s after {what!r} (had {self.buffer!r})")
        if not chunk:
            fail(f"connection closed after {what!r}")
        self.buffer += chunk

    def _line(self, what):
        while b"\n" not in self.buffer:
            self._fill(what)
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.rstrip(b"\r").decode()

    def _bytes(self, count, what):
        while len(self.buffer) < count:
            self._fill(what)
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def request(self, raw):
        """Sends `raw` as it is; returns (data lines, literals, final line)."""
        self.sock.sendall(raw)
        lines, literals = [], []
        while True:
            line = self._line(raw)
            if line.startswith("* {") and line.endswith("}"):
                literals.append(self._bytes(int(line[3:-1]), raw))
                if self.buffer.startswith(b"\r\n"):
                    self.buffer = self.buffer[2:]
                elif self.buffer.startswith(b"\n"):
                    self.buffer = self.buffer[1:]
            elif line.startswith("* "):
                lines.append(line[2:])
            elif line.startswith("! "):
                continue  # an event: never part of a reply
            elif is_final(line):
                return lines, literals, line
            else:
                fail(f"unexpected line {line!r} after {raw!r}")


session = Session()

# The issue's own example: nothing at all after the literal's 9 bytes.
_, _, final = session.request(b"PUT t1 {9}\r\nOne. Two.")
if not final.startswith("OK PUT id=t1 ") or " sentences=2 " not in final:
    fail(f"PUT t1: {final!r}")

# Text with line ends and three scripts, again with no line end after it.
text = "Dr. Smith arrived at 5 p.m. today.\nПривет, мир! Он опоздал.\n안녕하세요. 반갑습니다.".encode()
_, _, final = session.request(b"PUT story {%d}\r\n" % len(text) + text)
if not final.startswith("OK PUT id=story ") or f" bytes={len(text)} " not in final:
    fail(f"PUT story: {final!r}")

_, literals, final = session.request(b"GET story\r\n")
if literals != [text] or not final.startswith("OK GET id=story "):
    fail(f"GET story: {literals!r} {final!r}")

_, _, final = session.request(b'VIEW story width=200 size=17 font="DejaVu Sans"\r\n')
if not final.startswith("OK VIEW id=story ") or " lines=" not in final:
    fail(f"VIEW: {final!r}")

lines, _, final = session.request(b"TAP story 30 10\r\n")
if not lines or not lines[0].startswith('sentence 0 range=0..35 content=0..34 paragraph=0 text="Dr. Smith arrived at 5 p.m. today."'):
    fail(f"TAP data: {lines!r}")
if not final.startswith("OK TAP hit sentence=0 "):
    fail(f"TAP: {final!r}")

_, _, final = session.request(b"SELECT story 30 10\r\n")
if final != "OK SELECT added sentence=0 selected=1":
    fail(f"SELECT: {final!r}")

_, _, final = session.request(b"MOVE story to=notes\r\n")
if not final.startswith("OK MOVE sentences=1 to=notes "):
    fail(f"MOVE: {final!r}")

_, literals, _ = session.request(b"GET notes\r\n")
if literals != [b"Dr. Smith arrived at 5 p.m. today."]:
    fail(f"GET notes: {literals!r}")

# A literal as the very last bytes of a tagged request, then a PING: the
# reply to the PUT came before the PING was sent.
_, _, final = session.request(b"@7 PUT t2 {4}\r\nHi. ")
if not final.startswith("@7 OK PUT id=t2 "):
    fail(f"tagged PUT: {final!r}")
_, _, final = session.request(b"PING\r\n")
if final != "OK PONG":
    fail(f"PING: {final!r}")

print("ok")
