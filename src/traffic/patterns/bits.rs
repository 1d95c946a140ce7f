//! The bit permutations (Dally and Towles §3.2; DRB §5), on host ids with
//! b = log2 N bits, s_i the i-th bit of the source: `bitrev` d_i =
//! s_(b-1-i); `bitcomp` d_i = not s_i; `butterfly` swaps bits b-1 and 0;
//! `shuffle` rotates left by one bit; `transpose` d_i = s_((i + b/2) mod b)
//! (b even), i.e. (x, y) -> (y, x) on a square torus. They need N a power
//! of two (transpose: an even power).

use crate::topology::Network;
use crate::traffic::fixed::fixed;
use crate::traffic::kind::TrafficKind;
use crate::traffic::pattern::{Pattern, TrafficError, err};

/// log2 of the host count, or why the network has no such bits.
fn bits(net: &Network, name: &str) -> Result<u32, TrafficError> {
    let n = net.num_hosts() as u32;
    if n.is_power_of_two() {
        Ok(n.trailing_zeros())
    } else {
        Err(err(
            name,
            format!("needs a power-of-two number of hosts, this network has {n}"),
        ))
    }
}

/// The permutation `f` on the hosts of `net`.
fn perm(net: &Network, f: impl Fn(u32) -> u32) -> Pattern {
    Pattern::Permutation((0..net.num_hosts() as u32).map(f).collect())
}

/// `bitrev`.
pub const BITREV: TrafficKind = TrafficKind {
    name: "bitrev",
    aliases: &[],
    form: "bitrev",
    summary: "bit reversal: d_i = s_(b-1-i) (power-of-two hosts)",
    example: "bitrev",
    parse: |spec| {
        fixed(spec, "bitrev", |net, _, name| {
            let b = bits(net, name)?;
            Ok(perm(net, |s| s.reverse_bits() >> (32 - b)))
        })
    },
};

/// `bitcomp`.
pub const BITCOMP: TrafficKind = TrafficKind {
    name: "bitcomp",
    aliases: &[],
    form: "bitcomp",
    summary: "bit complement: d_i = not s_i (power-of-two hosts)",
    example: "bitcomp",
    parse: |spec| {
        fixed(spec, "bitcomp", |net, _, name| {
            bits(net, name)?;
            let n = net.num_hosts() as u32;
            Ok(perm(net, |s| !s & (n - 1)))
        })
    },
};

/// `butterfly`.
pub const BUTTERFLY: TrafficKind = TrafficKind {
    name: "butterfly",
    aliases: &[],
    form: "butterfly",
    summary: "swap the highest and lowest bits (power-of-two hosts)",
    example: "butterfly",
    parse: |spec| {
        fixed(spec, "butterfly", |net, _, name| {
            let b = bits(net, name)?;
            Ok(perm(net, |s| {
                let hi = (s >> (b - 1)) & 1;
                let lo = s & 1;
                (s & !(1 | (1 << (b - 1)))) | (lo << (b - 1)) | hi
            }))
        })
    },
};

/// `shuffle`.
pub const SHUFFLE: TrafficKind = TrafficKind {
    name: "shuffle",
    aliases: &[],
    form: "shuffle",
    summary: "perfect shuffle: rotate the bits left by one (power-of-two hosts)",
    example: "shuffle",
    parse: |spec| {
        fixed(spec, "shuffle", |net, _, name| {
            let b = bits(net, name)?;
            let n = net.num_hosts() as u32;
            Ok(perm(net, |s| ((s << 1) | (s >> (b - 1))) & (n - 1)))
        })
    },
};

/// `transpose`.
pub const TRANSPOSE: TrafficKind = TrafficKind {
    name: "transpose",
    aliases: &[],
    form: "transpose",
    summary: "matrix transpose: (x, y) -> (y, x) (an even power of two hosts)",
    example: "transpose",
    parse: |spec| {
        fixed(spec, "transpose", |net, _, name| {
            let b = bits(net, name)?;
            if b % 2 != 0 {
                let n = net.num_hosts();
                return Err(err(
                    name,
                    format!("needs an even power of two hosts (4, 16, 64..), this network has {n}"),
                ));
            }
            let h = b / 2;
            let lo = (1 << h) - 1;
            Ok(perm(net, |s| ((s & lo) << h) | (s >> h)))
        })
    },
};
