-- Anonymous games (docs/table-talk.md, "Anonymous games"): a seat's other name. While an
-- anonymous game runs, `name` is the seat's pseudonym ("Player 2") and `alias` the name its
-- player joined under; the game's end swaps them, so that `alias` then keeps the pseudonym
-- under which the game was played and recorded. NULL in every other game.
ALTER TABLE players ADD COLUMN alias TEXT;
