// boardgame.io's own server (Koa + socket.io, in memory), serving the melee of game.js.
// `origins` admits the load generator's connections (CORS is closed by default since 0.45).
const { Server } = require('boardgame.io/server');
const game = require('./game');
const server = Server({ games: [game], origins: [/.*/] });
server.run(Number(process.env.PORT || 8000));
