// The peers on profiles (issue 17's string-heavy dataset: pages of player profiles, each
// with six short strings, clan and status optional, a list of up to four badges and a few
// numbers): bitwire, FlatBuffers, protobuf-es (both given the presence as a number,
// converted untimed) and msgpackr, each round-tripped on every page by main.ts before it
// is timed, as on events. There is no hand-written peer here: no goal compares bitwire
// with one on this dataset.

import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { BitWriter } from "@bitwire/runtime";
import * as flatbuffers from "flatbuffers";

import * as bw from "../../../gen/game.js";
import * as fb from "../../peers/fb/bitwire/bench/fb.js";
import * as pb from "../../peers/pb/game_pb.js";
import { PRESENCE_NUM, presenceOf } from "./enums.js";
import { KEEP_MASK, NOTES, type Peer, copies, kept, msgpackrPeer } from "./peer.js";

export function profilesPeers(values: bw.Profiles[]): Peer[] {
  const nums = values.map(numProfiles);
  return [bitwireProfiles(values), flatbuffersProfiles(nums), protobufProfiles(nums), msgpackrPeer(values)];
}

/** A profile with its presence as a number, as FlatBuffers and protobuf users hold it. */
type NumProfile = Omit<bw.Profile, "presence"> & { presence: number };
interface NumProfiles {
  page: number;
  profiles: NumProfile[];
}

function numProfiles(v: bw.Profiles): NumProfiles {
  return {
    page: v.page,
    profiles: v.profiles.map((p) => ({ ...p, badges: [...p.badges], presence: PRESENCE_NUM[p.presence] })),
  };
}

function bitwireProfiles(values: bw.Profiles[]): Peer {
  const n = values.length;
  const w = new BitWriter(2048);
  const frames = copies(n, (i) => bw.encodeProfiles(values[i] as bw.Profiles));
  const out = kept();
  return {
    library: "bitwire",
    note: NOTES.bitwire,
    frames,
    bitwireBytes: true,
    encodeAll(count) {
      let s = 0;
      for (let i = 0; i < count; i++) {
        s += bw.encodeProfiles(values[i] as bw.Profiles, w).length;
      }
      return s;
    },
    decodeAll(count) {
      for (let i = 0; i < count; i++) {
        out[i & KEEP_MASK] = bw.decodeProfiles(frames[i] as Uint8Array);
      }
      return count;
    },
    check: (i) => bw.decodeProfiles(frames[i] as Uint8Array),
  };
}

/** FlatBuffers encoding of one page: every string and the badge vector before its table. */
function fbEncodeProfiles(b: flatbuffers.Builder, v: NumProfiles, offsets: number[], badges: number[]): Uint8Array {
  b.clear();
  const ps = v.profiles;
  offsets.length = 0;
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i] as NumProfile;
    const name = b.createString(p.name);
    const clan = p.clan === null ? 0 : b.createString(p.clan);
    const title = b.createString(p.title);
    const region = b.createString(p.region);
    const status = p.status === null ? 0 : b.createString(p.status);
    let badgeVec = 0;
    if (p.badges.length > 0) {
      badges.length = 0;
      for (let k = 0; k < p.badges.length; k++) {
        badges.push(b.createString(p.badges[k] as string));
      }
      badgeVec = fb.Profile.createBadgesVector(b, badges);
    }
    // createProfile leaves out a zero offset (an absent clan, status or badge vector).
    offsets.push(fb.Profile.createProfile(b, p.id, name, clan, title, region, p.presence, p.level, p.rating, status, badgeVec));
  }
  const vec = fb.Profiles.createProfilesVector(b, offsets);
  b.finish(fb.Profiles.createProfiles(b, v.page, vec));
  return b.asUint8Array();
}

function flatbuffersProfiles(nums: NumProfiles[]): Peer {
  const n = nums.length;
  const b = new flatbuffers.Builder(2048);
  const offsets: number[] = [];
  const badges: number[] = [];
  const frames = copies(n, (i) => fbEncodeProfiles(b, nums[i] as NumProfiles, offsets, badges));
  const root = new fb.Profiles();
  const acc = new fb.Profile();
  return {
    library: "flatbuffers",
    note: `${NOTES.flatbuffers}; an absent clan or status is an absent field, an empty badge list an absent vector`,
    frames,
    bitwireBytes: false,
    encodeAll(count) {
      let s = 0;
      for (let i = 0; i < count; i++) {
        s += fbEncodeProfiles(b, nums[i] as NumProfiles, offsets, badges).length;
      }
      return s;
    },
    decodeAll(count) {
      let s = 0;
      for (let i = 0; i < count; i++) {
        const v = fb.Profiles.getRootAsProfiles(new flatbuffers.ByteBuffer(frames[i] as Uint8Array), root);
        s += v.page();
        const len = v.profilesLength();
        for (let k = 0; k < len; k++) {
          const p = v.profiles(k, acc) as fb.Profile;
          s += p.id() + (p.name()?.length ?? 0) + (p.clan()?.length ?? 0) + (p.title()?.length ?? 0) + (p.region()?.length ?? 0);
          s += p.presence() + p.level() + p.rating() + (p.status()?.length ?? 0);
          const nb = p.badgesLength();
          for (let j = 0; j < nb; j++) {
            s += p.badges(j).length;
          }
        }
      }
      return s;
    },
    check(i) {
      const v = fb.Profiles.getRootAsProfiles(new flatbuffers.ByteBuffer(frames[i] as Uint8Array));
      const profiles: bw.Profile[] = [];
      for (let k = 0; k < v.profilesLength(); k++) {
        const p = v.profiles(k) as fb.Profile;
        const badges: string[] = [];
        for (let j = 0; j < p.badgesLength(); j++) {
          badges.push(p.badges(j));
        }
        profiles.push({
          id: p.id(),
          name: p.name() ?? "",
          clan: p.clan(),
          title: p.title() ?? "",
          region: p.region() ?? "",
          presence: presenceOf(p.presence()),
          level: p.level(),
          rating: p.rating(),
          status: p.status(),
          badges,
        });
      }
      return { page: v.page(), profiles };
    },
  };
}

function protobufProfiles(nums: NumProfiles[]): Peer {
  const n = nums.length;
  const msgs = nums.map((v) =>
    create(pb.ProfilesSchema, {
      page: v.page,
      profiles: v.profiles.map((p) => {
        const { clan, status, ...rest } = p;
        return { ...rest, ...(clan === null ? {} : { clan }), ...(status === null ? {} : { status }) };
      }),
    }),
  );
  const frames = copies(n, (i) => toBinary(pb.ProfilesSchema, msgs[i] as pb.Profiles));
  const out = kept();
  return {
    library: "protobuf-es",
    note: `${NOTES["protobuf-es"]}; clan and status are proto3 optional fields`,
    frames,
    bitwireBytes: false,
    encodeAll(count) {
      let s = 0;
      for (let i = 0; i < count; i++) {
        s += toBinary(pb.ProfilesSchema, msgs[i] as pb.Profiles).length;
      }
      return s;
    },
    decodeAll(count) {
      for (let i = 0; i < count; i++) {
        out[i & KEEP_MASK] = fromBinary(pb.ProfilesSchema, frames[i] as Uint8Array);
      }
      return count;
    },
    check(i) {
      const m = fromBinary(pb.ProfilesSchema, frames[i] as Uint8Array);
      return {
        page: m.page,
        profiles: m.profiles.map(
          (p): bw.Profile => ({
            id: p.id,
            name: p.name,
            clan: p.clan ?? null,
            title: p.title,
            region: p.region,
            presence: presenceOf(p.presence),
            level: p.level,
            rating: p.rating,
            status: p.status ?? null,
            badges: [...p.badges],
          }),
        ),
      };
    },
  };
}
