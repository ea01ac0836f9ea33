// A sixteen-player melee of simultaneous secret orders in boardgame.io: every living player
// names a move and a target each turn; the turn resolves when all have moved.
const { ActivePlayers } = require('boardgame.io/core');
const MOVES = ['strike', 'lunge', 'assail', 'dodge', 'block', 'riposte', 'taunt', 'focus', 'mend', 'halt'];
const MAX_ROUNDS = Number(process.env.MAX_ROUNDS || 10);
module.exports = {
  name: 'melee',
  minPlayers: 2,
  maxPlayers: 16,
  setup: ({ ctx }) => ({ round: 1, hp: Array(ctx.numPlayers).fill(20), vp: Array(ctx.numPlayers).fill(0), orders: {} }),
  turn: {
    activePlayers: ActivePlayers.ALL_ONCE,
    endIf: ({ ctx }) => ctx.activePlayers === null || Object.keys(ctx.activePlayers).length === 0,
    onEnd: ({ G }) => {
      for (const [p, o] of Object.entries(G.orders)) {
        if (o.move === 'strike' || o.move === 'lunge' || o.move === 'assail') {
          const t = Number(o.target);
          const d = Math.min(G.hp[t], 3);
          G.hp[t] -= d; G.vp[Number(p)] += d;
        }
      }
      G.orders = {};
      G.round += 1;
    },
  },
  moves: {
    // Processed by the server alone (client: false): a bot's state then changes only with
    // the server's updates, so an order refused as stale is seen missing and sent again.
    order: {
      move: ({ G, playerID }, move, target) => { G.orders[playerID] = { move, target }; },
      client: false,
    },
  },
  endIf: ({ G }) => (G.round > MAX_ROUNDS ? { vp: G.vp } : undefined),
  MOVES,
};
