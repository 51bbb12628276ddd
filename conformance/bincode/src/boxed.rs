//! `#[serde(with = "crate::boxed")]` for `Box<[T; N]>`: generated Rust holds arrays above
//! 4 KiB out of line, serde's own array impls stop at 32 elements, and `Box<T>` is
//! written as `T` — so this is serde-big-array's tuple (no length) behind the box.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_big_array::BigArray;

#[allow(clippy::borrowed_box)] // the field's type is Box<[T; N]>
pub fn serialize<S, T, const N: usize>(value: &Box<[T; N]>, s: S) -> Result<S::Ok, S::Error>
where
    S: Serializer,
    T: Serialize,
{
    BigArray::serialize(&**value, s)
}

pub fn deserialize<'de, D, T, const N: usize>(d: D) -> Result<Box<[T; N]>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    <[T; N] as BigArray<'de, T>>::deserialize(d).map(Box::new)
}
