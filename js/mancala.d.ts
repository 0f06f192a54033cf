// mancala.d.ts - the types of the package's ES module (mancala.mjs).

export class MancalaError extends Error {
  /** The library's error kind: "spec", "position", "illegal", "over" ... */
  code: string;
}

export interface Result {
  /** 0 South, 1 North, null a draw. */
  winner: 0 | 1 | null;
  /** "captures", "repetition", "nomove", "points", ... (docs/RECORDS.md). */
  reason: string;
  scores: [number, number];
  /** How the game ended, in words for players. */
  text: string;
}

export class State {
  /** The position string, as `mancala apply` prints it. */
  toString(): string;
  position(): string;
  /** 0 South, 1 North; -4 when the game is over (OpenSpiel's terminal id). */
  currentPlayer(): number;
  legalActions(): number[];
  /** The legal moves in the rule file's notation, in legalActions' order. */
  legalMoves(): string[];
  isTerminal(): boolean;
  /** [South, North]: +1 a win, -1 a loss, 0 a draw or a game going on. */
  returns(): [number, number];
  result(): Result | null;
  history(): string[];
  ply(): number;
  /** Play an action; returns the move in words. Throws MancalaError. */
  applyAction(action: number): string;
  /** Play a move in notation ("C", "I-", "offer:AC"); returns it in words. */
  applyMove(move: string): string;
  undo(): void;
  clone(): State;
  /** Free the module's memory for this state. */
  free(): void;
  /** The last move played by this object, in words. */
  lastExplanation: string | null;
}

export class Game {
  readonly spec: string;
  readonly name: string;
  numDistinctActions(): number;
  newInitialState(): State;
  stateFromPosition(position: string): State;
}

export class Engine {
  /** One protocol line; its answer lines (a search must be bounded). */
  send(line: string): string[];
  /** An open-ended search (go infinite) one iteration deeper. */
  step(): { lines: string[]; more: boolean };
  free(): void;
}

export class EnginePump {
  constructor(call: (req: object) => any, uci: boolean, out: (line: string) => void,
              onQuit?: () => void);
  push(line: string): void;
  end(): void;
}

export interface Mancala {
  version(): string;
  gameNames(): string[];
  /** "oware", "oware:awari", "omweso:setup=all2" ... Throws MancalaError. */
  loadGame(spec: string): Game;
  engine(opts?: { uci?: boolean }): Engine;
  /** The JSON API of `mancala serve` (docs/API.md), its games in memory. */
  api(method: string, path: string, body?: object | string | null,
      token?: string | null): { status: number; type: string; body: string };
  /** The module's file system in memory (Emscripten's FS). */
  fs: any;
  call(req: object): any;
}

export function load(): Promise<Mancala>;
export default load;
