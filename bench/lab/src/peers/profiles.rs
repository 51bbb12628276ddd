//! The peers' side of the string-heavy dataset `profiles` (issue 17): the plain types a
//! serde-style user writes for `Presence`, `Profile` and `Profiles` (`String` fields,
//! `Option<String>` for the optional ones, `Vec<String>` badges, the narrowest standard
//! integers), their conversion from the generated types, the FlatBuffers build and read,
//! and the prost conversions. As in [`super::plain`], nothing here knows the schema's
//! bounds: that is what bitwire adds. There is no hand-written baseline for this dataset.

use ::flatbuffers::FlatBufferBuilder;
use bitwire_example::game as bw;
use serde::{Deserialize, Serialize};

use super::flatbuffers::{mix, FlatMessage, Scratch};
use super::flatbuffers_generated::bitwire::bench::fb;
use super::prost::ToProst;
use super::prost_generated as pb;

/// `Presence`.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub enum Presence {
    Offline,
    Online,
    InMatch,
    Away,
}

/// `Profile`.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub struct Profile {
    pub id: u32,
    pub name: String,
    pub clan: Option<String>,
    pub title: String,
    pub region: String,
    pub presence: Presence,
    pub level: u8,
    pub rating: u16,
    pub status: Option<String>,
    pub badges: Vec<String>,
}

/// `Profiles`.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub struct Profiles {
    pub page: u32,
    pub profiles: Vec<Profile>,
}

impl From<bw::Presence> for Presence {
    fn from(p: bw::Presence) -> Self {
        match p {
            bw::Presence::Offline => Presence::Offline,
            bw::Presence::Online => Presence::Online,
            bw::Presence::InMatch => Presence::InMatch,
            bw::Presence::Away => Presence::Away,
        }
    }
}

impl From<&bw::Profile> for Profile {
    fn from(p: &bw::Profile) -> Self {
        Profile {
            id: p.id,
            name: p.name.clone(),
            clan: p.clan.clone(),
            title: p.title.clone(),
            region: p.region.clone(),
            presence: p.presence.into(),
            level: p.level,
            rating: p.rating,
            status: p.status.clone(),
            badges: p.badges.clone(),
        }
    }
}

impl From<&bw::Profiles> for Profiles {
    fn from(p: &bw::Profiles) -> Self {
        Profiles {
            page: p.page,
            profiles: p.profiles.iter().map(Profile::from).collect(),
        }
    }
}

// ---- FlatBuffers ----------------------------------------------------------------------------

fn presence_fb(p: Presence) -> fb::Presence {
    match p {
        Presence::Offline => fb::Presence::Offline,
        Presence::Online => fb::Presence::Online,
        Presence::InMatch => fb::Presence::InMatch,
        Presence::Away => fb::Presence::Away,
    }
}

fn presence_from_fb(p: fb::Presence) -> Option<Presence> {
    Some(match p {
        fb::Presence::Offline => Presence::Offline,
        fb::Presence::Online => Presence::Online,
        fb::Presence::InMatch => Presence::InMatch,
        fb::Presence::Away => Presence::Away,
        _ => return None,
    })
}

/// Builds one profile: its strings first (FlatBuffers builds children before parents).
fn build_profile(
    fbb: &mut FlatBufferBuilder<'static>,
    badges: &mut Vec<::flatbuffers::WIPOffset<&'static str>>,
    p: &Profile,
) -> ::flatbuffers::WIPOffset<fb::Profile<'static>> {
    let name = fbb.create_string(&p.name);
    let clan = p.clan.as_deref().map(|c| fbb.create_string(c));
    let title = fbb.create_string(&p.title);
    let region = fbb.create_string(&p.region);
    let status = p.status.as_deref().map(|s| fbb.create_string(s));
    badges.clear();
    for b in &p.badges {
        let b = fbb.create_string(b);
        badges.push(b);
    }
    let badges = fbb.create_vector(badges);
    fb::Profile::create(
        fbb,
        &fb::ProfileArgs {
            id: p.id,
            name: Some(name),
            clan,
            title: Some(title),
            region: Some(region),
            presence: presence_fb(p.presence),
            level: p.level,
            rating: p.rating,
            status,
            badges: Some(badges),
        },
    )
}

/// A string's length folded in, `u64::MAX` for an absent one.
fn len_of(s: Option<&str>) -> u64 {
    s.map_or(u64::MAX, |s| s.len() as u64)
}

impl FlatMessage for Profiles {
    fn build(&self, fbb: &mut FlatBufferBuilder<'static>, scratch: &mut Scratch) {
        scratch.profiles.clear();
        for p in &self.profiles {
            let offset = build_profile(fbb, &mut scratch.badges, p);
            scratch.profiles.push(offset);
        }
        let profiles = fbb.create_vector(&scratch.profiles);
        let root = fb::Profiles::create(
            fbb,
            &fb::ProfilesArgs {
                page: self.page,
                profiles: Some(profiles),
            },
        );
        fbb.finish(root, None);
    }

    #[inline]
    fn read(bytes: &[u8]) -> Option<u64> {
        let m = ::flatbuffers::root::<fb::Profiles>(bytes).ok()?;
        let mut a = u64::from(m.page());
        for p in m.profiles()? {
            a = mix(a, p.id().into());
            a = mix(a, p.name()?.len() as u64);
            a = mix(a, len_of(p.clan()));
            a = mix(a, p.title()?.len() as u64);
            a = mix(a, p.region()?.len() as u64);
            a = mix(a, p.presence().0.into());
            a = mix(a, p.level().into());
            a = mix(a, p.rating().into());
            a = mix(a, len_of(p.status()));
            for b in p.badges()? {
                a = mix(a, b.len() as u64);
            }
        }
        Some(a)
    }

    fn to_plain(bytes: &[u8]) -> Option<Self> {
        let m = ::flatbuffers::root::<fb::Profiles>(bytes).ok()?;
        let mut profiles = Vec::new();
        for p in m.profiles()? {
            profiles.push(Profile {
                id: p.id(),
                name: p.name()?.to_string(),
                clan: p.clan().map(str::to_string),
                title: p.title()?.to_string(),
                region: p.region()?.to_string(),
                presence: presence_from_fb(p.presence())?,
                level: p.level(),
                rating: p.rating(),
                status: p.status().map(str::to_string),
                badges: p.badges()?.iter().map(str::to_string).collect(),
            });
        }
        Some(Profiles {
            page: m.page(),
            profiles,
        })
    }
}

// ---- prost ----------------------------------------------------------------------------------

fn presence_pb(p: Presence) -> i32 {
    (match p {
        Presence::Offline => pb::Presence::Offline,
        Presence::Online => pb::Presence::Online,
        Presence::InMatch => pb::Presence::InMatch,
        Presence::Away => pb::Presence::Away,
    }) as i32
}

fn presence_from_pb(p: i32) -> Option<Presence> {
    Some(match pb::Presence::try_from(p).ok()? {
        pb::Presence::Offline => Presence::Offline,
        pb::Presence::Online => Presence::Online,
        pb::Presence::InMatch => Presence::InMatch,
        pb::Presence::Away => Presence::Away,
    })
}

fn profile_pb(p: &Profile) -> pb::Profile {
    pb::Profile {
        id: p.id,
        name: p.name.clone(),
        clan: p.clan.clone(),
        title: p.title.clone(),
        region: p.region.clone(),
        presence: presence_pb(p.presence),
        level: p.level.into(),
        rating: p.rating.into(),
        status: p.status.clone(),
        badges: p.badges.clone(),
    }
}

fn profile_from_pb(p: &pb::Profile) -> Option<Profile> {
    Some(Profile {
        id: p.id,
        name: p.name.clone(),
        clan: p.clan.clone(),
        title: p.title.clone(),
        region: p.region.clone(),
        presence: presence_from_pb(p.presence)?,
        level: p.level.try_into().ok()?,
        rating: p.rating.try_into().ok()?,
        status: p.status.clone(),
        badges: p.badges.clone(),
    })
}

impl ToProst for Profiles {
    type Pb = pb::Profiles;

    fn to_prost(&self) -> pb::Profiles {
        pb::Profiles {
            page: self.page,
            profiles: self.profiles.iter().map(profile_pb).collect(),
        }
    }

    fn from_prost(m: &pb::Profiles) -> Option<Self> {
        Some(Profiles {
            page: m.page,
            profiles: m
                .profiles
                .iter()
                .map(profile_from_pb)
                .collect::<Option<_>>()?,
        })
    }
}
