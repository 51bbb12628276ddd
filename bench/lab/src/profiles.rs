//! The string-heavy dataset `profiles` (issue 17): pages of player profiles, as a lobby's
//! roster or a friends list sends them. Each record has six short strings (two of them
//! optional), a list of up to four short badges and a few numbers — the case the other
//! datasets hide, where most of the bytes are short strings at arbitrary bit offsets.
//!
//! A fixed population of players (names, clans, titles, regions, badges drawn from word
//! lists, some non-ASCII) is generated once; each page shows 8–32 of them, and between
//! pages players come online, go away, change status lines and win or lose rating, so
//! the same strings recur across messages the way they do in real traffic (which is what
//! a compressor sees).

use bitwire::Packed;
use bitwire_bench::dataset::SplitMix64;
use bitwire_example::game::{Presence, Profile, Profiles};

use crate::datasets::NAMES;

/// Seed of the `profiles` generator.
pub const SEED_PROFILES: u64 = 0x9F0F_11E5;

/// Players in the simulated population.
const POPULATION: usize = 400;

const NAME_SUFFIXES: [&str; 8] = ["", "", "", "_", "42", "99", "x", "ö"];

const CLANS: [&str; 12] = [
    "RED", "BLU", "xX", "GG", "ACE", "NOVA", "WOLF", "ÆON", "K9", "ZEN", "PRO", "UwU",
];

const TITLES: [&str; 14] = [
    "Rookie",
    "Sharpshooter",
    "Medic",
    "Tank",
    "Sniper Elite",
    "Veteran",
    "Speedrunner",
    "Grandmaster",
    "Survivor",
    "Demolition",
    "Scout",
    "Ghost",
    "Champion 2026",
    "Früh Aufsteher",
];

const REGIONS: [&str; 9] = [
    "eu-west",
    "eu-north",
    "us-east",
    "us-west",
    "sa-east",
    "ap-south",
    "ap-east",
    "oce",
    "me-central",
];

const BADGES: [&str; 16] = [
    "founder",
    "beta",
    "streamer",
    "mvp",
    "ace",
    "clutch",
    "1k-kills",
    "veteran",
    "mod",
    "artist",
    "top100",
    "collector",
    "speedy",
    "medic",
    "sniper",
    "🔥",
];

const STATUS_WORDS: [&str; 24] = [
    "afk",
    "brb",
    "lfg",
    "ranked",
    "only",
    "chill",
    "games",
    "tonight",
    "grinding",
    "to",
    "diamond",
    "no",
    "mic",
    "eu",
    "evenings",
    "streaming",
    "now",
    "need",
    "duo",
    "for",
    "tournament",
    "über",
    "gg",
    "☕",
];

fn chance(rng: &mut SplitMix64, one_in: u64) -> bool {
    rng.below(one_in) == 0
}

fn pick<T: Copy>(rng: &mut SplitMix64, items: &[T]) -> T {
    items[rng.below(items.len() as u64) as usize]
}

fn status_line(rng: &mut SplitMix64) -> String {
    let words = 1 + rng.below(6) as usize;
    (0..words)
        .map(|_| pick(rng, &STATUS_WORDS))
        .collect::<Vec<_>>()
        .join(" ")
}

fn player(rng: &mut SplitMix64, i: usize) -> Profile {
    let mut name = format!("{}{}", pick(rng, &NAMES), pick(rng, &NAME_SUFFIXES));
    // Names are at most MAX_NAME (16) bytes; the lists keep them far shorter.
    name.truncate(16);
    let badge_count = rng.below(5) as usize;
    let mut badges: Vec<String> = Vec::with_capacity(badge_count);
    while badges.len() < badge_count {
        let b = pick(rng, &BADGES).to_string();
        if !badges.contains(&b) {
            badges.push(b);
        }
    }
    Profile {
        id: 100_000 + (i as u32) * 7 + rng.below(7) as u32,
        name,
        clan: (!chance(rng, 3)).then(|| pick(rng, &CLANS).to_string()),
        title: pick(rng, &TITLES).to_string(),
        region: pick(rng, &REGIONS).to_string(),
        presence: Presence::Offline,
        level: 1 + rng.below(100) as u8,
        rating: 800 + rng.below(2400) as u16,
        status: chance(rng, 2).then(|| status_line(rng)),
        badges,
    }
}

/// Moves one player's state on between pages.
fn evolve(rng: &mut SplitMix64, p: &mut Profile) {
    if chance(rng, 4) {
        p.presence = pick(
            rng,
            &[
                Presence::Online,
                Presence::Online,
                Presence::InMatch,
                Presence::InMatch,
                Presence::Away,
                Presence::Offline,
            ],
        );
    }
    if p.presence == Presence::InMatch {
        let change = rng.below(41) as i32 - 20;
        p.rating = (i32::from(p.rating) + change).clamp(0, 4000) as u16;
    }
    if chance(rng, 20) {
        p.status = (!chance(rng, 3)).then(|| status_line(rng));
    }
    if chance(rng, 200) && p.level < 100 {
        p.level += 1;
    }
}

/// `n` pages of player profiles (8–32 profiles each).
pub fn profiles(n: usize) -> Vec<Profiles> {
    let mut rng = SplitMix64::new(SEED_PROFILES);
    let mut population: Vec<Profile> = (0..POPULATION).map(|i| player(&mut rng, i)).collect();
    let mut out = Vec::with_capacity(n);
    for page in 0..n {
        let shown = 8 + rng.below(25) as usize;
        let start = rng.below(POPULATION as u64) as usize;
        let mut profiles = Vec::with_capacity(shown);
        for k in 0..shown {
            let p = &mut population[(start + k * 3) % POPULATION];
            evolve(&mut rng, p);
            profiles.push(p.clone());
        }
        let value = Profiles {
            page: page as u32,
            profiles,
        };
        let wire = value
            .encode_to_vec()
            .expect("generated values are in range");
        out.push(Profiles::decode(&wire).expect("bitwire decodes what it encoded"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_string_heavy_and_fixed() {
        let a = profiles(20);
        assert_eq!(a, profiles(20), "the generator is deterministic");
        let strings: usize = a
            .iter()
            .flat_map(|p| &p.profiles)
            .map(|r| {
                r.name.len()
                    + r.title.len()
                    + r.region.len()
                    + r.clan.as_ref().map_or(0, String::len)
                    + r.status.as_ref().map_or(0, String::len)
                    + r.badges.iter().map(String::len).sum::<usize>()
            })
            .sum();
        let bytes: usize = a.iter().map(|p| p.encode_to_vec().unwrap().len()).sum();
        assert!(
            strings * 10 > bytes * 7,
            "strings are most of the bytes: {strings} of {bytes}"
        );
        assert!(a
            .iter()
            .any(|p| p.profiles.iter().any(|r| r.clan.is_none())));
        assert!(a
            .iter()
            .any(|p| p.profiles.iter().any(|r| r.status.is_some())));
    }
}
