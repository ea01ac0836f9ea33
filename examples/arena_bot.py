"""A Crossing Swords bot for `herald arena` (docs/bots.md): a random move with a legal target."""
import json, random, sys

for line in sys.stdin:
    event = json.loads(line)
    if event["event"] == "prompt":
        prompt = event["prompt"]
        move = random.choice([m for m in prompt["moves"] if m["targets"]])
        target = prompt["players"][random.choice(move["targets"])]["id"]
        order = {"round": prompt["round"], "step": prompt["step"], "move": move["move"], "target": target}
        print(json.dumps(order), flush=True)
