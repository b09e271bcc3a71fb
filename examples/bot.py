#!/usr/bin/env python3
"""A cardtable bot: joins a room of any game and plays a match from `legal` (docs/protocol.md).
  python3 examples/bot.py http://127.0.0.1:7878 [--game sorcery | --room ID] [--name ada]
Needs `websockets` (apt-get install python3-websockets). Follows "When a room moves": waits out
`503 moving`, reconnects with its token, resends an unanswered move with its serial; as host it
adds bots and starts. At the end it prints a JSON line: the match and the refusals it met."""
import argparse, asyncio, json, random, sys, time, urllib.error, urllib.request, websockets
def parse(raw):  # a body as JSON, or as text when it is not JSON (an HTML page?)
    try: return json.loads(raw or b"null")
    except ValueError: return raw.decode(errors="replace")
def http(base, path, body=None):
    req = urllib.request.Request(base + path, data=body and json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as r: return r.status, parse(r.read())
    except urllib.error.HTTPError as e: return e.code, parse(e.read())
    except OSError as e: return 0, str(e)
HARMFUL = {"Attack", "Duel", "Barbarians", "RainArrows", "Dismantle", "Lightning", "Acedia"}
def pick(legal, nth):  # lock a choice in, harm, end a phase, answer, do something; `nth` rotates
    for good in (lambda a: a.get("confirm") is True or a.get("type") == "Confirm",
                 lambda a: a.get("type") == "Use" and a.get("kind") in HARMFUL,
                 lambda a: a.get("type") == "EndPlay", lambda a: a.get("type") == "Respond",
                 lambda a: a.get("type") != "End", lambda a: True):
        best = next((i for i, a in enumerate(legal) if good(a)), None)
        if best is not None: return legal[(best + nth) % len(legal)]
class Bot:
    def __init__(self, a):
        self.a, self.token, self.pending, self.tries, self.playing, self.ended = a, None, None, {}, False, None
        self.met = dict.fromkeys(("moving", "proxy", "notJson", "unread", "connections", "moves"), 0)
    def refused(self, status, body):  # a 5xx on the way in: JSON {"error":"moving"} or not
        if not isinstance(body, dict): self.met["notJson"] += 1
        elif body.get("error") == "moving": self.met["proxy" if "proxy" in body else "moving"] += 1
    def resolve(self):  # GET /api/rooms/{id} until a node owns the room
        for attempt in range(300):
            status, body = http(self.a.url, f"/api/rooms/{self.a.room}")
            if status == 200: return body.get("path", "")
            if status == 404: sys.exit(f"no room {self.a.room}")
            if status >= 500: self.refused(status, body)
            time.sleep(min(1 + attempt / 10, 3) * random.uniform(0.2, 0.6))
        sys.exit("the room was not found again within a minute or so")
    async def send(self, ws, **packet): await ws.send(json.dumps(packet))
    async def act(self, ws):  # the pending move, with the serial of the table it was chosen at
        await asyncio.sleep(max(self.a.think_ms, 60) / 1000)  # and under the 20 packets a second
        await self.send(ws, type="Act", action=self.pending[0], serial=self.pending[1])
    async def on(self, ws, m):  # one packet; True once the match is over
        t = m["type"]
        if t == "Joined":
            self.token = m["token"]
            if self.pending: await self.act(ws)  # unanswered before a drop: applied at most once
        elif t == "PlayerJoinRejected":
            if m["code"] != "unknown_token": sys.exit(f"refused: {m}")
            self.token = None; await ws.close()  # the match ended while away: join by name
        elif t in ("Acted", "ActionFailed") and self.pending and m.get("serial", self.pending[1]) == self.pending[1]:
            self.met["moves"] += t == "Acted"; self.pending = None
            if t == "ActionFailed": await self.send(ws, type="GameDataRequest")
        elif t == "GameEnded" and self.playing: self.ended = m; return True
        elif t == "GameDataSync":
            g = m["gameData"]
            if not g["gameStarted"]:
                if self.playing: self.ended = {"matchId": g["lastMatch"]}; return True
                if g["host"] == self.a.name:  # as host: bots up to the game's least, then start
                    few = sum(not p["isSpectator"] for p in g["players"]) < g["minPlayers"]
                    await self.send(ws, **({"type": "AddBot", "bot": self.a.level} if few else {"type": "StartGame"}))
                return False
            self.playing = True
            if self.pending and g["serial"] > self.pending[1]: self.pending = None  # moved on
            if any(w["username"] == self.a.name for w in g["waitingOn"]) and g.get("legal") and not self.pending:
                n = self.tries[g["serial"]] = self.tries.get(g["serial"], -1) + 1
                self.pending = (pick(g["legal"], n), g["serial"]); await self.act(ws)
        return False
    async def run(self):
        while True:
            path = self.resolve()
            url = self.a.url.replace("http", "ws", 1) + f"{path}/api/rooms/{self.a.room}/ws"
            try:
                async with websockets.connect(url, open_timeout=5, max_size=1 << 22) as ws:
                    self.met["connections"] += 1
                    hello = {"type": "Reconnect", "token": self.token} if self.token else {"type": "JoinGame", "username": self.a.name}
                    await self.send(ws, **hello)
                    async for raw in ws:
                        if await self.on(ws, json.loads(raw)): return self.ended
            except websockets.exceptions.InvalidHandshake as e:  # refused in HTTP (the proxy: node down)
                r = getattr(e, "response", None)
                status = getattr(e, "status_code", None) or getattr(r, "status_code", 0)
                if status >= 500 and getattr(r, "body", None) is None: self.met["unread"] += 1  # websockets < 11
                elif status >= 500: self.refused(status, parse(r.body))
            except (OSError, asyncio.TimeoutError, websockets.exceptions.WebSocketException):
                pass  # dropped or closed (4001 "moved"): look the room up again
            await asyncio.sleep(random.uniform(0.05, 0.3))
def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0]); p.add_argument("url")
    for arg, dflt in (("--room", None), ("--game", "buckshot"), ("--name", "pybot"), ("--level", "easy")): p.add_argument(arg, default=dflt)
    p.add_argument("--think-ms", type=int, default=0); a = p.parse_args()
    if not a.room:
        status, body = http(a.url, "/api/rooms", {"game": a.game, "botDelayMs": 0})
        a.room = body["id"] if status == 201 else sys.exit(f"creating a room: {status} {body}")
    bot = Bot(a); ended = asyncio.run(bot.run())
    print(json.dumps({"room": a.room, "matchId": ended.get("matchId"), "winner": ended.get("winner"), **bot.met}))
if __name__ == "__main__": main()
