"""A PettingZoo-style AEC environment over a mancala State, without
depending on PettingZoo: the same attributes and calls (reset, step,
observe, last, agents, agent_selection, rewards, terminations,
truncations, infos), with agents "player_0" (South) and "player_1"
(North)."""

import numpy as np

AGENTS = ("player_0", "player_1")


class Env:
    """Turn-based two-player environment of one game.

    Rewards are given once, when the game ends: +1 to the winner, -1 to the
    loser, 0 each for a draw.  max_plies > 0 truncates a game after that
    many plies (rewards 0).  As in PettingZoo, once an agent is terminated
    or truncated it must be stepped with None, which removes it from
    agents; the game is over for good when agents is empty.
    """

    metadata = {"name": "mancala", "is_parallelizable": False}

    def __init__(self, game="oware", position=None, max_plies=0):
        from . import Game
        self.game = game if isinstance(game, Game) else Game(game)
        self.position = position
        self.max_plies = int(max_plies)
        self.possible_agents = list(AGENTS)
        self.num_actions = self.game.num_distinct_actions()
        self.observation_shape = tuple(self.game.observation_tensor_shape())
        self.np_random = np.random.default_rng()
        self.state = None
        self.reset()

    # -- PettingZoo's calls -------------------------------------------------

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
        position = (options or {}).get("position", self.position)
        self.state = self.game.new_initial_state(position=position)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self._settle()
        self._select()

    def observe(self, agent):
        """{"observation": float32 array from agent's view,
        "action_mask": uint8 array, 1 for each legal action of agent}."""
        player = AGENTS.index(agent)
        return {"observation": self.state.observation_tensor(player),
                "action_mask": self.state.legal_actions_mask(player)}

    def last(self, observe=True):
        a = self.agent_selection
        obs = self.observe(a) if observe else None
        return (obs, self._cumulative_rewards[a], self.terminations[a],
                self.truncations[a], self.infos[a])

    def step(self, action):
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            if action is not None:
                raise ValueError("%s is done: step(None) only" % a)
            self.agents.remove(a)
            self._cumulative_rewards[a] = 0.0
            self._select()
            return
        self._cumulative_rewards[a] = 0.0
        for b in AGENTS:
            self.rewards[b] = 0.0
        self.state.apply_action(action)  # checked there: no int() rounding
        self._settle()
        self._select()

    def action_mask(self, agent=None):
        return self.observe(agent or self.agent_selection)["action_mask"]

    def sample_action(self, agent=None):
        """A uniformly random legal action of agent (default: to move)."""
        legal = np.flatnonzero(self.action_mask(agent))
        return int(self.np_random.choice(legal)) if len(legal) else None

    def render(self):
        return self.state.position()

    def close(self):
        pass

    # -- inside --------------------------------------------------------------

    def _settle(self):
        """Rewards and ends after a move (or at the start)."""
        st = self.state
        for b in AGENTS:
            self.infos[b] = {"legal_moves": st.legal_moves()
                             if AGENTS.index(b) == st.current_player()
                             else []}
        if st.is_terminal():
            ret = st.returns()
            for i, b in enumerate(AGENTS):
                self.rewards[b] = ret[i]
                self._cumulative_rewards[b] += ret[i]
                self.terminations[b] = True
            res = st.result()
            for b in AGENTS:
                self.infos[b]["result"] = res
        elif self.max_plies > 0 and st.move_number() >= self.max_plies:
            for b in AGENTS:
                self.truncations[b] = True

    def _select(self):
        if not self.agents:
            return
        done = [a for a in self.agents
                if self.terminations[a] or self.truncations[a]]
        if done:
            self.agent_selection = done[0]
            return
        self.agent_selection = AGENTS[self.state.current_player()]


def env(game="oware", **kwargs):
    """The AEC environment of a game (a spec or a Game)."""
    return Env(game, **kwargs)
