// The game schema's enums as the numbers FlatBuffers and protobuf carry (game.fbs,
// game.proto use bitwire's values), both ways: for the peers that hold and read them as
// numbers (peers/snapshot.ts, peers/events.ts, peers/profiles.ts).

import type * as bw from "../../../gen/game.js";

export const WEAPON_NUM: Readonly<Record<bw.Weapon, number>> = { Fist: 0, Pistol: 1, Rifle: 2, Shotgun: 3, Sniper: 4, Rocket: 9 };
const WEAPON_OF: Readonly<Record<number, bw.Weapon>> = { 0: "Fist", 1: "Pistol", 2: "Rifle", 3: "Shotgun", 4: "Sniper", 9: "Rocket" };
export const TEAM_NUM: Readonly<Record<bw.Team, number>> = { Red: 0, Blue: 1, Green: 2, Spectator: 3 };
const TEAM_OF: Readonly<Record<number, bw.Team>> = { 0: "Red", 1: "Blue", 2: "Green", 3: "Spectator" };
export const PRESENCE_NUM: Readonly<Record<bw.Presence, number>> = { Offline: 0, Online: 1, InMatch: 2, Away: 3 };
const PRESENCE_OF: Readonly<Record<number, bw.Presence>> = { 0: "Offline", 1: "Online", 2: "InMatch", 3: "Away" };

export function weaponOf(n: number): bw.Weapon {
  const w = WEAPON_OF[n];
  if (w === undefined) {
    throw new Error(`weapon ${n}`);
  }
  return w;
}

export function teamOf(n: number): bw.Team {
  const t = TEAM_OF[n];
  if (t === undefined) {
    throw new Error(`team ${n}`);
  }
  return t;
}

export function presenceOf(n: number): bw.Presence {
  const p = PRESENCE_OF[n];
  if (p === undefined) {
    throw new Error(`presence ${n}`);
  }
  return p;
}
