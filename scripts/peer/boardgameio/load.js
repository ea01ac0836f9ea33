// Creates LOBBIES matches of PLAYERS players through boardgame.io's lobby API, connects a
// client per player over socket.io, and has each answer its turn with a random order until
// every match is over. Reports moves/s and the server's moves per CPU-second (from /proc).
const fs = require('fs');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const game = require('./game');
const PORT = Number(process.env.PORT || 8000), LOBBIES = Number(process.env.LOBBIES || 100), PLAYERS = Number(process.env.PLAYERS || 16);
const SERVER_PID = process.env.SERVER_PID;
const base = `http://127.0.0.1:${PORT}`;
function cpu(pid) {
  if (!pid) return 0;
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in clock ticks of 1/100 s
}
function rss(pid) { const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/); return m ? Number(m[1]) / 1024 : 0; }
async function post(path, body) {
  const r = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.json();
}
(async () => {
  const seats = [];
  for (let l = 0; l < LOBBIES; l++) {
    const { matchID } = await post('/games/melee/create', { numPlayers: PLAYERS });
    for (let p = 0; p < PLAYERS; p++) {
      const { playerCredentials } = await post(`/games/melee/${matchID}/join`, { playerID: String(p), playerName: `Bot ${p}` });
      seats.push({ matchID, playerID: String(p), credentials: playerCredentials });
    }
  }
  let sent = 0, finished = 0, started = 0;
  const ROUNDS = Number(process.env.MAX_ROUNDS || 10);
  const clients = [];
  let done;
  const allDone = new Promise((r) => (done = r));
  for (const s of seats) {
    const client = Client({ game, multiplayer: SocketIO({ server: base }), matchID: s.matchID, playerID: s.playerID, credentials: s.credentials, debug: false });
    let lastSent = -1, over = false, latest = null, lastChange = Date.now();
    const act = (state) => {
      if (state) { latest = state; lastChange = Date.now(); }
      state = latest;
      if (!state || over) return;
      if (state.ctx.gameover) { over = true; if (++finished === seats.length) done(); return; }
      const active = state.ctx.activePlayers;
      // boardgame.io refuses a move made against a state that has since changed (another
      // player's move), so a bot answers each new state it is sent until its order is in.
      if (started && active && active[s.playerID] !== undefined && state.G.orders[s.playerID] === undefined && lastSent !== state._stateID) {
        lastSent = state._stateID;
        const move = game.MOVES[Math.floor(Math.random() * game.MOVES.length)];
        let target = Math.floor(Math.random() * (PLAYERS - 1)); if (target >= Number(s.playerID)) target += 1;
        client.moves.order(move, String(target));
        sent++;
      }
    };
    client.subscribe(act);
    // A bot whose match has not moved for a second asks the server for the match again
    // (a re-sync) and answers afresh: without it a few matches in a hundred stalled, a refused
    // order's bot never hearing of the state it should have answered.
    const unstick = () => {
      if (!started || over || !latest || Date.now() - lastChange < 1000) return false;
      const active = latest.ctx.activePlayers;
      if (!active || active[s.playerID] === undefined || latest.G.orders[s.playerID] !== undefined) return false;
      lastSent = -1; lastChange = Date.now();
      client.updateCredentials(s.credentials);
      return true;
    };
    clients.push({ client, act, unstick });
  }
  for (const c of clients) c.client.start();
  await new Promise((r) => setTimeout(r, 3000)); // connected
  const idle = SERVER_PID ? rss(SERVER_PID) : 0;
  const cpu0 = cpu(SERVER_PID), t0 = Date.now();
  started = 1;
  let resyncs = 0;
  const watchdog = setInterval(() => { for (const c of clients) if (c.unstick()) resyncs++; }, 250);
  const ticker = setInterval(() => console.error(`progress: ${sent} sent, ${finished} of ${seats.length} seats finished`), 5000);
  for (const c of clients) c.act(null); // each client answers the state it was last sent
  await allDone;
  const secs = (Date.now() - t0) / 1000, used = cpu(SERVER_PID) - cpu0;
  clearInterval(ticker); clearInterval(watchdog);
  const moves = LOBBIES * PLAYERS * ROUNDS; // every player's order of every round was accepted
  console.log(`boardgame.io ${LOBBIES} x ${PLAYERS}: ${moves} moves in ${secs.toFixed(1)} s = ${(moves / secs).toFixed(0)} moves/s; server CPU ${used.toFixed(1)} s = ${(moves / used).toFixed(0)} moves per CPU-second (${sent} sent: ${sent - moves} refused as stale and sent again, ${resyncs} re-syncs); server memory connected ${idle.toFixed(0)} MB, after play ${SERVER_PID ? rss(SERVER_PID).toFixed(0) : '?'} MB`);
  process.exit(0);
})();
